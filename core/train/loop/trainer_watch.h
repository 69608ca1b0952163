#pragma once
// The gradient watch's state inside a Trainer: per-layer statistics, clip statistics,
// non-finite forensics, divergence, the loss doctor and in-memory snapshots. Include only from
// core/train/trainer*.cpp; the Trainer::Impl methods using it are in trainer_watch.cpp.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/train/monitors/clip_stats.h"
#include "core/train/monitors/loss_doctor.h"
#include "core/train/monitors/non_finite.h"
#include "core/train/state/snapshots.h"
#include "core/train/step/layer_stats.h"
#include "core/train/step/step.h"

namespace trainscope {

/// Sees inside each step (StepWatch) and keeps the monitors. Training thread only.
struct GradientWatch : StepWatch {
  /// `chance`: the data's chance levels (the divergence check and the loss doctor use them).
  GradientWatch(const TrainConfig& config, const TrainState& state, const ChanceLevels& chance);

  /// Called before step `step` (1-based) runs: decides whether it is a layer-statistics step.
  void startStep(int64_t step);
  void afterMeasure(const TrainState& state, const StepResult& r) override;
  void beforeUpdate(const TrainState& state) override;
  void afterUpdate(const TrainState& state) override;

  /// The layer record of the step just run, when it was a statistics step or a step that was
  /// not applied (non-finite; its update ratios are NaN). None when layer statistics are off.
  std::optional<LayerStatsRecord> takeRecord(int64_t step, int64_t epoch);
  /// Non-finite step: the tensors whose gradient norm is not finite, else the largest.
  NonFiniteEvidence evidence(const StepResult& r, int64_t step, int64_t epoch) const;

  std::vector<std::string> names;  ///< state_dict names of the parameter tensors
  LayerStats layers;
  int64_t every = 0;  ///< training.layer_stats_every
  bool due = false;
  bool measured = false;
  std::vector<double> grad_norms, update_ratios;
  ClipStats clip_stats;
  DivergenceMonitor divergence;
  LossDoctor doctor;
  ChanceLevels chance;       ///< the data's (DoctorContext::chance)
  std::string last_kind;     ///< the doctor's last reported kind
  std::string pending_kind;  ///< a new kind seen once; reported when it holds twice
  SnapshotRing snapshots;
  int64_t skipped_steps = 0;
  bool stop_diverged = false;  ///< a divergence under policy "stop": end the run
  bool rolled_back = false;    ///< state restored from a snapshot: restart the epoch loop
};

}  // namespace trainscope

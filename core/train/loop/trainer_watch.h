#pragma once
// The gradient watch, a part of the run (trainer_part.h): per-layer statistics, clip statistics,
// non-finite forensics and the non-finite policy, GradScaler skips in a row, divergence, the
// loss doctor and in-memory snapshots, with the live commands that use them (SetClip, RollBack,
// SetNonFinitePolicy). Include only from core/train/loop.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/train_config.h"
#include "core/data/chance_levels.h"
#include "core/train/loop/trainer_part.h"
#include "core/train/monitors/clip_stats.h"
#include "core/train/monitors/loss_doctor.h"
#include "core/train/monitors/non_finite.h"
#include "core/train/state/snapshots.h"
#include "core/train/step/amp_control.h"
#include "core/train/step/layer_stats.h"
#include "core/train/step/step.h"

namespace trainscope {

/// Sees inside each step (StepWatch) and keeps the monitors. Training thread only.
class GradientWatchPart : public TrainerPart, public StepWatch {
 public:
  /// After the model is built (or loaded): `chance` are the data's chance levels (the
  /// divergence check and the loss doctor use them).
  GradientWatchPart(PartHost& host, const ChanceLevels& chance);

  /// The loss doctor and the divergence check from the state's history and the doctor's kept
  /// evidence (a start, a resume), the resumed run's reading to observers, a first snapshot.
  void onRunStart() override;
  StepWatch* stepWatch() override { return this; }
  /// Decides whether step `step` is a layer-statistics step.
  void beforeStep(int64_t step) override;
  void afterMeasure(const TrainState& state, const StepResult& r) override;
  void beforeUpdate(const TrainState& state) override;
  void afterUpdate(const TrainState& state) override;
  /// GradScaler skips (many in a row follow the non-finite policy), else layer stats, clip
  /// warnings, non-finite forensics and the policy, snapshots.
  void onStepEnd(const StepResult& s, int64_t epoch) override;
  /// Divergence (the policy) and the loss doctor.
  void onEpochEnd(const EpochEnd& end) override;
  void onCommand(const Command& c, int64_t epoch) override;
  /// skipped_steps and the loss doctor's final reading (once the run started).
  void addToSummary(RunSummary& s) override;
  /// The loss doctor's gradient norms (loss_doctor_state_dict).
  void addToCheckpoint(CheckpointContext& c) const override;

  /// The layer record of the step just run, when it was a statistics step or a step that was
  /// not applied (non-finite; its update ratios are NaN). None when layer statistics are off.
  std::optional<LayerStatsRecord> takeRecord(int64_t step, int64_t epoch);
  /// Non-finite step: the tensors whose gradient norm is not finite, else the largest.
  NonFiniteEvidence evidence(const StepResult& r, int64_t step, int64_t epoch) const;

 private:
  /// The loss doctor restarted from the state: its initial losses and history (a run start, a
  /// resume, a roll-back).
  void restartDoctor();
  /// The loss doctor's reading to observers (every call) and, when its kind changed, to
  /// events.jsonl.
  void reportDiagnosis(int64_t epoch);
  /// Emits `e` and applies the non-finite policy (stop: ends the run as non_finite or diverged).
  void applyPolicy(const Event& e, bool diverged);
  void rollBack(const command::RollBack& c, int64_t epoch);
  CauseSettings causeSettings(double lr) const;
  /// The loss doctor's view of the run's clipping now.
  DoctorContext doctorContext() const;

  PartHost& host_;
  std::vector<std::string> names_;  ///< state_dict names of the parameter tensors
  LayerStats layers_;
  int64_t every_ = 0;  ///< training.layer_stats_every
  bool due_ = false;
  bool measured_ = false;
  bool started_ = false;  ///< onRunStart ran
  std::vector<double> grad_norms_, update_ratios_;
  ClipStats clip_stats_;
  DivergenceMonitor divergence_;
  LossDoctor doctor_;
  ChanceLevels chance_;       ///< the data's (DoctorContext::chance)
  std::string last_kind_;     ///< the doctor's last reported kind
  std::string pending_kind_;  ///< a new kind seen once; reported when it holds twice
  SnapshotRing snapshots_;
  ScalerSkipWatch scaler_skips_;  ///< GradScaler skips in a row
  std::string policy_;  ///< training.non_finite in force
  int64_t skipped_steps_ = 0;
};

}  // namespace trainscope

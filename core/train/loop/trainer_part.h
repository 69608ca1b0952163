#pragma once
// The parts of a run the trainer calls at fixed points, Lightning's Callback: the records
// (on_train_batch_end, on_train_epoch_end), the loop's points (on_train_start, a step's end, an
// epoch's end, a pause, an interrupt, on_train_end) and what each part keeps in a checkpoint
// (state_dict). Each part holds its own state; the trainer loops over its parts in the order
// they were added, records and events before the observers. The run's files are one part among
// them. Include only from core/train/loop (torch types).
#include <ATen/core/Tensor.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/run/records.h"
#include "core/run/run_resume.h"
#include "core/train/loop/run_control.h"

namespace trainscope {

class EvaluationFile;
struct DistributionRecord;
class LayersCsvWriter;
class RunWriter;
class StepWatch;
class TrainerObserver;
struct CheckpointContext;
struct PreparedData;
struct StepResult;
struct TrainConfig;
struct TrainState;

/// What a part may use of the run, as Lightning hands each hook the Trainer. Implemented by
/// Trainer::Impl; training thread only.
class PartHost {
 public:
  virtual TrainState& runState() = 0;
  /// The run's config; live commands change it (clipping, the non-finite policy).
  virtual TrainConfig& runConfig() = 0;
  virtual const PreparedData& runData() const = 0;
  virtual const std::vector<TrainerObserver*>& runObservers() const = 0;
  /// `e` to the parts and the observers.
  virtual void emit(const Event& e) = 0;
  /// `e` to the parts alone (events.jsonl): automatic saves, the doctor's change of kind.
  virtual void record(const Event& e) = 0;
  /// A per-layer statistics record to the parts and the observers.
  virtual void report(const LayerStatsRecord& r) = 0;
  /// The run pauses before its next step (the non-finite policy "pause").
  virtual void pauseRun() = 0;
  /// The run ends: StopReason::NonFinite at once (no validation, no epoch row), Diverged after
  /// the epoch end in progress.
  virtual void stopRun(StopReason why) = 0;
  /// A part asked the run to end (stopRun).
  virtual bool stopping() const = 0;
  /// The state was restored from a snapshot: the epoch loop goes on from its epoch and batch.
  virtual void restartFromState() = 0;
  /// The context of a save now: the run's, with each part's addToCheckpoint applied.
  virtual CheckpointContext checkpointContext() const = 0;
  /// emit() of an event at the current global step.
  void emit(EventKind kind, const std::string& message, int64_t epoch,
            const std::string& file = "");

 protected:
  ~PartHost() = default;
};

/// What an epoch end decided, for the parts (after the epoch's record and its monitor events).
struct EpochEnd {
  const EpochRecord& record;
  bool improved = false;    ///< training.monitor improved: best.pt is due
  bool early_stop = false;  ///< early stopping fired: the run ends after this epoch
  bool last = false;        ///< the run's last epoch (training.epochs)
};

/// One part of a run. Training thread only; every hook may throw (an I/O error ends the run
/// as Error, as a failed write always did).
struct TrainerPart {
  virtual ~TrainerPart() = default;

  // ---- records (before the observers get them) ----
  /// After each optimizer step's record.
  virtual void onStep(const StepRecord&) {}
  /// After each epoch's record.
  virtual void onEpoch(const EpochRecord&) {}
  /// After each per-layer statistics record (training.layer_stats_every).
  virtual void onLayerStats(const LayerStatsRecord&) {}
  /// Every event of the run, also those for the run's files alone (automatic saves, the
  /// doctor's change of kind), which observers do not get.
  virtual void onEvent(const Event&) {}

  // ---- the loop ----
  /// Once, after the start events and before the first step; a resumed run's state is loaded,
  /// so a part takes back what its addToCheckpoint kept (Lightning's load_state_dict).
  virtual void onRunStart() {}
  /// Inside each step (core/train/step/step.h); at most one part watches the step.
  virtual StepWatch* stepWatch() { return nullptr; }
  /// Before optimizer step `step` (1-based) runs.
  virtual void beforeStep(int64_t /*step*/) {}
  /// After a step's record, with what the step measured.
  virtual void onStepEnd(const StepResult&, int64_t /*epoch*/) {}
  /// Before the validation pass of `epoch`: true when the part wants its batches
  /// (onValidationBatch, then onValidationEnd).
  virtual bool onValidationStart(int64_t /*epoch*/) { return false; }
  /// The model's outputs [n, outputs] (float32) and targets for the validation samples from
  /// index `first` on.
  virtual void onValidationBatch(int64_t /*first*/, const at::Tensor& /*outputs*/,
                                 const at::Tensor& /*targets*/) {}
  virtual void onValidationEnd() {}
  /// After the epoch's record and its monitor events.
  virtual void onEpochEnd(const EpochEnd&) {}
  /// The engine paused (a command, the non-finite policy, pause-after-epoch).
  virtual void onPause(int64_t /*epoch*/) {}
  /// A live command for the engine at a step boundary (SetClip, RollBack, SetNonFinitePolicy).
  virtual void onCommand(const Command&, int64_t /*epoch*/) {}
  /// The run stops before its end (a stop, an interrupt, an error) in `epoch`.
  virtual void onInterrupt(int64_t /*epoch*/) {}
  /// The part's figures into the run's summary, before the finished event.
  virtual void addToSummary(RunSummary&) {}
  /// What the part keeps in each checkpoint it is asked for (Lightning's state_dict).
  virtual void addToCheckpoint(CheckpointContext&) const {}
  /// At the end of the run, with its summary; the part closes what it holds open.
  virtual void onStop(const RunSummary&) {}
};

/// The run directory's files (core/run/run_writer.h, layers_csv.h): config.json and run.json at
/// the start, then steps.csv, metrics.csv, events.jsonl and layers.csv appended line by line,
/// summary.json at the end.
class RunFilesPart : public TrainerPart {
 public:
  /// Writes config.json and run.json into `dir` and the rows a resumed run starts with
  /// (`prefix`: the source run's rows up to the checkpoint). Throws Error(Io, file).
  RunFilesPart(PartHost& host, const std::filesystem::path& dir, const nlohmann::json& config,
               const nlohmann::json& run, RunPrefix prefix);
  ~RunFilesPart() override;
  /// Opens layers.csv for the parameter tensors (state_dict order) when
  /// training.layer_stats_every > 0, starting with the prefix's rows when its header is the
  /// same. Throws Error(Io, file).
  void onRunStart() override;
  void onStep(const StepRecord& r) override;
  void onLayerStats(const LayerStatsRecord& r) override;
  void onEpoch(const EpochRecord& r) override;
  void onEvent(const Event& e) override;
  void onStop(const RunSummary& s) override;
  /// A classification pass into evaluation.json (core/run/evaluation_file.h) and the
  /// TensorBoard file's PR curves (RunWriter::writeValidationDetail).
  void writeValidationDetail(const ValidationDetail& d);
  /// A distributions reading as TensorBoard histograms (RunWriter::writeDistributions).
  void writeDistributions(const DistributionRecord& r);

 private:
  PartHost& host_;
  std::filesystem::path dir_;
  std::unique_ptr<EvaluationFile> evaluation_;  ///< made at the first classification pass
  RunPrefix prefix_;
  std::unique_ptr<RunWriter> writer_;
  std::unique_ptr<LayersCsvWriter> layers_;  ///< null until onRunStart
};

}  // namespace trainscope

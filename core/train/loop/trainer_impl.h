#pragma once
// The Trainer's private state (training thread only, except `control`), shared by trainer.cpp
// (set-up, commands, end of run) and trainer_loop.cpp (epochs, steps, validation, saves).
// Include only from core/train/trainer*.cpp.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/data/loader.h"
#include "core/distributed/data_parallel.h"
#include "core/io/python_weights.h"
#include "core/model/model.h"
#include "core/run/run_resume.h"
#include "core/system/clock.h"
#include "core/train/loop/run_control.h"
#include "core/train/loop/trainer_hooks.h"
#include "core/train/loop/trainer_part.h"
#include "core/train/loop/trainer_parts.h"
#include "core/train/loop/trainer_watch.h"
#include "core/train/probes/thread_choice.h"
#include "core/train/state/train_state.h"
#include "core/train/state/train_state_io.h"
#include "core/train/step/amp_control.h"
#include "core/train/step/step.h"
#include "core/train/trainer.h"

namespace trainscope {

struct Trainer::Impl : PartHost {
  TrainConfig config;
  TrainerOptions options;
  std::vector<TrainerObserver*> observers;
  RunControl control;
  TrainerHooks hooks;

  // ---- training thread only ----
  TrainState state;
  PreparedData data;
  ModelSummary model_summary;  ///< described once, for RunInfo and run.json
  RunInfo info;                ///< describe(): sent to observers at the start, run.json
  /// The run's parts (trainer_part.h), called in this order, records and events before the
  /// observers: the run directory's files (when the run writes a folder: options.run_dir on
  /// rank 0), the gradient watch, the slowdown watch, checkpoints, restoring the best weights,
  /// the model view, the validation detail (addParts()).
  std::vector<std::unique_ptr<TrainerPart>> parts;
  CheckpointPart* checkpoints = nullptr;  ///< that part, for the saves a front end asks for
  RunFilesPart* run_files = nullptr;      ///< the run folder's files (null without one)
  StepWatch* step_watch = nullptr;        ///< the part that sees inside each step
  std::string source_run_dir;  ///< resumed runs: the run directory that wrote the checkpoint
  PauseAwareTimer run_timer;        ///< since run() began; paused time excluded from timings
  std::optional<StopReason> engine_stop;  ///< a part's stopRun: NonFinite or Diverged
  bool restart_from_state = false;        ///< a roll-back restored a snapshot
  bool validation_cost_measured = false;  ///< val_with_grad's A/B: once per run (validate)
  ThreadChoice thread_choice;       ///< how state.num_threads was chosen
  std::optional<WeightsFileInfo> imported;      ///< options.init_weights, once loaded
  std::vector<Event> start_events;       ///< found while preparing (memory warning), sent at start
  int64_t memory_estimate_bytes = 0;     ///< RunInfo::memory_estimate_bytes
  std::unique_ptr<DistContext> dist;     ///< data parallel (options.distributed); null: one process
  std::optional<StopReason> agreed_stop;  ///< data parallel: the stop every rank agreed on
  std::vector<double> class_weights;  ///< training.class_weights as used (RunInfo)
  at::Tensor sample_weights;          ///< data.sampler weighted: float64 [n_train]; else undefined
  double step_data_wait = 0;   ///< seconds the current step waited for its batches
  double epoch_data_wait = 0;  ///< seconds the current epoch's steps waited for batches
  std::optional<double> epoch_data_wait_share;  ///< the last finished epoch's share
  /// A data_bound event when an epoch waits for its batches more than this share of its time
  /// and at least kDataBoundSeconds in all: a model of a few microseconds a step waits "45%" for
  /// slices of memory, and no worker would change what a person sees.
  static constexpr double kDataBoundShare = 0.2;
  static constexpr double kDataBoundSeconds = 0.2;
  double last_epoch_data_wait = 0;  ///< seconds the last finished epoch waited for batches
  bool data_bound_said = false;  ///< the data_bound event was emitted (once a run)
  /// data.augment's transforms of the training images; null when off.
  std::shared_ptr<const augment::Augmentation> augmentation;

  size_t next_scheduled = 0;  ///< options.scheduled_commands posted so far

  /// Seeds, loads the data, builds model and optimizer, imports or resumes; then (unless
  /// `check_only`: Trainer::check) chooses the thread count and joins the ranks' agreement.
  void prepare(bool check_only = false);
  /// Posts the options.scheduled_commands due at this step boundary (before beforeStep()).
  void postScheduled() {
    const auto& due = options.scheduled_commands;
    while (next_scheduled < due.size() && due[next_scheduled].step <= state.global_step)
      control.post(due[next_scheduled++].command);
  }
  /// Fills `info` from the prepared run (after prepare(), before openRunDir()).
  void describe();
  /// The run directory's files part (rank 0 of a run with a folder).
  void openRunDir();
  /// The other parts, after openRunDir().
  void addParts();
  RunSummary loop();
  /// Runs the batches of one epoch; returns false when the run must stop.
  bool trainEpoch(BatchIterator& iter, BatchLoader& loader, int64_t epoch, PauseAwareTimer& timer);
  /// Validation, scheduler, monitors, records, the parts' epoch end; returns false when early
  /// stopping ended the run.
  bool finishEpoch(int64_t epoch, const PauseAwareTimer& timer);
  /// One steps.csv row per optimizer step; `b` is the 0-based index of its last micro-batch.
  void recordStep(const StepResult& s, int64_t epoch, int64_t b, int64_t batches);
  /// SetAmp at a step boundary: switch, record in the config (checkpoints), report.
  void switchAmp(bool enabled, int64_t epoch);
  /// checkpoint_loaded (what "source_run_missing"): the source run of options.resume_from was
  /// not found, so this run's per-step files lack the steps before the checkpoint.
  Event sourceRunMissingEvent() const;
  /// The epoch a run that stops now stops in: the one in progress when some of its batches
  /// were trained, else the last completed one.
  int64_t stoppingEpoch() const {
    return state.epochs_completed + (state.batch_in_epoch > 0 ? 1 : 0);
  }
  void finish(RunSummary& summary);

  /// The test split's metrics at the end (summary.test_*): best.pt's weights where the run
  /// kept a best checkpoint of an earlier epoch (test_weights "best", the final weights' as
  /// last_test_*), else the final weights' ("last"; always for a data-parallel run, whose
  /// other ranks have no best.pt to load and evaluate their shards together).
  void evaluateTest(RunSummary& summary);
  /// {mean loss, accuracy} of `split`: split across the ranks and all-reduced when data
  /// parallel (core/distributed/data_parallel.h), else evaluate().
  std::pair<double, std::optional<double>> evaluateSplit(const TensorPair& split,
                                                         const Mistakes& mistakes = Mistakes{}) {
    return evalMeans(evaluateSplitSums(split, mistakes), data.classification);
  }
  /// The sums behind evaluateSplit (regression metrics need more than the means).
  EvalSums evaluateSplitSums(const TensorPair& split, const Mistakes& mistakes = Mistakes{}) {
    const int64_t bs = config.training.batch_size;
    if (dist) return evaluateSharded(*dist, *state.model, split, data.classification, bs);
    return evaluateSums(*state.model, split, data.classification, bs, {}, mistakes);
  }
  /// evaluateSplitSums(data.val), its batches to the parts that ask for them
  /// (onValidationStart: the validation detail) on one process (trainer_loop.cpp).
  EvalSums validate(int64_t epoch);
  /// `split` evaluated with the run's mistakes, its batches to the parts that ask for them
  /// (onValidationStart): validate()'s pass, on the split it chose.
  EvalSums validateSplit(const TensorPair& split, int64_t epoch);
  /// teaching.mistakes augment_validation: the validation images through the training
  /// augmentation (its own draws each epoch, from the run seed, so a rerun repeats them); the
  /// returned sums are those of that pass (the run's val_loss). After the first such validation
  /// an EventKind::AugmentedValidation event compares it with a clean evaluation of the same
  /// weights (model.eval(), torch.no_grad(), no augmentation).
  EvalSums validateAugmented(int64_t epoch);
  bool augmented_validation_said = false;  ///< that event was emitted (once a run)
  /// teaching.mistakes val_with_grad, at the run's first validation: the pass as the mistake
  /// runs it (every chunk's graph kept) timed and its resident-memory growth measured, against
  /// the same pass under torch.no_grad() (not with eval_in_train_mode: its dropout would draw
  /// the run's random numbers twice); emits EventKind::ValidationCost and returns the sums of
  /// the mistaken pass (the numbers are the same).
  EvalSums measureValidationCost(int64_t epoch);
  /// The parts whose onValidationStart(epoch) asked for the pass's batches.
  std::vector<TrainerPart*> validationParts(int64_t epoch) {
    std::vector<TrainerPart*> wanting;
    for (auto& p : parts)
      if (p->onValidationStart(epoch)) wanting.push_back(p.get());
    return wanting;
  }

  // ---- PartHost ----
  TrainState& runState() override { return state; }
  TrainConfig& runConfig() override { return config; }
  const PreparedData& runData() const override { return data; }
  const std::vector<TrainerObserver*>& runObservers() const override { return observers; }
  void pauseRun() override { control.pauseFromEngine(); }
  void stopRun(StopReason why) override {
    if (!engine_stop) engine_stop = why;
  }
  bool stopping() const override { return engine_stop.has_value(); }
  void restartFromState() override { restart_from_state = true; }
  /// The run directory absolute (resumable anywhere), each part's kept state.
  CheckpointContext checkpointContext() const override;
  using PartHost::emit;
  /// `e` to the parts and the observers.
  void emit(const Event& e) override {
    record(e);
    for (auto* o : observers) o->onEvent(e);
  }
  /// `e` to the parts alone (the run's files): automatic saves, the doctor's change of kind.
  void record(const Event& e) override {
    for (auto& p : parts) p->onEvent(e);
  }
  void report(const LayerStatsRecord& r) override {
    for (auto& p : parts) p->onLayerStats(r);
    for (auto* o : observers) o->onLayerStats(r);
  }
  void report(const StepRecord& r) {
    for (auto& p : parts) p->onStep(r);
    for (auto* o : observers) o->onStep(r);
  }
  void report(const EpochRecord& r) {
    for (auto& p : parts) p->onEpoch(r);
    for (auto* o : observers) o->onEpoch(r);
  }
};

}  // namespace trainscope

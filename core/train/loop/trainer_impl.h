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
#include "core/data/dataset.h"
#include "core/distributed/data_parallel.h"
#include "core/io/python_weights.h"
#include "core/model/model.h"
#include "core/run/run_resume.h"
#include "core/system/clock.h"
#include "core/train/loop/run_control.h"
#include "core/train/loop/trainer_hooks.h"
#include "core/train/loop/trainer_part.h"
#include "core/train/loop/trainer_watch.h"
#include "core/train/monitors/throughput_monitor.h"
#include "core/train/probes/thread_choice.h"
#include "core/train/state/checkpointing.h"
#include "core/train/state/train_state.h"
#include "core/train/step/amp_control.h"
#include "core/train/step/step.h"
#include "core/train/trainer.h"

namespace trainscope {

struct Trainer::Impl {
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
  /// The run's parts, called in this order before the observers: the run directory's files
  /// (RunFilesPart, when the run writes a folder: options.run_dir on rank 0).
  std::vector<std::unique_ptr<TrainerPart>> parts;
  RunFilesPart* files = nullptr;  ///< that part, once openRunDir() opened the run directory
  std::unique_ptr<Checkpointer> checkpointer;
  std::string source_run_dir;  ///< resumed runs: the run directory that wrote the checkpoint
  RunPrefix resume_prefix;     ///< resumed runs: the source run's rows this run starts with
  std::string non_finite_policy;
  PauseAwareTimer run_timer;        ///< since run() began; paused time excluded from timings
  bool stop_on_non_finite = false;  ///< set by a step under policy "stop": end at once
  bool validation_cost_measured = false;  ///< val_with_grad's A/B: once per run (validate)
  ThreadChoice thread_choice;       ///< how state.num_threads was chosen
  std::optional<ThroughputMonitor> throughput;  ///< set when "auto" measured the count
  std::optional<WeightsFileInfo> imported;      ///< options.init_weights, once loaded
  ScalerSkipWatch scaler_skips;                 ///< GradScaler skips in a row
  std::vector<Event> start_events;       ///< found while preparing (memory warning), sent at start
  int64_t memory_estimate_bytes = 0;     ///< RunInfo::memory_estimate_bytes
  std::unique_ptr<GradientWatch> watch;  ///< gradient watch (trainer_watch.cpp)
  std::unique_ptr<DistContext> dist;     ///< data parallel (options.distributed); null: one process
  std::optional<StopReason> agreed_stop;  ///< data parallel: the stop every rank agreed on

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
  void openRunDir();
  RunSummary loop();
  /// Runs the batches of one epoch; returns false when the run must stop.
  bool trainEpoch(BatchIterator& iter, int64_t epoch, PauseAwareTimer& timer);
  /// Validation, scheduler, monitors, records, checkpoints of an epoch end; returns false when
  /// early stopping ended the run.
  bool finishEpoch(int64_t epoch, const PauseAwareTimer& timer);
  /// One steps.csv row per optimizer step; `b` is the 0-based index of its last micro-batch.
  void recordStep(const StepResult& s, int64_t epoch, int64_t b, int64_t batches);
  /// AMP: a GradScaler skip is counted (many in a row follow the non-finite policy); true when
  /// the step was such a skip (the gradient watch then leaves it alone).
  bool checkStep(const StepResult& s, int64_t epoch);
  /// SetAmp at a step boundary: switch, record in the config (checkpoints), report.
  void switchAmp(bool enabled, int64_t epoch);
  /// The run directory absolute (resumable anywhere), the live doctor's gradient norms.
  CheckpointContext checkpointContext() const;
  /// checkpoint_loaded (what "source_run_missing"): the source run of options.resume_from was
  /// not found, so this run's per-step files lack the steps before the checkpoint.
  Event sourceRunMissingEvent() const;
  /// Writes `file` now and reports checkpoint_saved, or checkpoint_failed (the run goes on).
  void saveNow(const std::filesystem::path& file, int64_t epoch);
  /// The epoch a run that stops now stops in: the one in progress when some of its batches
  /// were trained, else the last completed one.
  int64_t stoppingEpoch() const {
    return state.epochs_completed + (state.batch_in_epoch > 0 ? 1 : 0);
  }
  /// The automatic save of a stop, an interrupt or an error: Checkpointer::atStop.
  void saveAtStop() {
    autoSave(stoppingEpoch(), [&] { return checkpointer->atStop(state, checkpointContext()); });
  }
  /// checkpoint_saved events. Automatic saves (epoch ends, stops) go to events.jsonl only: to
  /// observers they would be a line per epoch between the events front ends fold.
  void reportSaved(const std::vector<std::filesystem::path>& files, int64_t epoch, bool automatic);
  /// An automatic save (`save` returns the files written); a failure is checkpoint_failed.
  template <class Save>
  void autoSave(int64_t epoch, Save&& save) {
    if (!checkpointer) return;
    try {
      reportSaved(save(), epoch, /*automatic=*/true);
      last_autosave_failed = false;
    } catch (const std::exception& ex) {
      last_autosave_failed = true;
      noteCheckpointFailure(ex.what());
      emit(EventKind::CheckpointFailed, std::string("checkpoint not saved: ") + ex.what(), epoch);
    }
  }
  /// Counted for RunSummary::checkpoints_failed.
  void noteCheckpointFailure(const std::string& what) {
    ++checkpoints_failed;
    checkpoint_error = what;
  }
  int64_t checkpoints_failed = 0;
  std::string checkpoint_error;
  bool last_autosave_failed = false;  ///< the latest automatic save failed
  /// Sends a ModelViewRecord to observers when options.model_view is on and `force` or the
  /// interval has passed since the last one (model_view.cpp does the work).
  void sendModelView(int64_t epoch, bool force);
  SteadyClock::time_point last_model_view{};
  void finish(RunSummary& summary);

  // ---- gradient watch (trainer_watch.cpp) ----
  void startWatch();
  /// After a step's record: layer stats, clip warnings, non-finite forensics, snapshots.
  void watchStep(const StepResult& s, int64_t epoch);
  /// After an epoch's record: divergence and the loss doctor.
  void watchEpoch(const EpochRecord& r);
  /// The loss doctor's reading to observers (every call) and, when its kind changed, to
  /// events.jsonl.
  void reportDiagnosis(int64_t epoch);
  /// The loss doctor restarted from the state: its initial losses and history (a run start, a
  /// resume, a roll-back).
  void restartDoctor();
  /// Emits `e` and applies the non-finite policy (stop: ends the run as non_finite or diverged).
  void applyPolicy(const Event& e, bool diverged);
  /// SetClip / RollBack / SetNonFinitePolicy, at a step boundary.
  void applyEngineCommand(const Command& c, int64_t epoch);
  CauseSettings causeSettings(double lr) const;
  /// The loss doctor's view of the run's clipping now.
  DoctorContext doctorContext() const;

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
  /// evaluateSplitSums(data.val), and on one process with options.validation_detail the
  /// ValidationDetail of the same pass to observers (trainer_loop.cpp).
  EvalSums validate(int64_t epoch);
  /// teaching.mistakes val_with_grad, at the run's first validation: the pass as the mistake
  /// runs it (every chunk's graph kept) timed and its resident-memory growth measured, against
  /// the same pass under torch.no_grad() (not with eval_in_train_mode: its dropout would draw
  /// the run's random numbers twice); emits EventKind::ValidationCost and returns the sums of
  /// the mistaken pass (the numbers are the same).
  EvalSums measureValidationCost(int64_t epoch);

  /// `e` to the parts and the observers.
  void emit(const Event& e) {
    record(e);
    for (auto* o : observers) o->onEvent(e);
  }
  /// `e` to the parts alone (the run's files): automatic saves, the doctor's change of kind.
  void record(const Event& e) {
    for (auto& p : parts) p->onEvent(e);
  }
  void report(const StepRecord& r) {
    for (auto& p : parts) p->onStep(r);
    for (auto* o : observers) o->onStep(r);
  }
  void report(const EpochRecord& r) {
    for (auto& p : parts) p->onEpoch(r);
    for (auto* o : observers) o->onEpoch(r);
  }
  void report(const LayerStatsRecord& r) {
    for (auto& p : parts) p->onLayerStats(r);
    for (auto* o : observers) o->onLayerStats(r);
  }
  void emit(EventKind kind, const std::string& message, int64_t epoch,
            const std::string& file = "") {
    emit(Event{state.global_step, epoch, kind, message, std::nullopt, "", file});
  }
};

}  // namespace trainscope

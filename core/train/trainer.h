#pragma once
/// The training engine. Torch-free public API (pimpl), so front ends compile without libtorch.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/config/config_diff.h"
#include "core/config/config_fwd.h"
#include "core/distributed/dist_env.h"
#include "core/run/records.h"
#include "core/train/loop/run_control.h"
#include "core/train/monitors/model_view.h"

namespace trainscope {

struct DistributionRecord;

/// Receives the Trainer's records. Called on the training thread, synchronously: implementations
/// must be quick and must never block on another thread (the engine never waits for the GUI).
class TrainerObserver {
 public:
  virtual ~TrainerObserver() = default;
  virtual void onRunStarted(const RunInfo&) {}
  virtual void onStep(const StepRecord&) {}
  virtual void onEpoch(const EpochRecord&) {}
  virtual void onEvent(const Event&) {}
  /// Per-layer statistics, every training.layer_stats_every steps (after that step's onStep).
  virtual void onLayerStats(const LayerStatsRecord&) {}
  /// Percentiles of each layer's weights, gradients and activations, every
  /// training.distributions_every steps (after that step's onStep; core/run/distribution_records.h).
  virtual void onDistributions(const DistributionRecord&) {}
  /// The loss doctor's reading, whenever its kind changes (at epoch ends and non-finite steps).
  virtual void onDiagnosis(const Diagnosis&) {}
  virtual void onRunFinished(const RunSummary&) {}
  /// What the model does now (TrainerOptions::model_view): after epoch ends (at most every
  /// model_view_interval_s, and always after the last epoch) and when the run pauses.
  virtual void onModelView(const ModelViewRecord&) {}
  /// The validation split in detail after each epoch (TrainerOptions::validation_detail).
  virtual void onValidationDetail(const ValidationDetail&) {}
};

/// Where a Trainer writes and how it describes itself in run.json.
struct TrainerOptions {
  std::filesystem::path run_dir;   ///< the run directory itself (created); empty = write no files
  std::string front_end = "core";  ///< "cli" | "gui" | "test"
  std::string command_line;        ///< recorded in run.json
  /// Policy used when training.non_finite is null: "stop" (CLI) or "pause" (GUI).
  std::string default_non_finite = "stop";
  /// Cores this process may use when training.num_threads is "auto" (the largest candidate):
  /// 0 = all logical cores of the machine. A launcher running k local ranks on one machine
  /// sets cores / k. OMP_NUM_THREADS, when set, overrides it.
  int available_cores = 0;
  /// Cores of `available_cores` left free for the front end under "auto": 1 in the GUI (it
  /// draws while training runs).
  int reserved_cores = 0;
  /// Resume from this checkpoint (empty: a new run). The config passed to the Trainer must be
  /// the checkpoint's (checkpointConfig(inspectCheckpoint(file)) in core/train/state/checkpoint.h),
  /// training.epochs being the run's total; training.early_stopping.* and checkpoint.* may
  /// differ too (resumeSettings() in core/config/live_settings.h), listed in resume_changes;
  /// the live settings change through the commands (setLearningRate ...). run() restores
  /// the whole state after preparing data and model and continues from the next step; the run
  /// directory starts with the source run's rows up to the checkpoint's step.
  std::filesystem::path resume_from;
  /// Resumed runs: the keys whose values differ from the checkpoint's config (ResumeSettings::
  /// changes), reported as config_changed events (what the key, value the new number) at the
  /// resume step, after checkpoint_loaded.
  std::vector<ConfigChange> resume_changes;
  /// Commands to post to the command queue when the run reaches their steps, in order (the
  /// replay of a recorded run: planReplay() in core/train/loop/replay.h). Each is posted at the
  /// first step boundary with global step >= its `step` once the ones before it were posted
  /// (so a roll-back, which lowers the step, keeps the order), and takes effect there exactly
  /// as the same command from a front end would.
  std::vector<ScheduledCommand> scheduled_commands;
  /// Initial weights of a new run (empty: libtorch's default initialisation): a file written
  /// by Python's torch.save in the zip format holding a bare state_dict or a dict with
  /// `model_state_dict` (a TrainScope checkpoint too); see inspectWeightsFile in
  /// core/io/python_weights.h. run() loads it into the model once built, like Python's
  /// model.load_state_dict(sd, strict=True), before the first step, and reports an
  /// EventKind::WeightsImported event; run.json records it (`init_weights`). A file that cannot
  /// be read or does not match the model (missing or unexpected keys, other shapes: all
  /// listed) makes run() throw Error(Checkpoint, file) before anything is written. Cannot be
  /// combined with resume_from (Error(Config, "init_weights")).
  std::filesystem::path init_weights;
  /// The data files the run must find as they were: a replay's source run's
  /// (run.json data.files, named `expected_data_from`); a resumed run checks its checkpoint's
  /// own. A file whose size or SHA-256 differs makes run() throw Error(Data, file) before
  /// anything is written, unless `allow_changed_data`: then each change is a data_warning event
  /// ("data_changed") of the run.
  std::vector<DataFile> expected_data;
  std::string expected_data_from;
  bool allow_changed_data = false;
  /// Compute ModelViewRecords for observers (the GUI's live model view). Off by default: the
  /// CLI has no use for them.
  bool model_view = false;
  /// Compute a ValidationDetail for observers after each epoch's validation (the GUI's
  /// evaluation tab): per-sample losses and predictions on one process (not data parallel).
  bool validation_detail = false;
  /// Seconds of wall time between two epoch-end model views at least (0: every epoch), so
  /// that a run of many tiny epochs is not slowed down by a 60x60 grid every epoch.
  double model_view_interval_s = 0.25;
  /// Data parallel (core/distributed/): this rank's place (distEnvFromEnvironment()); nullopt: one
  /// process. run() joins the group (distributed.*) before anything else; rank 0 alone writes
  /// `run_dir` (other ranks write nothing, whatever run_dir says). training.batch_size is the
  /// per-rank batch.
  std::optional<DistEnv> distributed;
};

/// Runs one training run: data, model, optimizer, the step loop of ARCHITECTURE §3, the run
/// directory of §4. Construct on any thread (cheap); call run() on the training thread; the
/// command methods are thread-safe and take effect at the next step boundary.
class Trainer {
 public:
  /// Stores the config; does no work. Validation happens in run().
  explicit Trainer(TrainConfig config, TrainerOptions options = {});
  ~Trainer();
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  /// Adds an observer (not owned; must outlive run()). Call before run().
  void addObserver(TrainerObserver* observer);

  /// Prepares data and model (and restores options.resume_from), then trains until done,
  /// stopped or failed; blocks. Sets the intra-op thread count of the calling thread. Throws
  /// Error (Config/Data/Checkpoint/Io) for bad input found before the first step (nothing is
  /// written then); afterwards never throws: failures end the run with stop_reason Error,
  /// reported in the returned summary and summary.json. To open a checkpoint paused at its
  /// step (the GUI's Load), call pause() before run().
  RunSummary run();

  /// What run() checks before its first step, without running or writing anything: loads the
  /// data, builds the model and restores options.resume_from (or imports options.init_weights)
  /// into a scratch state, on a thread of its own; the global CPU generator is left as it was.
  /// Throws the Error run() would (Config/Data/Checkpoint). The GUI's Load calls it before the
  /// current run is touched. Distributed options: returns at once (ranks check in run()).
  static void check(const TrainConfig& config, const TrainerOptions& options);

  // ---- thread-safe commands (any thread), applied at the next step boundary ----
  /// Pause before the next step. Emits an EventKind::Paused event when the engine actually
  /// waits (observers learn the run state from the Paused/Resumed/Finished events).
  void pause();
  /// Leave pause (cancels pending single steps).
  void resume();
  /// While paused (or before run()), run exactly one more batch, then stay paused. From a
  /// running state, pauses after the next batch.
  void stepBatch();
  /// Run to the end of the current epoch (validation included), then pause.
  void stepEpoch();
  /// Ends the run at the next step boundary (also wakes a paused engine); `why` is said in its
  /// stopped event (StopReason::Pruned: the sweep's rule and numbers).
  void stop(StopReason reason = StopReason::Stopped, const std::string& why = "");
  /// Pauses at the end of epoch `epoch` (validation included), before any step of the next:
  /// exact where a front end reacting to the epoch record would be late (automation).
  void pauseAfterEpoch(int64_t epoch);
  /// Paces the loop to at most `steps_per_second` (0 = full speed), for watching a run live.
  /// Takes effect before the next step; the waiting counts as paused time, so no value in the
  /// run's files changes except wall-clock columns.
  void setPace(double steps_per_second);
  /// Writes a checkpoint of the whole state to `file` at the next step boundary (also while
  /// paused), atomically. Reports an EventKind::CheckpointSaved event (Event::file, what
  /// "requested") or, when the write fails, EventKind::CheckpointFailed with the reason; the
  /// run goes on either way. Automatic checkpoints (`checkpoint.*`, in <run dir>/checkpoints/)
  /// are recorded in events.jsonl only (what "automatic"), not sent to observers; their
  /// failures are sent.
  void saveCheckpoint(const std::filesystem::path& file);
  /// Sets the learning rate from the next step on (also while paused; `lr` > 0, others are
  /// ignored). With a scheduler (scheduler.*) its base learning rate becomes `lr` and the
  /// schedule continues as if the run had started with optimizer.lr = lr. Reported as an
  /// EventKind::ConfigChanged event (what "optimizer.lr", value lr).
  void setLearningRate(double lr);
  /// Turns mixed precision (training.amp) on or off from the next step: bf16 autocast on CPU,
  /// fp16 autocast with a GradScaler on CUDA. Reports an EventKind::ConfigChanged event (what
  /// "training.amp", value 1 or 0); checkpoints record the new setting.
  void setAmp(bool enabled);
  /// Turns gradient clipping on or off and sets training.clip.max_norm from the next step (also
  /// while paused); reports an EventKind::ConfigChanged event (what "training.clip.max_norm"
  /// or "training.clip.enabled", value max_norm). Throws Error(Config, "training.clip.max_norm")
  /// at once for max_norm <= 0 or not finite.
  void setClipping(bool enabled, double max_norm);
  /// Restores the newest in-memory snapshot taken before step `before_step` (training.
  /// snapshot_every; the run's start is always kept), multiplies the learning rate in force by
  /// `lr_factor` (0.1: 10x lower), turns clipping on when `enable_clipping`, and resumes. Reports
  /// EventKind::RolledBack (value: the snapshot's step; step: the newest before the roll-back;
  /// what "failed" when there was none), then ConfigChanged for each setting changed. Steps after
  /// the snapshot are trained again: the files, append-only, hold them twice (readers keep each
  /// step's latest row, io/run_reader.h). Throws Error(Config) for a factor <= 0.
  void rollBack(int64_t before_step, double lr_factor, bool enable_clipping);
  /// Sets training.non_finite ("pause", "stop" or "skip") from the next step (also while
  /// paused): what a later non-finite loss or gradient norm, or a divergence, does. Reports an
  /// EventKind::ConfigChanged event (what "training.non_finite"); checkpoints record the new
  /// policy. Throws Error(Config, "training.non_finite") for another word.
  void setNonFinitePolicy(const std::string& policy);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  friend struct TrainerAccess;  // test hooks, see core/train/loop/trainer_hooks.h
};

}  // namespace trainscope

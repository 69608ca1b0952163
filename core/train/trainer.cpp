// The Trainer orchestrates a run (ARCHITECTURE §3): prepare data, model and optimizer into a
// TrainState, then epochs of steps (core/train/step.*) with validation, records to observers and
// the run directory. The parts live in their own files: step phases (step.*), the loss meter
// (meters.h), timers (system/clock.h), the optimizer factory (optim/), device resolution
// (system/device.*), run.json (io/run_description.*), checkpoints (checkpointing.*,
// train_state_io.*).
#include "core/train/trainer.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <cmath>

#include "core/config/config_json.h"
#include "core/data/dataset.h"
#include "core/errors.h"
#include "core/io/run_description.h"
#include "core/io/run_resume.h"
#include "core/io/run_writer.h"
#include "core/model/model.h"
#include "core/optim/optimizer_factory.h"
#include "core/system/clock.h"
#include "core/system/device.h"
#include "core/system/device_info.h"
#include "core/system/seed.h"
#include "core/train/checkpointing.h"
#include "core/train/meters.h"
#include "core/train/monitors/throughput_monitor.h"
#include "core/train/records_json.h"
#include "core/train/run_control.h"
#include "core/train/step.h"
#include "core/train/thread_choice.h"
#include "core/train/train_state.h"
#include "core/train/train_state_io.h"
#include "core/train/trainer_hooks.h"

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
  std::unique_ptr<RunWriter> writer;
  std::unique_ptr<Checkpointer> checkpointer;
  std::string source_run_dir;  ///< resumed runs: the run directory that wrote the checkpoint
  std::string non_finite_policy;
  PauseAwareTimer run_timer;        ///< since run() began; paused time excluded from timings
  bool stop_on_non_finite = false;  ///< set by a step under policy "stop": end at once
  ThreadChoice thread_choice;       ///< how state.num_threads was chosen
  std::optional<ThroughputMonitor> throughput;  ///< set when "auto" measured the count

  void prepare();
  void openRunDir();
  RunSummary loop();
  /// Runs the batches of one epoch; returns false when the run must stop.
  bool trainEpoch(BatchIterator& iter, int64_t epoch, PauseAwareTimer& timer);
  void finishEpoch(int64_t epoch, const PauseAwareTimer& timer);
  void recordStep(const StepResult& s, const TensorPair& batch, int64_t epoch, int64_t b,
                  int64_t batches);
  CheckpointContext checkpointContext() const {
    return {configToJson(config).dump(), config.optimizer.name, options.run_dir.string()};
  }
  /// Writes `file` now and reports checkpoint_saved, or checkpoint_failed (the run goes on).
  void saveNow(const std::filesystem::path& file, int64_t epoch);
  /// checkpoint_saved events. Automatic saves (epoch ends, stops) go to events.jsonl only: to
  /// observers they would be a line per epoch between the events front ends fold.
  void reportSaved(const std::vector<std::filesystem::path>& files, int64_t epoch, bool automatic);
  /// An automatic save (`save` returns the files written); a failure is checkpoint_failed.
  template <class Save>
  void autoSave(int64_t epoch, Save&& save) {
    if (!checkpointer) return;
    try {
      reportSaved(save(), epoch, /*automatic=*/true);
    } catch (const std::exception& ex) {
      emit(EventKind::CheckpointFailed, std::string("checkpoint not saved: ") + ex.what(), epoch);
    }
  }
  void reportNonFinite(const StepResult& s, int64_t epoch);
  void finish(RunSummary& summary);

  void emit(const Event& e) {
    if (writer) writer->writeEvent(e);
    for (auto* o : observers) o->onEvent(e);
  }
  void emit(EventKind kind, const std::string& message, int64_t epoch,
            const std::string& file = "") {
    emit(Event{state.global_step, epoch, kind, message, std::nullopt, "", file});
  }
};

Trainer::Trainer(TrainConfig config, TrainerOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  impl_->options = std::move(options);
}

Trainer::~Trainer() = default;

void Trainer::addObserver(TrainerObserver* observer) { impl_->observers.push_back(observer); }

void Trainer::pause() { impl_->control.post({CommandKind::Pause}); }
void Trainer::resume() { impl_->control.post({CommandKind::Resume}); }
void Trainer::stepBatch() { impl_->control.post({CommandKind::StepBatch}); }
void Trainer::stepEpoch() { impl_->control.post({CommandKind::StepEpoch}); }
void Trainer::stop(StopReason reason) { impl_->control.post({CommandKind::Stop, reason}); }
void Trainer::pauseAfterEpoch(int64_t epoch) {
  impl_->control.post({CommandKind::PauseAfterEpoch, StopReason::Stopped, double(epoch)});
}
void Trainer::setPace(double steps_per_second) {
  impl_->control.post({CommandKind::SetPace, StopReason::Stopped, steps_per_second});
}
void Trainer::saveCheckpoint(const std::filesystem::path& file) {
  impl_->control.post({CommandKind::SaveCheckpoint, StopReason::Stopped, 0, file.string()});
}

void TrainerAccess::setHooks(Trainer& trainer, TrainerHooks hooks) {
  trainer.impl_->hooks = std::move(hooks);
}

void Trainer::Impl::prepare() {
  TrainingConfig& t = config.training;
  non_finite_policy = t.non_finite.value_or(options.default_non_finite);
  t.non_finite = non_finite_policy;
  state.seed = t.seed ? *t.seed : drawSeed();
  t.seed = state.seed;  // recorded in config.json so the run can be repeated from it

  // Data and model are prepared on one intra-op thread whatever the run's count, so that they
  // are the same for every count (a float reduction's order depends on the count) and an
  // "auto" run equals a rerun with the count it chose. Thread count and devices are
  // thread-local settings: applied here, on the training thread.
  at::set_num_threads(1);
  state.device = resolveDevice(t.device);

  data = loadData(config.data);
  if (state.device.is_cuda()) {
    for (TensorPair* p : {&data.train, &data.val, &data.test})
      if (p->size() > 0) {  // keeps x_offset/x_scale: uint8 images are converted on the device
        p->x = p->x.to(state.device);
        p->y = p->y.to(state.device);
      }
  }

  seedEverything(state.seed);
  int64_t out_features = data.classification ? data.summary.n_classes : 1;
  state.model = buildModel(config.model, data.summary.n_features, out_features);
  state.model->to(state.device);
  state.params = state.model->parameters();
  model_summary = summarizeModel(state.model);
  state.grads = std::make_unique<FlatGradients>(state.params);
  state.optimizer = makeOptimizer(config.optimizer, state.params);
  // The shuffle generator is its own stream of the training seed: shuffling does not consume
  // the global generator that dropout draws from.
  state.shuffle_gen =
      at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(state.seed) ^ 0x5DEECE66DULL);
  state.epoch_start_shuffle_state = state.shuffle_gen.get_state();

  if (!options.resume_from.empty())
    source_run_dir =
        resumeState(state, config.optimizer.name, options.resume_from,
                    (data.summary.n_train + t.batch_size - 1) / t.batch_size, t.epochs);
  thread_choice = chooseThreadCount(state, data.train, data.classification, config,
                                    options.available_cores, options.reserved_cores);
  for (const ThreadRate& r : thread_choice.rates)  // the slowdown watch compares with this
    if (r.threads == thread_choice.threads) throughput.emplace(r.samples_per_second, r.threads);
}

void Trainer::Impl::openRunDir() {
  if (options.run_dir.empty()) return;
  RunDescription d;
  d.device = state.device.str();
  d.num_threads = state.num_threads;
  d.thread_choice = thread_choice;
  d.front_end = options.front_end;
  d.command_line = options.command_line;
  d.seed = state.seed;
  d.data = data.summary;
  d.model = model_summary;
  RunPrefix prefix;  // read before this run's files exist
  if (!options.resume_from.empty()) {
    d.resumed_from_file = std::filesystem::absolute(options.resume_from).string();
    d.resumed_from_step = state.global_step;
    prefix = runPrefix(source_run_dir, state.global_step, state.history);
  }
  writer = std::make_unique<RunWriter>(options.run_dir, configToJson(config), describeRun(d));
  writer->writePrefixRows(prefix.metrics_rows, prefix.step_rows);
  checkpointer = std::make_unique<Checkpointer>(config.checkpoint, options.run_dir / "checkpoints");
}

void Trainer::Impl::saveNow(const std::filesystem::path& file, int64_t epoch) {
  try {
    trainscope::saveCheckpoint(state, checkpointContext(), file);
    reportSaved({file}, epoch, /*automatic=*/false);
  } catch (const std::exception& ex) {
    emit(EventKind::CheckpointFailed, std::string("checkpoint not saved: ") + ex.what(), epoch,
         file.string());
  }
}

void Trainer::Impl::reportSaved(const std::vector<std::filesystem::path>& files, int64_t epoch,
                                bool automatic) {
  for (const auto& f : files) {
    const Event e = checkpointSavedEvent(state.global_step, epoch, f, automatic);
    if (!automatic) {
      emit(e);
    } else if (writer) {
      writer->writeEvent(e);
    }
  }
}

void Trainer::Impl::recordStep(const StepResult& s, const TensorPair& batch, int64_t epoch,
                               int64_t b, int64_t batches) {
  StepRecord r;
  r.step = state.global_step;
  r.epoch = epoch;
  r.batch = b + 1;
  r.batches_per_epoch = batches;
  r.batch_samples = batch.size();
  r.loss = s.loss;
  r.grad_norm = s.grad_norm;
  r.grad_norm_clipped = s.grad_norm_clipped;
  r.lr = s.lr;
  r.applied = s.applied;
  r.elapsed_seconds = roundTo(run_timer.activeSeconds(), 1e-6);
  // Every batch counts, as in ARCHITECTURE §4 (and Lightning): a non-finite loss makes the
  // epoch's train_loss non-finite, which is what happened.
  state.epoch_loss.add(r.loss, r.batch_samples);
  if (writer) writer->writeStep(r);
  for (auto* o : observers) o->onStep(r);
}

void Trainer::Impl::reportNonFinite(const StepResult& s, int64_t epoch) {
  emit(nonFiniteEvent(s, state.global_step, epoch, non_finite_policy));
  if (non_finite_policy == "stop") {
    stop_on_non_finite = true;
  } else if (non_finite_policy == "pause") {
    control.pauseFromEngine();
  }
}

bool Trainer::Impl::trainEpoch(BatchIterator& iter, int64_t epoch, PauseAwareTimer& timer) {
  int64_t b = state.batch_in_epoch;  // a checkpoint taken mid-epoch resumes at its next batch
  auto on_transition = [&](const RunControl::Transitions& t) {
    // One definition of "the current epoch" everywhere (events, status bar, steps.csv): the
    // epoch of the newest step; 0 before the first step.
    const int64_t at_epoch = b > 0 ? epoch : state.epochs_completed;
    const std::string at_step = " at step " + std::to_string(state.global_step);
    if (t.paused) emit(EventKind::Paused, "paused" + at_step, at_epoch);
    if (t.resumed) emit(EventKind::Resumed, "resumed" + at_step, at_epoch);
    for (const auto& path : t.save_paths) saveNow(path, at_epoch);
  };
  const int64_t batches = iter.batchesPerEpoch();
  for (; b < batches; ++b) {
    SteadyClock::time_point wait_start = SteadyClock::now();
    RunControl::Decision d = control.beforeStep(on_transition);
    double waited = secondsSince(wait_start);
    timer.addPaused(waited);
    run_timer.addPaused(waited);
    if (d == RunControl::Decision::Stop) return false;

    const TensorPair batch = iter.batch(b);
    StepResult s = trainStep(state, batch, data.classification, config.training.clip, &hooks);
    ++state.global_step;
    state.batch_in_epoch = b + 1;
    recordStep(s, batch, epoch, b, batches);
    if (!s.applied) reportNonFinite(s, epoch);
    if (stop_on_non_finite) return false;  // no validation, no epoch row after a non-finite stop
  }
  return true;
}

void Trainer::Impl::finishEpoch(int64_t epoch, const PauseAwareTimer& timer) {
  const double train_seconds = timer.activeSeconds();
  auto [val_loss, val_acc] =
      evaluate(state.model, data.val, data.classification, config.training.batch_size);
  EpochRecord r;
  r.epoch = epoch;
  r.step = state.global_step;
  r.train_loss = state.epoch_loss.mean();
  r.val_loss = val_loss;
  r.val_accuracy = val_acc;
  r.lr = currentLr(*state.optimizer);
  r.epoch_seconds = roundTo(timer.activeSeconds(), 1e-6);
  r.samples_per_second = train_seconds > 0 ? roundTo(data.train.size() / train_seconds, 1e-3) : 0;
  state.epochs_completed = epoch;
  state.batch_in_epoch = 0;
  state.epoch_loss.reset();
  state.epoch_start_shuffle_state = state.shuffle_gen.get_state();  // the next epoch's start
  state.last_epoch = r;
  state.history.push_back(r);
  const bool improved =
      std::isfinite(val_loss) && (!state.best_val_loss || val_loss < *state.best_val_loss);
  if (improved) {
    state.best_val_loss = val_loss;
    state.best_epoch = epoch;
  }
  if (writer) writer->writeEpoch(r);
  for (auto* o : observers) o->onEpoch(r);
  if (throughput) {
    if (auto m = throughput->onEpoch(epoch, r.samples_per_second))
      emit({state.global_step, epoch, EventKind::Slowdown, *m, r.samples_per_second,
            "samples_per_second"});
  }
  autoSave(epoch, [&] {
    return checkpointer->atEpochEnd(state, checkpointContext(), improved, data.val.size() > 0);
  });
  control.afterEpoch(epoch);
}

RunSummary Trainer::Impl::loop() {
  const int64_t epochs = config.training.epochs;
  BatchIterator iter(data.train, config.training.batch_size, /*shuffle=*/true);
  const int64_t batches = iter.batchesPerEpoch();

  RunInfo info;
  info.run_dir = options.run_dir.string();
  info.seed = state.seed;
  info.device = state.device.str();
  info.num_threads = state.num_threads;
  info.thread_choice = thread_choice;
  info.torch_version = libtorchVersion();
  info.epochs = epochs;
  info.batches_per_epoch = batches;
  info.batch_size = config.training.batch_size;
  info.data = data.summary;
  info.model = model_summary;
  info.config_json = configToJson(config).dump();
  info.resumed_from = options.resume_from.string();
  info.start_step = state.global_step;
  info.start_epoch = state.epochs_completed;
  info.history = state.history;
  for (auto* o : observers) o->onRunStarted(info);
  emit(EventKind::RunStarted,
       "run started: " + config.name + ", seed " + std::to_string(state.seed) + ", " +
           std::to_string(data.summary.n_train) + " training samples, " + info.device + ", " +
           describeThreads(thread_choice),
       0);
  if (!options.resume_from.empty()) {
    const std::string file = options.resume_from.string();
    emit(EventKind::CheckpointLoaded,
         "resumed from " + file + " at step " + std::to_string(state.global_step) + " (epoch " +
             std::to_string(state.epochs_completed) + " completed, batch " +
             std::to_string(state.batch_in_epoch) + " of the next)",
         state.epochs_completed, file);
  }

  RunSummary summary;
  summary.stop_reason = StopReason::Completed;
  for (int64_t epoch = state.epochs_completed + 1; epoch <= epochs; ++epoch) {
    // A mid-epoch resume restored the shuffle state of this epoch's start: same permutation.
    state.epoch_start_shuffle_state = state.shuffle_gen.get_state();
    iter.startEpoch(state.shuffle_gen);
    state.model->train();
    PauseAwareTimer timer;  // training + validation of this epoch, pauses excluded
    if (!trainEpoch(iter, epoch, timer)) {
      summary.stop_reason = stop_on_non_finite ? StopReason::NonFinite : control.stopReason();
      if (summary.stop_reason != StopReason::NonFinite) {
        const bool partial = state.batch_in_epoch > 0;
        autoSave(state.epochs_completed + (partial ? 1 : 0),
                 [&] { return checkpointer->atStop(state, checkpointContext()); });
        emit(EventKind::Stopped,
             std::string(summary.stop_reason == StopReason::Interrupted ? "interrupted"
                                                                        : "stopped") +
                 " at step " + std::to_string(state.global_step),
             state.epochs_completed + (partial ? 1 : 0));
      }
      break;
    }
    finishEpoch(epoch, timer);
  }
  return summary;
}

void Trainer::Impl::finish(RunSummary& summary) {
  summary.epochs_completed = state.epochs_completed;
  summary.global_step = state.global_step;
  summary.best_epoch = state.best_epoch;
  summary.best_val_loss = state.best_val_loss;
  summary.final_metrics = state.last_epoch;
  summary.wall_seconds = roundTo(run_timer.wallSeconds(), 1e-6);
  summary.seed = state.seed;

  std::string message = "finished: " + toString(summary.stop_reason) + " after " +
                        std::to_string(summary.epochs_completed) +
                        (summary.epochs_completed == 1 ? " epoch, " : " epochs, ") +
                        std::to_string(summary.global_step) + " steps";
  if (summary.test_accuracy) message += ", test accuracy " + formatNumber(*summary.test_accuracy);
  if (summary.test_loss) message += ", test loss " + formatNumber(*summary.test_loss);
  if (!summary.error.empty()) message += ": " + summary.error;
  try {
    Event e;
    e.step = state.global_step;
    e.epoch = state.epochs_completed;
    e.kind = summary.stop_reason == StopReason::Error ? EventKind::Error : EventKind::Finished;
    e.message = message;
    e.value = summary.test_accuracy;
    if (e.value) e.what = "test_accuracy";
    emit(e);
    if (writer) writer->writeSummary(summary);
  } catch (const std::exception& e) {
    if (summary.stop_reason != StopReason::Error) {
      summary.stop_reason = StopReason::Error;
      summary.error = e.what();
    }
  }
  writer.reset();  // close files before anyone reads them
}

RunSummary Trainer::run() {
  Impl& m = *impl_;
  m.run_timer.restart();
  m.prepare();     // throws Error for bad config/data/checkpoint before anything is written
  m.openRunDir();  // throws Error(Io)

  RunSummary summary;
  try {
    summary = m.loop();
    // The test set is evaluated once at the end, on the final model, when the run trained at
    // least one whole epoch and did not end on a non-finite value.
    if (m.data.test.size() > 0 && m.state.epochs_completed > 0 &&
        summary.stop_reason != StopReason::NonFinite) {
      auto [test_loss, test_acc] =
          evaluate(m.state.model, m.data.test, m.data.classification, m.config.training.batch_size);
      summary.test_loss = test_loss;
      summary.test_accuracy = test_acc;
    }
  } catch (const c10::Error& e) {
    summary.stop_reason = StopReason::Error;
    summary.error = e.what_without_backtrace();
  } catch (const std::exception& e) {
    summary.stop_reason = StopReason::Error;
    summary.error = e.what();
  }
  m.finish(summary);
  for (auto* o : m.observers) o->onRunFinished(summary);
  return summary;
}

}  // namespace trainscope

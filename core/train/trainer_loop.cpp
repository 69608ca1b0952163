// The Trainer's epoch loop (ARCHITECTURE §3): batches of steps with the run controls between
// them, validation and automatic checkpoints at each epoch end, records to the run directory
// and observers. Set-up and the end of the run are in trainer.cpp.
#include <cmath>

#include "core/config/config_json.h"
#include "core/io/number_format.h"
#include "core/optim/optimizer_factory.h"
#include "core/system/device_info.h"
#include "core/train/records_json.h"
#include "core/train/train_state_io.h"
#include "core/train/trainer_impl.h"

namespace trainscope {

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
  if (config.training.clip.enabled) r.max_norm = config.training.clip.max_norm;
  r.clipped = s.clipped;
  // Every batch counts, as in ARCHITECTURE §4 (and Lightning): a non-finite loss makes the
  // epoch's train_loss non-finite, which is what happened.
  state.epoch_loss.add(r.loss, r.batch_samples);
  if (writer) writer->writeStep(r);
  for (auto* o : observers) o->onStep(r);
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
    for (const Command& c : t.engine_commands) applyEngineCommand(c, at_epoch);
  };
  const int64_t batches = iter.batchesPerEpoch();
  for (; b < batches; ++b) {
    SteadyClock::time_point wait_start = SteadyClock::now();
    RunControl::Decision d = control.beforeStep(on_transition);
    double waited = secondsSince(wait_start);
    timer.addPaused(waited);
    run_timer.addPaused(waited);
    if (d == RunControl::Decision::Stop) return false;
    if (watch->rolled_back) return false;  // loop() restarts at the snapshot's epoch and batch

    const TensorPair batch = iter.batch(b);
    watch->startStep(state.global_step + 1);
    StepResult s =
        trainStep(state, batch, data.classification, config.training.clip, &hooks, watch.get());
    ++state.global_step;
    state.batch_in_epoch = b + 1;
    recordStep(s, batch, epoch, b, batches);
    watchStep(s, epoch);                   // forensics and the non-finite policy
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
  watchEpoch(r);  // divergence (policy) and the loss doctor
  if (throughput) {
    if (auto m = throughput->onEpoch(epoch, r.samples_per_second))
      emit({state.global_step, epoch, EventKind::Slowdown, *m, r.samples_per_second,
            "samples_per_second", ""});
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

  startWatch();
  RunSummary summary;
  summary.stop_reason = StopReason::Completed;
  for (int64_t epoch = state.epochs_completed + 1; epoch <= epochs; ++epoch) {
    // A mid-epoch resume restored the shuffle state of this epoch's start: same permutation.
    state.epoch_start_shuffle_state = state.shuffle_gen.get_state();
    iter.startEpoch(state.shuffle_gen);
    state.model->train();
    PauseAwareTimer timer;  // training + validation of this epoch, pauses excluded
    if (!trainEpoch(iter, epoch, timer)) {
      if (watch->rolled_back) {  // restored from a snapshot: continue from its epoch and batch
        watch->rolled_back = false;
        epoch = state.epochs_completed;
        continue;
      }
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
    if (watch->stop_diverged) {
      summary.stop_reason = StopReason::Diverged;
      break;
    }
  }
  return summary;
}

}  // namespace trainscope

// The Trainer's epoch loop (ARCHITECTURE §3): batches of steps with the run controls between
// them, validation and automatic checkpoints at each epoch end, records to the run directory
// and observers. Set-up and the end of the run are in trainer.cpp.
#include <ATen/ops/cat.h>

#include <cmath>

#include "core/config/config_json.h"
#include "core/config/kinds.h"
#include "core/config/live_settings.h"
#include "core/system/number_format.h"
#include "core/optim/optimizer_factory.h"
#include "core/run/epoch_thinning.h"
#include "core/run/records_json.h"
#include "core/system/cuda_memory.h"
#include "core/system/clock.h"
#include "core/system/device_info.h"
#include "core/system/memory.h"
#include "core/train/loop/epoch_end.h"
#include "core/train/loop/trainer_impl.h"
#include "core/train/monitors/model_view_impl.h"
#include "core/train/monitors/validation_detail.h"
#include "core/train/state/train_state_io.h"

namespace trainscope {

void Trainer::Impl::recordStep(const StepResult& s, int64_t epoch, int64_t b, int64_t batches) {
  StepRecord r;
  r.step = state.global_step;
  r.epoch = epoch;
  r.batch = b + 1;
  r.batches_per_epoch = batches;
  r.batch_samples = s.samples;
  r.loss = s.loss;
  r.grad_norm = s.grad_norm;
  r.grad_norm_clipped = s.grad_norm_clipped;
  r.lr = s.lr;
  r.applied = s.applied;
  r.loss_scale = s.loss_scale;
  r.elapsed_seconds = roundTo(run_timer.activeSeconds(), 1e-6);
  if (config.training.clip.enabled) r.max_norm = config.training.clip.max_norm;
  r.clipped = s.clipped;
  r.data_wait = roundTo(step_data_wait, 1e-6);
  // Every batch counts, as in ARCHITECTURE §4 (and Lightning): a non-finite loss makes the
  // epoch's train_loss non-finite, which is what happened.
  state.epoch_loss.add(r.loss, r.batch_samples);
  state.epoch_correct += s.correct;
  report(r);
}

void Trainer::Impl::switchAmp(bool enabled, int64_t epoch) {
  if (enabled == state.amp) return;
  trainscope::setAmp(state, enabled);
  config.training.amp = enabled;
  emit(ampChangedEvent(state, enabled, epoch));
}

bool Trainer::Impl::trainEpoch(BatchIterator& iter, BatchLoader& loader, int64_t epoch,
                                PauseAwareTimer& timer) {
  int64_t b = state.batch_in_epoch;  // a checkpoint taken mid-epoch resumes at its next batch
  auto on_transition = [&](const RunControl::Transitions& t) {
    // One definition of "the current epoch" everywhere (events, status bar, steps.csv): the
    // epoch of the newest step; 0 before the first step.
    const int64_t at_epoch = b > 0 ? epoch : state.epochs_completed;
    const std::string at_step = " at step " + std::to_string(state.global_step);
    if (t.paused) {
      emit(EventKind::Paused, "paused" + at_step, at_epoch);
      for (auto& p : parts) p->onPause(at_epoch);  // the pause's checkpoint, the model view
    }
    if (t.resumed) emit(EventKind::Resumed, "resumed" + at_step, at_epoch);
    for (const auto& path : t.save_paths) checkpoints->saveTo(path, at_epoch);
    for (double lr : t.new_lrs) emit(changeLearningRate(state, lr, state.global_step, at_epoch));
    if (t.amp) switchAmp(*t.amp, at_epoch);
    for (const Command& c : t.engine_commands)
      for (auto& p : parts) p->onCommand(c, at_epoch);
  };
  const int64_t batches = iter.batchesPerEpoch();
  const int64_t k = config.training.grad_accum_steps;  // micro-batches per optimizer step
  std::vector<TensorPair> group;  // the epoch's last group may be smaller
  int64_t group_at = -1;          // the first batch of `group` (a retried step keeps it)
  while (b < batches) {
    postScheduled();  // a replay's recorded changes, at their steps
    SteadyClock::time_point wait_start = SteadyClock::now();
    RunControl::Decision d = control.beforeStep(on_transition);
    double waited = secondsSince(wait_start);
    timer.addPaused(waited);
    run_timer.addPaused(waited);
    if (dist) {  // every rank stops at the same step boundary, for the same reason
      const bool stop = d == RunControl::Decision::Stop;
      if ((agreed_stop =
               agreeOnStop(*dist, stop ? std::optional(control.stopReason()) : std::nullopt)))
        return false;
    }
    if (d == RunControl::Decision::Stop) return false;
    if (restart_from_state) return false;  // loop() restarts at the snapshot's epoch and batch

    if (group_at != b) {  // the loader hands each batch out once
      group.clear();
      step_data_wait = 0;
      for (int64_t i = b; i < std::min(b + k, batches); ++i) {
        double waited = 0;
        group.push_back(loader.next(i, &waited));  // made ahead by data.workers, or here
        step_data_wait += waited;
      }
      epoch_data_wait += step_data_wait;
      group_at = b;
    }
    StepResult s;
    for (auto& p : parts) p->beforeStep(state.global_step + 1);
    try {
      s = trainStep(state, group, data.classification, config.training.clip, &hooks, step_watch);
    } catch (const std::exception& ex) {
      if (!isCudaOutOfMemory(ex)) throw;  // TRAINSCOPE_CUDA builds only; untested here
      emit({state.global_step, epoch, EventKind::MemoryWarning,
            outOfMemoryAdvice(config.training.batch_size, k), std::nullopt, "cuda_oom", ""});
      control.pauseFromEngine();
      continue;  // the group is retried when resumed
    }
    ++state.global_step;
    b += static_cast<int64_t>(group.size());
    state.batch_in_epoch = b;  // never inside a group: checkpoints resume at a group's start
    recordStep(s, epoch, b - 1, batches);
    for (auto& p : parts) p->onStepEnd(s, epoch);  // AMP skips, forensics and the policy
    // No validation, no epoch row after a non-finite stop.
    if (engine_stop == StopReason::NonFinite) return false;
  }
  return true;
}

EvalSums Trainer::Impl::measureValidationCost(int64_t epoch) {
  validation_cost_measured = true;
  // One pass timed, with the resident memory at each chunk (the graphs of all chunks so far
  // alive with the mistake): the largest growth over the memory before the pass.
  // The mistaken pass also feeds the validation detail, as validate() does.
  std::vector<TrainerPart*> detail_parts;
  auto pass = [&](const Mistakes& m, double& seconds, double& bytes) {
    const int64_t before = residentMemoryBytes().value_or(0);
    int64_t peak = before;
    const bool detail = m.val_with_grad;
    const auto start = SteadyClock::now();
    EvalSums sums = evaluateSums(
        *state.model, data.val, data.classification, config.training.batch_size,
        [&](int64_t first, const at::Tensor& out, const at::Tensor& y) {
          peak = std::max(peak, residentMemoryBytes().value_or(0));
          if (detail)
            for (TrainerPart* p : detail_parts) p->onValidationBatch(first, out, y);
        },
        m);
    seconds = secondsSince(start);
    bytes = before > 0 ? static_cast<double>(peak - before) : std::nan("");
    return sums;
  };
  detail_parts = validationParts(epoch);
  double with_s = 0, with_b = 0, without_s = std::nan(""), without_b = std::nan("");
  if (!state.mistakes.eval_in_train_mode) {
    Mistakes without = state.mistakes;
    without.val_with_grad = false;
    pass(without, without_s, without_b);  // first: memory it frees is not counted for the other
  }
  EvalSums sums = pass(state.mistakes, with_s, with_b);
  Event e{state.global_step, epoch, EventKind::ValidationCost,
          "validation without torch.no_grad(): " + formatHuman(with_s) + " s, resident memory +" +
              formatHuman(with_b / 1e6) + " MB with every batch's graph kept; under no_grad: " +
              formatHuman(without_s) + " s, +" + formatHuman(without_b / 1e6) + " MB",
          with_s, "seconds", ""};
  e.values = {with_s, without_s, with_b, without_b};
  emit(e);
  for (TrainerPart* p : detail_parts) p->onValidationEnd();
  return sums;
}

EvalSums Trainer::Impl::validateAugmented(int64_t epoch) {
  // The split's images as the training batches get them: ToTensor, the random transforms,
  // Normalize; in chunks, each from its own generator (the training's scheme, another seed).
  const int64_t chunk = std::max<int64_t>(config.training.batch_size, 1024);
  BatchIterator it(data.val, chunk, /*shuffle=*/false);
  constexpr uint64_t kValidationDraws = 0x76616c;  // "val": not the training batches' draws
  it.setAugmentation(augmentation, static_cast<uint64_t>(state.seed) ^ kValidationDraws);
  it.startEpoch(epoch);
  std::vector<at::Tensor> xs, ys;
  for (int64_t b = 0; b < it.batchesPerEpoch(); ++b) {
    TensorPair part = it.batch(b);
    xs.push_back(std::move(part.x));
    ys.push_back(std::move(part.y));
  }
  TensorPair augmented;
  augmented.x = at::cat(xs);
  augmented.y = at::cat(ys);
  const EvalSums sums = validateSplit(augmented, epoch);
  if (!augmented_validation_said) {
    augmented_validation_said = true;
    // The clean evaluation: in eval mode without gradients whatever else is mistaken (its
    // dropout would otherwise draw from the run's generator).
    const EvalSums clean_sums =
        evaluateSums(*state.model, data.val, data.classification, config.training.batch_size);
    const auto [loss, acc] = evalMeans(sums, data.classification);
    const auto [clean, clean_acc] = evalMeans(clean_sums, data.classification);
    std::string message =
        "validation through the training augmentation (teaching.mistakes augment_validation): "
        "validation loss " + formatHuman(loss) + " against " + formatHuman(clean) +
        " on the clean validation images";
    if (acc && clean_acc)
      message += ", accuracy " + formatHuman(*acc) + " against " + formatHuman(*clean_acc);
    message += "; each epoch draws other crops and flips, so the validation loss is noisy and "
               "above the model's real loss. Validation should take the deterministic transforms only";
    Event e{state.global_step, epoch, EventKind::AugmentedValidation, message, loss, "val_loss", ""};
    e.values = {loss, clean, acc.value_or(std::nan("")), clean_acc.value_or(std::nan(""))};
    emit(e);
  }
  return sums;
}

EvalSums Trainer::Impl::validate(int64_t epoch) {
  if (state.mistakes.augment_validation && augmentation && !dist && data.val.size() > 0)
    return validateAugmented(epoch);
  if (state.mistakes.val_with_grad && !validation_cost_measured && !dist && data.val.size() > 0)
    return measureValidationCost(epoch);
  return validateSplit(data.val, epoch);
}

EvalSums Trainer::Impl::validateSplit(const TensorPair& split, int64_t epoch) {
  const std::vector<TrainerPart*> wanting = validationParts(epoch);
  if (wanting.empty()) return evaluateSplitSums(split, state.mistakes);
  const EvalSums sums = evaluateSums(
      *state.model, split, data.classification, config.training.batch_size,
      [&](int64_t first, const at::Tensor& out, const at::Tensor& y) {
        for (TrainerPart* p : wanting) p->onValidationBatch(first, out, y);
      },
      state.mistakes);
  for (TrainerPart* p : wanting) p->onValidationEnd();
  return sums;
}

bool Trainer::Impl::finishEpoch(int64_t epoch, const PauseAwareTimer& timer) {
  const double train_seconds = timer.activeSeconds();
  if (train_seconds > 0) {  // the share of the training time spent waiting for batches
    const double share = std::min(1.0, epoch_data_wait / train_seconds);
    epoch_data_wait_share = roundTo(share, 1e-4);
  }
  last_epoch_data_wait = epoch_data_wait;
  epoch_data_wait = 0;
  const EvalSums val_sums = validate(epoch);
  auto [val_loss, val_acc] = evalMeans(val_sums, data.classification);
  EpochRecord r;
  r.epoch = epoch;
  r.step = state.global_step;
  r.train_loss = state.epoch_loss.mean();
  r.val_loss = val_loss;
  r.val_accuracy = val_acc;
  if (!data.classification) {  // R^2, MAE, RMSE in target units
    const RegressionMetrics m = regressionMetrics(val_sums, data.summary.preprocessing.target_scale);
    r.val_r2 = m.r2;
    r.val_mae = m.mae;
    r.val_rmse = m.rmse;
  }
  r.lr = currentLr(*state.optimizer);
  r.epoch_seconds = roundTo(timer.activeSeconds(), 1e-6);
  r.samples_per_second = train_seconds > 0 ? roundTo(data.train.size() / train_seconds, 1e-3) : 0;
  r.data_wait_share = epoch_data_wait_share;
  if (data.classification && state.epoch_loss.count() > 0)
    r.train_accuracy = static_cast<double>(state.epoch_correct) / state.epoch_loss.count();
  const EpochEndResult end = afterValidation(state, r, config.training);  // scheduler, monitors
  state.epoch_correct = 0;
  state.epochs_completed = epoch;
  state.batch_in_epoch = 0;
  state.epoch_loss.reset();
  state.epoch_start_shuffle_state = state.shuffle_gen.get_state();  // the next epoch's start
  state.last_epoch = r;
  appendThinned(state.history, r, [](const EpochRecord& e) { return e.epoch; });
  // best.pt by training.monitor (the validation loss by default)
  const std::optional<double> monitored = monitoredValue(r, config.training.monitor);
  const bool improved = monitored && monitorImproves(*monitored, state.best_monitored,
                                                     monitorMaximizes(config.training.monitor));
  if (improved) {
    state.best_monitored = *monitored;
    state.best_epoch = epoch;
    state.best_record = r;
  }
  report(r);
  for (const Event& e : end.events) emit(e);
  if (r.data_wait_share && *r.data_wait_share > kDataBoundShare &&
      last_epoch_data_wait >= kDataBoundSeconds && !data_bound_said) {
    data_bound_said = true;  // once a run: the advice does not change from epoch to epoch
    Event e{state.global_step, epoch, EventKind::DataWarning,
            "data: epoch " + std::to_string(epoch) + " waited for its batches " +
                formatNumber(roundTo(*r.data_wait_share * 100, 0.1)) +
                "% of its training time (data_wait in steps.csv): the loader is the "
                "bottleneck; more workers (data.workers, now " + std::to_string(info.data_workers) +
                "), or cache the data",
            *r.data_wait_share, "data_bound", ""};
    emit(e);
  }
  // Divergence and the loss doctor, the slowdown watch, checkpoints, restoring the best
  // weights, the model view (addParts' order).
  const EpochEnd ended{r, improved, end.stop, epoch >= config.training.epochs};
  for (auto& p : parts) p->onEpochEnd(ended);
  control.afterEpoch(epoch);
  return !end.stop;
}

RunSummary Trainer::Impl::loop() {
  const int64_t epochs = config.training.epochs;
  BatchIterator iter(data.train, config.training.batch_size, /*shuffle=*/true,
                     config.training.drop_last);
  BatchLoader loader(iter, info.data_workers, config.data.prefetch);
  if (dist) iter.setShard(dist->rank(), dist->worldSize());  // DistributedSampler's split
  iter.setAugmentation(augmentation, static_cast<uint64_t>(state.seed));
  if (sample_weights.defined()) iter.setSampleWeights(sample_weights);
  const int64_t batches = iter.batchesPerEpoch();

  info.batches_per_epoch = batches;
  for (auto* o : observers) o->onRunStarted(info);
  emit(EventKind::RunStarted,
       "run started: " + config.name + ", seed " + std::to_string(state.seed) + ", " +
           std::to_string(data.summary.n_train) + " training samples, " + info.device + ", " +
           describeThreads(thread_choice),
       0);
  if (dist) emit(groupFormedEvent(*dist, config.training.batch_size));
  for (const Event& e : start_events) emit(e);
  if (!options.resume_from.empty()) {
    const std::string file = options.resume_from.string();
    emit(EventKind::CheckpointLoaded,
         "resumed from " + file + " at step " + std::to_string(state.global_step) + " (epoch " +
             std::to_string(state.epochs_completed) + " completed, batch " +
             std::to_string(state.batch_in_epoch) + " of the next)",
         state.epochs_completed, file);
    for (const ConfigChange& c : options.resume_changes)
      emit({state.global_step, state.epochs_completed, EventKind::ConfigChanged,
            c.key + " changed from " + c.before + " to " + c.after + " at the resume (step " +
                std::to_string(state.global_step) + ")",
            configEventValue(c.after), c.key, ""});
  }

  if (imported) {
    const std::string file = imported->file.string();
    const auto n = static_cast<int64_t>(imported->tensors.size());
    emit({0, 0, EventKind::WeightsImported,
          "weights imported from " + file + " (" + std::to_string(n) + " tensors)", double(n),
          "tensors", file});
  }

  for (auto& p : parts) p->onRunStart();  // layers.csv, the gradient watch from the state
  RunSummary summary;
  summary.stop_reason = StopReason::Completed;
  for (int64_t epoch = state.epochs_completed + 1; epoch <= epochs; ++epoch) {
    // A mid-epoch resume restored the shuffle state of this epoch's start: same permutation.
    state.epoch_start_shuffle_state = state.shuffle_gen.get_state();
    iter.startEpoch(state.shuffle_gen, epoch);
    loader.startEpoch(state.batch_in_epoch);  // workers start at a resumed epoch's batch
    epoch_data_wait = 0;
    state.model->train();
    PauseAwareTimer timer;  // training + validation of this epoch, pauses excluded
    const bool trained = trainEpoch(iter, loader, epoch, timer);
    loader.stop();  // the next epoch's order is drawn next: no worker may read this one's
    if (!trained) {
      if (restart_from_state) {  // restored from a snapshot: continue from its epoch and batch
        restart_from_state = false;
        epoch = state.epochs_completed;
        continue;
      }
      summary.stop_reason = engine_stop == StopReason::NonFinite
                                ? StopReason::NonFinite
                                : agreed_stop.value_or(control.stopReason());
      if (summary.stop_reason != StopReason::NonFinite) {
        for (auto& p : parts) p->onInterrupt(stoppingEpoch());  // the stop's checkpoint
        const std::string why = control.stopWhy();
        emit(EventKind::Stopped,
             std::string(summary.stop_reason == StopReason::Interrupted ? "interrupted"
                         : summary.stop_reason == StopReason::Pruned    ? "pruned"
                                                                        : "stopped") +
                 " at step " + std::to_string(state.global_step) + (why.empty() ? "" : ": " + why),
             stoppingEpoch());
      }
      break;
    }
    const bool go_on = finishEpoch(epoch, timer);  // false: early stopping fired
    if (engine_stop == StopReason::Diverged) {
      summary.stop_reason = StopReason::Diverged;
      break;
    }
    if (!go_on) {
      summary.stop_reason = StopReason::EarlyStop;
      break;
    }
  }
  return summary;
}

}  // namespace trainscope

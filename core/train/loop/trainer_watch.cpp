// The gradient watch part (trainer_watch.h) and the Trainer's commands that reach it (SetClip,
// RollBack, SetNonFinitePolicy).
#include "core/train/loop/trainer_watch.h"

#include <cmath>
#include <utility>

#include "core/data/chance.h"
#include "core/errors.h"
#include "core/system/number_format.h"
#include "core/optim/optimizer_factory.h"
#include "core/train/state/train_state_io.h"
#include "core/train/trainer.h"
#include "core/train/loop/trainer_impl.h"  // the Trainer's commands below

namespace trainscope {

namespace {

std::vector<std::string> parameterNames(const TrainState& state) {
  std::vector<std::string> names;
  for (const auto& item : state.model->named_parameters()) names.push_back(item.first);
  return names;
}

}  // namespace

GradientWatchPart::GradientWatchPart(PartHost& host, const ChanceLevels& chance_levels)
    : host_(host),
      names_(parameterNames(host.runState())),
      layers_(host.runState().params),
      every_(host.runConfig().training.layer_stats_every),
      divergence_(chance_levels.classification ? chance_levels.n_classes : 0,
                  chance_levels.known ? chance_levels.accuracy : 0),
      chance_(chance_levels),
      snapshots_(host.runConfig().training.snapshot_every, 3),
      policy_(host.runConfig().training.non_finite.value_or("pause")) {}

void GradientWatchPart::beforeStep(int64_t step) {
  due_ = every_ > 0 && step % every_ == 0;
  measured_ = false;
}

void GradientWatchPart::afterMeasure(const TrainState& state, const StepResult& r) {
  if (!due_ && r.applied) return;
  grad_norms_ = layers_.gradNorms(*state.grads);
  update_ratios_.assign(grad_norms_.size(), std::nan(""));
  measured_ = true;
}

void GradientWatchPart::beforeUpdate(const TrainState& state) {
  if (due_) layers_.rememberWeights(state.params);
}

void GradientWatchPart::afterUpdate(const TrainState& state) {
  if (due_) update_ratios_ = layers_.updateRatios(state.params);
}

std::optional<LayerStatsRecord> GradientWatchPart::takeRecord(int64_t step, int64_t epoch) {
  // Statistics steps, and a step that was not applied (non-finite loss or gradient): learners
  // see which layer blew up even before the first statistics step.
  if (!measured_ || every_ <= 0) return std::nullopt;
  LayerStatsRecord r;
  r.step = step;
  r.epoch = epoch;
  r.names = names_;
  r.grad_norm = grad_norms_;
  r.update_ratio = update_ratios_;
  return r;
}

NonFiniteEvidence GradientWatchPart::evidence(const StepResult& s, int64_t step,
                                              int64_t epoch) const {
  NonFiniteEvidence ev;
  ev.step = step;
  ev.epoch = epoch;
  ev.loss = s.loss;
  ev.grad_norm = s.grad_norm;
  ev.lr = s.lr;
  for (size_t i = 0; i < grad_norms_.size() && i < names_.size(); ++i)
    if (!std::isfinite(grad_norms_[i])) ev.layers.emplace_back(names_[i], grad_norms_[i]);
  ev.layers_non_finite = !ev.layers.empty();
  if (ev.layers.empty() && !grad_norms_.empty()) {
    size_t big = 0;
    for (size_t i = 1; i < grad_norms_.size(); ++i)
      if (grad_norms_[i] > grad_norms_[big]) big = i;
    ev.layers.emplace_back(names_[big], grad_norms_[big]);
  }
  if (ev.layers.size() > 3) ev.layers.resize(3);
  return ev;
}

CauseSettings GradientWatchPart::causeSettings(double lr) const {
  const TrainConfig& config = host_.runConfig();
  CauseSettings c;
  c.optimizer = config.optimizer.name;
  c.lr = lr;
  c.clip_enabled = config.training.clip.enabled;
  c.max_norm = config.training.clip.max_norm;
  c.standardize = config.data.standardize;
  c.target_scale = config.data.target_scale;
  c.classification = host_.runData().classification;
  return c;
}

DoctorContext GradientWatchPart::doctorContext() const {
  const TrainConfig& config = host_.runConfig();
  DoctorContext c;
  c.clip_enabled = config.training.clip.enabled;
  c.clip_share_recent = clip_stats_.shareRecent();
  c.clip_steps_recent = clip_stats_.recentSteps();
  c.chance = chance_;
  c.overfit_patience = config.training.early_stopping.patience;
  c.optimizer = config.optimizer.name;
  c.momentum = config.optimizer.momentum;
  c.weight_decay = config.optimizer.weight_decay;
  c.dropout = config.model.dropout;
  return c;
}

void GradientWatchPart::addToCheckpoint(CheckpointContext& c) const {
  c.doctor_grads = &doctor_.grads();
}

void GradientWatchPart::restartDoctor() {
  // The initial loss from the state (a checkpoint or snapshot), else the history's first
  // epoch (a checkpoint written before the key existed); then the epochs so far.
  TrainState& state = host_.runState();
  doctor_.restart(state.global_step, state.initial_losses,
                  /*from_history=*/state.initial_losses.empty() && !state.history.empty(),
                  state.doctor_grads ? &*state.doctor_grads : nullptr);
  state.doctor_grads.reset();  // read: the doctor keeps them from here
  for (const EpochRecord& r : state.history) doctor_.onEpoch(r);
}

void GradientWatchPart::onRunStart() {
  started_ = true;
  const TrainState& state = host_.runState();
  restartDoctor();
  for (const EpochRecord& r : state.history)  // a resumed run: the epochs so far
    divergence_.onEpoch(r, causeSettings(r.lr), policy_);
  // A resumed run's reading from its epochs so far, at once: the Diagnosis tab said "too early
  // to tell" after loading a 100-epoch checkpoint until the next epoch ended.
  if (!state.history.empty()) {
    const Diagnosis d = doctor_.diagnose(doctorContext());
    for (auto* o : host_.runObservers()) o->onDiagnosis(d);
  }
  snapshots_.capture(state, host_.checkpointContext());
}

void GradientWatchPart::applyPolicy(const Event& e, bool diverged) {
  host_.emit(e);
  if (policy_ == "stop") {
    host_.stopRun(diverged ? StopReason::Diverged : StopReason::NonFinite);
  } else if (policy_ == "pause") {
    host_.pauseRun();
  }
}

void GradientWatchPart::onStepEnd(const StepResult& s, int64_t epoch) {
  TrainState& state = host_.runState();
  if (scaler_skips_.onStep(s.scaler_skipped)) {  // AMP: many skips in a row follow the policy
    host_.emit(scalerSkipsEvent(s.loss_scale.value_or(0), state.global_step, epoch, policy_));
    if (policy_ == "stop") host_.stopRun(StopReason::NonFinite);
    if (policy_ == "pause") host_.pauseRun();
    return;
  }
  if (s.scaler_skipped) {
    ++state.scaler_skipped_steps;  // normal AMP behaviour: counted, drawn, no policy
    return;
  }
  const int64_t step = state.global_step;
  if (auto r = takeRecord(step, epoch)) {
    doctor_.onUpdateRatios(r->update_ratio);
    host_.report(*r);
  }
  const ClipConfig& clip = host_.runConfig().training.clip;
  if (auto warn = clip_stats_.onStep(step, s.grad_norm, clip.enabled, clip.max_norm))
    host_.emit({step, epoch, EventKind::ClipWarning, warn->message, warn->value, warn->what, ""});
  doctor_.onStep(s.loss, s.applied, s.grad_norm);
  if (state.initial_losses.size() < doctor_.initialLosses().size())  // the checkpoints keep it
    state.initial_losses = doctor_.initialLosses();
  if (!s.applied) {
    ++skipped_steps_;
    applyPolicy(nonFiniteForensicsEvent(evidence(s, step, epoch), causeSettings(s.lr), policy_),
                /*diverged=*/false);
    reportDiagnosis(epoch);
  } else if (std::isfinite(s.loss) && snapshots_.due(step)) {
    snapshots_.capture(state, host_.checkpointContext());
  }
}

void GradientWatchPart::onEpochEnd(const EpochEnd& end) {
  const EpochRecord& r = end.record;
  doctor_.onEpoch(r);
  if (auto e = divergence_.onEpoch(r, causeSettings(r.lr), policy_)) {
    doctor_.onDiverged();
    applyPolicy(*e, /*diverged=*/true);
  }
  reportDiagnosis(r.epoch);
}

void GradientWatchPart::reportDiagnosis(int64_t epoch) {
  // Every epoch for the first 1,000, then spaced by a thousandth of the run (readingDue): the
  // run's end reads afresh (the summary's diagnosis).
  if (!doctor_.readingDue()) return;
  Diagnosis d = doctor_.diagnose(doctorContext());
  // Observers get every reading, so that the Diagnosis tab shows the newest epoch's.
  for (auto* o : host_.runObservers()) o->onDiagnosis(d);
  // events.jsonl: a change of kind, when it holds at two readings in a row (noisy validation
  // losses would flip overfitting/healthy every epoch); "diverging" at once. Not an event to
  // observers: it would split the runs of repeated events that front ends fold into one line.
  const std::string previous = std::exchange(pending_kind_, d.kind);
  if (d.kind == last_kind_ || (d.kind != "diverging" && d.kind != previous)) return;
  last_kind_ = d.kind;
  if (d.kind != "too_early")
    host_.record({host_.runState().global_step, epoch, EventKind::Diagnosis,
                  "diagnosis: " + d.kind + ": " + d.summary, std::nullopt, d.kind, ""});
}

void GradientWatchPart::addToSummary(RunSummary& s) {
  if (!started_) return;
  s.skipped_steps = skipped_steps_;
  s.diagnosis = doctor_.diagnose(doctorContext());
}

void GradientWatchPart::onCommand(const Command& command, int64_t epoch) {
  TrainState& state = host_.runState();
  TrainConfig& config = host_.runConfig();
  ClipConfig& clip = config.training.clip;
  const std::string from = " from step " + std::to_string(state.global_step + 1);
  if (const auto* set = std::get_if<command::SetClip>(&command)) {
    clip.enabled = set->enabled;
    if (set->max_norm > 0 && std::isfinite(set->max_norm)) clip.max_norm = set->max_norm;
    host_.emit({state.global_step, epoch, EventKind::ConfigChanged,
                clip.enabled
                    ? "gradient clipping on, max_norm " + formatNumber(clip.max_norm) + from
                    : "gradient clipping off" + from,
                clip.max_norm, clip.enabled ? "training.clip.max_norm" : "training.clip.enabled",
                ""});
    return;
  }
  if (const auto* set = std::get_if<command::SetNonFinitePolicy>(&command)) {
    if (set->policy == policy_) return;
    policy_ = set->policy;
    config.training.non_finite = set->policy;
    host_.emit({state.global_step, epoch, EventKind::ConfigChanged,
                "non-finite policy " + set->policy + from, std::nullopt, "training.non_finite",
                ""});
    return;
  }
  if (const auto* roll = std::get_if<command::RollBack>(&command)) rollBack(*roll, epoch);
}

void GradientWatchPart::rollBack(const command::RollBack& c, int64_t epoch) {
  TrainState& state = host_.runState();
  TrainConfig& config = host_.runConfig();
  ClipConfig& clip = config.training.clip;
  const int64_t before = c.before_step;
  const double lr = currentLr(*state.optimizer);
  const int64_t last_step = state.global_step;  // the newest step written before the roll-back
  std::optional<int64_t> at;
  try {
    at = snapshots_.restoreBefore(state, before, config.optimizer.name);
  } catch (const std::exception& ex) {
    host_.emit({state.global_step, epoch, EventKind::RolledBack,
                std::string("rollback failed, nothing restored: ") + ex.what(), std::nullopt,
                "failed", ""});
    return;
  }
  if (!at) {
    host_.emit({state.global_step, epoch, EventKind::RolledBack,
                "no snapshot before step " + std::to_string(before) + ": nothing restored",
                std::nullopt, "failed", ""});
    return;
  }
  host_.restartFromState();
  restartDoctor();  // the evidence starts afresh from the snapshot's state
  pending_kind_.clear();
  const std::string after = " from step " + std::to_string(state.global_step + 1);
  // At the step it happened (the newest before it); the steps after the snapshot are trained
  // again, and their rows written so far are superseded (events.jsonl "superseded_steps").
  std::string message = "rolled back to the snapshot at step " + std::to_string(*at) +
                        " (before step " + std::to_string(before) + ")";
  if (last_step > *at)
    message += ": steps " + std::to_string(*at + 1) + "-" + std::to_string(last_step) +
               " are trained again; their rows written so far are superseded";
  host_.emit({last_step, state.epochs_completed, EventKind::RolledBack, message,
              static_cast<double>(*at), "step", ""});
  if (c.lr > 0 || (c.factor != 1 && c.factor > 0 && std::isfinite(c.factor))) {
    const double new_lr = c.lr > 0 ? c.lr : lr * c.factor;
    for (auto& g : state.optimizer->param_groups()) g.options().set_lr(new_lr);
    host_.emit({state.global_step, state.epochs_completed, EventKind::ConfigChanged,
                "learning rate " + formatNumber(lr) + " -> " + formatNumber(new_lr) + after,
                new_lr, "optimizer.lr", ""});
  }
  if (c.enable_clipping && !clip.enabled) {
    clip.enabled = true;
    host_.emit({state.global_step, state.epochs_completed, EventKind::ConfigChanged,
                "gradient clipping on, max_norm " + formatNumber(clip.max_norm) + after,
                clip.max_norm, "training.clip.max_norm", ""});
  }
}

void Trainer::setClipping(bool enabled, double max_norm) {
  if (!(max_norm > 0) || !std::isfinite(max_norm))
    throw Error(
        ErrorCode::Config, "training.clip.max_norm",
        "training.clip.max_norm must be a finite number > 0, got " + formatNumber(max_norm));
  impl_->control.post(command::SetClip{enabled, max_norm});
}

void Trainer::rollBack(int64_t before_step, double lr_factor, bool enable_clipping) {
  if (!(lr_factor > 0) || !std::isfinite(lr_factor))
    throw Error(
        ErrorCode::Config, "optimizer.lr",
        "the learning-rate factor must be a finite number > 0, got " + formatNumber(lr_factor));
  command::RollBack c;
  c.before_step = before_step;
  c.factor = lr_factor;
  c.enable_clipping = enable_clipping;
  impl_->control.post(c);
  impl_->control.post(command::Resume{});
}

void Trainer::setNonFinitePolicy(const std::string& policy) {
  if (policy != "pause" && policy != "stop" && policy != "skip")
    throw Error(ErrorCode::Config, "training.non_finite",
                "training.non_finite must be pause, stop or skip, got '" + policy + "'");
  impl_->control.post(command::SetNonFinitePolicy{policy});
}

}  // namespace trainscope

// The gradient watch inside the Trainer: per-layer statistics and layers.csv, clip
// statistics and warnings, non-finite forensics, finite divergence, the loss doctor, in-memory
// snapshots and the live commands that use them (SetClip, RollBack). trainer_loop.cpp calls
// these at a few points of the epoch loop.
#include "core/train/loop/trainer_watch.h"

#include <cmath>
#include <utility>

#include "core/data/chance.h"
#include "core/errors.h"
#include "core/system/number_format.h"
#include "core/optim/optimizer_factory.h"
#include "core/run/layers_csv.h"
#include "core/train/loop/trainer_impl.h"

namespace trainscope {

namespace {

std::vector<std::string> parameterNames(const TrainState& state) {
  std::vector<std::string> names;
  for (const auto& item : state.model->named_parameters()) names.push_back(item.first);
  return names;
}

}  // namespace

GradientWatch::GradientWatch(const TrainConfig& config, const TrainState& state,
                             const ChanceLevels& chance_levels)
    : names(parameterNames(state)),
      layers(state.params),
      every(config.training.layer_stats_every),
      divergence(chance_levels.classification ? chance_levels.n_classes : 0,
                 chance_levels.known ? chance_levels.accuracy : 0),
      chance(chance_levels),
      snapshots(config.training.snapshot_every, 3) {}

void GradientWatch::startStep(int64_t step) {
  due = every > 0 && step % every == 0;
  measured = false;
}

void GradientWatch::afterMeasure(const TrainState& state, const StepResult& r) {
  if (!due && r.applied) return;
  grad_norms = layers.gradNorms(*state.grads);
  update_ratios.assign(grad_norms.size(), std::nan(""));
  measured = true;
}

void GradientWatch::beforeUpdate(const TrainState& state) {
  if (due) layers.rememberWeights(state.params);
}

void GradientWatch::afterUpdate(const TrainState& state) {
  if (due) update_ratios = layers.updateRatios(state.params);
}

std::optional<LayerStatsRecord> GradientWatch::takeRecord(int64_t step, int64_t epoch) {
  // Statistics steps, and a step that was not applied (non-finite loss or gradient): learners
  // see which layer blew up even before the first statistics step.
  if (!measured || every <= 0) return std::nullopt;
  LayerStatsRecord r;
  r.step = step;
  r.epoch = epoch;
  r.names = names;
  r.grad_norm = grad_norms;
  r.update_ratio = update_ratios;
  return r;
}

NonFiniteEvidence GradientWatch::evidence(const StepResult& s, int64_t step, int64_t epoch) const {
  NonFiniteEvidence ev;
  ev.step = step;
  ev.epoch = epoch;
  ev.loss = s.loss;
  ev.grad_norm = s.grad_norm;
  ev.lr = s.lr;
  for (size_t i = 0; i < grad_norms.size() && i < names.size(); ++i)
    if (!std::isfinite(grad_norms[i])) ev.layers.emplace_back(names[i], grad_norms[i]);
  ev.layers_non_finite = !ev.layers.empty();
  if (ev.layers.empty() && !grad_norms.empty()) {
    size_t big = 0;
    for (size_t i = 1; i < grad_norms.size(); ++i)
      if (grad_norms[i] > grad_norms[big]) big = i;
    ev.layers.emplace_back(names[big], grad_norms[big]);
  }
  if (ev.layers.size() > 3) ev.layers.resize(3);
  return ev;
}

// ---- Trainer::Impl ----

CauseSettings Trainer::Impl::causeSettings(double lr) const {
  CauseSettings c;
  c.optimizer = config.optimizer.name;
  c.lr = lr;
  c.clip_enabled = config.training.clip.enabled;
  c.max_norm = config.training.clip.max_norm;
  c.standardize = config.data.standardize;
  c.target_scale = config.data.target_scale;
  c.classification = data.classification;
  return c;
}

DoctorContext Trainer::Impl::doctorContext() const {
  DoctorContext c;
  c.clip_enabled = config.training.clip.enabled;
  c.clip_share_recent = watch->clip_stats.shareRecent();
  c.clip_steps_recent = watch->clip_stats.recentSteps();
  c.chance = watch->chance;
  c.overfit_patience = config.training.early_stopping.patience;
  c.optimizer = config.optimizer.name;
  c.momentum = config.optimizer.momentum;
  return c;
}

CheckpointContext Trainer::Impl::checkpointContext() const {
  CheckpointContext c{configToJson(config).dump(), config.optimizer.name,
                      options.run_dir.empty()
                          ? std::string()
                          : std::filesystem::absolute(options.run_dir).lexically_normal().string(),
                      data.summary};
  if (watch) c.doctor_grads = &watch->doctor.grads();
  return c;
}

void Trainer::Impl::restartDoctor() {
  // The initial loss from the state (a checkpoint or snapshot), else the history's first
  // epoch (a checkpoint written before the key existed); then the epochs so far.
  LossDoctor& doctor = watch->doctor;
  doctor.restart(state.global_step, state.initial_losses,
                 /*from_history=*/state.initial_losses.empty() && !state.history.empty(),
                 state.doctor_grads ? &*state.doctor_grads : nullptr);
  state.doctor_grads.reset();  // read: the doctor keeps them from here
  for (const EpochRecord& r : state.history) doctor.onEpoch(r);
}

void Trainer::Impl::startWatch() {
  watch = std::make_unique<GradientWatch>(config, state, chanceLevels(data));
  if (files && watch->every > 0) {
    // A resumed run starts with the source run's rows up to the checkpoint, as steps.csv does.
    const RunPrefix& p = resume_prefix;
    const bool same = p.layers_header == layersCsvHeader(watch->names);
    files->openLayers(watch->names, same ? p.layer_rows : std::vector<std::string>{});
  }
  restartDoctor();
  for (const EpochRecord& r : state.history)  // a resumed run: the epochs so far
    watch->divergence.onEpoch(r, causeSettings(r.lr), non_finite_policy);
  // A resumed run's reading from its epochs so far, at once: the Diagnosis tab said "too early
  // to tell" after loading a 100-epoch checkpoint until the next epoch ended (issue 43 item 22).
  if (!state.history.empty()) {
    const Diagnosis d = watch->doctor.diagnose(doctorContext());
    for (auto* o : observers) o->onDiagnosis(d);
  }
  watch->snapshots.capture(state, checkpointContext());
}

void Trainer::Impl::applyPolicy(const Event& e, bool diverged) {
  emit(e);
  if (non_finite_policy == "stop") {
    (diverged ? watch->stop_diverged : stop_on_non_finite) = true;
  } else if (non_finite_policy == "pause") {
    control.pauseFromEngine();
  }
}

void Trainer::Impl::watchStep(const StepResult& s, int64_t epoch) {
  GradientWatch& w = *watch;
  const int64_t step = state.global_step;
  if (auto r = w.takeRecord(step, epoch)) {
    w.doctor.onUpdateRatios(r->update_ratio);
    report(*r);
  }
  const ClipConfig& clip = config.training.clip;
  if (auto warn = w.clip_stats.onStep(step, s.grad_norm, clip.enabled, clip.max_norm))
    emit({step, epoch, EventKind::ClipWarning, warn->message, warn->value, warn->what, ""});
  w.doctor.onStep(s.loss, s.applied, s.grad_norm);
  if (state.initial_losses.size() < w.doctor.initialLosses().size())  // the checkpoints keep it
    state.initial_losses = w.doctor.initialLosses();
  if (!s.applied) {
    ++w.skipped_steps;
    applyPolicy(
        nonFiniteForensicsEvent(w.evidence(s, step, epoch), causeSettings(s.lr), non_finite_policy),
        /*diverged=*/false);
    reportDiagnosis(epoch);
  } else if (std::isfinite(s.loss) && w.snapshots.due(step)) {
    w.snapshots.capture(state, checkpointContext());
  }
}

void Trainer::Impl::watchEpoch(const EpochRecord& r) {
  GradientWatch& w = *watch;
  w.doctor.onEpoch(r);
  if (auto e = w.divergence.onEpoch(r, causeSettings(r.lr), non_finite_policy)) {
    w.doctor.onDiverged();
    applyPolicy(*e, /*diverged=*/true);
  }
  reportDiagnosis(r.epoch);
}

void Trainer::Impl::reportDiagnosis(int64_t epoch) {
  // Every epoch for the first 1,000, then spaced by a thousandth of the run (readingDue): the
  // run's end reads afresh (the summary's diagnosis).
  if (!watch->doctor.readingDue()) return;
  Diagnosis d = watch->doctor.diagnose(doctorContext());
  GradientWatch& w = *watch;
  // Observers get every reading, so that the Diagnosis tab shows the newest epoch's.
  for (auto* o : observers) o->onDiagnosis(d);
  // events.jsonl: a change of kind, when it holds at two readings in a row (noisy validation
  // losses would flip overfitting/healthy every epoch); "diverging" at once. Not an event to
  // observers: it would split the runs of repeated events that front ends fold into one line.
  const std::string previous = std::exchange(w.pending_kind, d.kind);
  if (d.kind == w.last_kind || (d.kind != "diverging" && d.kind != previous)) return;
  w.last_kind = d.kind;
  if (d.kind != "too_early")
    record({state.global_step, epoch, EventKind::Diagnosis,
            "diagnosis: " + d.kind + ": " + d.summary, std::nullopt, d.kind, ""});
}

void Trainer::Impl::applyEngineCommand(const Command& command, int64_t epoch) {
  ClipConfig& clip = config.training.clip;
  const std::string from = " from step " + std::to_string(state.global_step + 1);
  auto clipChanged = [&] {
    emit({state.global_step, epoch, EventKind::ConfigChanged,
          clip.enabled ? "gradient clipping on, max_norm " + formatNumber(clip.max_norm) + from
                       : "gradient clipping off" + from,
          clip.max_norm, clip.enabled ? "training.clip.max_norm" : "training.clip.enabled", ""});
  };
  if (const auto* set = std::get_if<command::SetClip>(&command)) {
    clip.enabled = set->enabled;
    if (set->max_norm > 0 && std::isfinite(set->max_norm)) clip.max_norm = set->max_norm;
    clipChanged();
    return;
  }
  if (const auto* set = std::get_if<command::SetNonFinitePolicy>(&command)) {
    if (set->policy == non_finite_policy) return;
    non_finite_policy = set->policy;
    config.training.non_finite = set->policy;
    emit({state.global_step, epoch, EventKind::ConfigChanged,
          "non-finite policy " + set->policy + from, std::nullopt, "training.non_finite", ""});
    return;
  }
  const auto* roll = std::get_if<command::RollBack>(&command);
  if (!roll) return;
  const command::RollBack& c = *roll;
  const int64_t before = c.before_step;
  const double lr = currentLr(*state.optimizer);
  const int64_t last_step = state.global_step;  // the newest step written before the roll-back
  std::optional<int64_t> at;
  try {
    at = watch->snapshots.restoreBefore(state, before, config.optimizer.name);
  } catch (const std::exception& ex) {
    emit({state.global_step, epoch, EventKind::RolledBack,
          std::string("rollback failed, nothing restored: ") + ex.what(), std::nullopt, "failed",
          ""});
    return;
  }
  if (!at) {
    emit({state.global_step, epoch, EventKind::RolledBack,
          "no snapshot before step " + std::to_string(before) + ": nothing restored", std::nullopt,
          "failed", ""});
    return;
  }
  watch->rolled_back = true;
  restartDoctor();  // the evidence starts afresh from the snapshot's state
  watch->pending_kind.clear();
  const std::string after = " from step " + std::to_string(state.global_step + 1);
  // At the step it happened (the newest before it); the steps after the snapshot are trained
  // again, and their rows written so far are superseded (events.jsonl "superseded_steps").
  std::string message = "rolled back to the snapshot at step " + std::to_string(*at) +
                        " (before step " + std::to_string(before) + ")";
  if (last_step > *at)
    message += ": steps " + std::to_string(*at + 1) + "-" + std::to_string(last_step) +
               " are trained again; their rows written so far are superseded";
  emit({last_step, state.epochs_completed, EventKind::RolledBack, message, static_cast<double>(*at),
        "step", ""});
  if (c.lr > 0 || (c.factor != 1 && c.factor > 0 && std::isfinite(c.factor))) {
    const double new_lr = c.lr > 0 ? c.lr : lr * c.factor;
    for (auto& g : state.optimizer->param_groups()) g.options().set_lr(new_lr);
    emit({state.global_step, state.epochs_completed, EventKind::ConfigChanged,
          "learning rate " + formatNumber(lr) + " -> " + formatNumber(new_lr) + after, new_lr,
          "optimizer.lr", ""});
  }
  if (c.enable_clipping && !clip.enabled) {
    clip.enabled = true;
    emit({state.global_step, state.epochs_completed, EventKind::ConfigChanged,
          "gradient clipping on, max_norm " + formatNumber(clip.max_norm) + after, clip.max_norm,
          "training.clip.max_norm", ""});
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

#include "core/train/monitors/non_finite.h"

#include <cmath>

#include "core/config/kinds.h"
#include "core/system/number_format.h"

namespace trainscope {
namespace {

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::string join(const std::vector<Finding>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p.text;
  return out;
}

std::string policyText(const std::string& policy) {
  if (policy == "skip") return "policy skip: the update was skipped and the run goes on";
  if (policy == "pause") return "policy pause: the run is paused";
  return "policy " + policy;
}

}  // namespace

std::vector<Finding> likelyCauses(const CauseSettings& s, bool gradient_non_finite) {
  std::vector<Finding> causes;
  const OptimizerKind* kind = findOptimizerKind(s.optimizer);
  const bool adam = kind && kind->adaptive;
  const bool high_lr = adam ? s.lr > 1e-2 : s.lr > 0.1;
  if (high_lr)
    causes.push_back({"lr_high",
                      {s.lr},
                      s.optimizer,
                      "the learning rate " + formatHuman(s.lr) + " is high for " + s.optimizer +
                          ": try 10x lower"});
  else
    causes.push_back({"lr_perhaps_high",
                      {s.lr},
                      "",
                      "the learning rate " + formatHuman(s.lr) +
                          " is perhaps too high for this model: try 10x lower"});
  if (!s.clip_enabled) {
    causes.push_back({"clip_off",
                      {},
                      "",
                      "gradient clipping is off: training.clip.enabled=true bounds each update"});
  } else if (gradient_non_finite) {
    causes.push_back({"clip_cannot_fix",
                      {s.max_norm},
                      "",
                      "clipping is on (max_norm " + formatHuman(s.max_norm) +
                          ") but cannot rescale an inf or nan gradient: the weights were already "
                          "bad; roll back to an earlier snapshot"});
  } else {
    causes.push_back({"clip_drift",
                      {s.max_norm},
                      "",
                      "clipping is on (max_norm " + formatHuman(s.max_norm) +
                          "), so the weights drifted over many steps: lower the learning rate or "
                          "max_norm"});
  }
  if (s.target_scale != 1 && !s.classification)
    causes.push_back({"targets_scaled",
                      {s.target_scale},
                      "",
                      "the targets are scaled by " + formatHuman(s.target_scale) +
                          " (data.target_scale): large targets give large losses and gradients"});
  if (!s.standardize)
    causes.push_back(
        {"inputs_raw", {}, "", "the inputs are not standardised (data.standardize=false)"});
  return causes;
}

Event nonFiniteForensicsEvent(const NonFiniteEvidence& ev, const CauseSettings& settings,
                              const std::string& policy) {
  Event e;
  e.step = ev.step;
  e.epoch = ev.epoch;
  e.kind = EventKind::NonFinite;
  const bool loss_bad = !std::isfinite(ev.loss);
  e.what = loss_bad ? "loss" : "grad_norm";
  e.value = loss_bad ? ev.loss : ev.grad_norm;
  std::vector<std::string> layers;
  for (const auto& [name, norm] : ev.layers)
    layers.push_back(name + " (" + formatHuman(norm) + ")");
  std::vector<Finding> causes = likelyCauses(settings, !std::isfinite(ev.grad_norm));
  e.message = "non-finite " + e.what + " at step " + std::to_string(ev.step) + ", epoch " +
              std::to_string(ev.epoch) + ": loss " + formatHuman(ev.loss) + ", gradient norm " +
              formatHuman(ev.grad_norm) + ", learning rate " + formatHuman(ev.lr) + "; " +
              (ev.layers_non_finite ? "first non-finite gradient in " : "largest gradient in ") +
              join(layers, ", ") + ". The optimizer step was skipped (parameters unchanged). " +
              "Likely causes: " + join(causes, "; ") + ". " + policyText(policy);
  EventEvidence& x = e.evidence.emplace();
  x.loss = ev.loss;
  x.grad_norm = ev.grad_norm;
  x.lr = ev.lr;
  x.layers = ev.layers;
  x.layers_non_finite = ev.layers_non_finite;
  x.clip_enabled = settings.clip_enabled;
  x.max_norm = settings.max_norm;
  x.causes = std::move(causes);
  return e;
}

std::optional<Event> DivergenceMonitor::onEpoch(const EpochRecord& r, const CauseSettings& s,
                                                const std::string& policy) {
  if (!first_loss_) {
    if (std::isfinite(r.train_loss)) first_loss_ = r.train_loss;
    return std::nullopt;
  }
  std::optional<Event> out;
  auto make = [&](const std::string& what, double value, const std::string& text) {
    Event e;
    e.step = r.step;
    e.epoch = r.epoch;
    e.kind = EventKind::Diverged;
    e.what = what;
    e.value = value;
    const std::vector<Finding> causes = likelyCauses(s, false);
    e.message = "the run diverged at epoch " + std::to_string(r.epoch) + ": " + text +
                ". Likely causes: " + join(causes, "; ") + ". " + policyText(policy);
    EventEvidence& x = e.evidence.emplace();
    x.loss = r.train_loss;
    x.grad_norm = std::nan("");
    x.lr = s.lr;
    x.clip_enabled = s.clip_enabled;
    x.max_norm = s.max_norm;
    x.causes = causes;
    return e;
  };
  // A non-finite epoch loss (policy skip) keeps the criterion held without a report of its own:
  // the step check reported it. So a rollback to a still-huge state is not reported again.
  const bool huge = *first_loss_ > 0 &&
                    (!std::isfinite(r.train_loss) || r.train_loss > kLossFactor * *first_loss_);
  if (huge && !loss_flagged_ && std::isfinite(r.train_loss))
    out = make("train_loss", r.train_loss,
               "training loss " + formatHuman(r.train_loss) +
                   " is over 1e4 times the first epoch's (" + formatHuman(*first_loss_) + ")");
  loss_flagged_ = huge;

  if (n_classes_ > 0 && r.val_accuracy && r.epoch >= kFirstChanceEpoch) {
    const double chance =
        chance_accuracy_ > 0 ? chance_accuracy_ : 1.0 / static_cast<double>(n_classes_);
    const double chance_loss = std::log(static_cast<double>(n_classes_));
    if (std::abs(*r.val_accuracy - chance) <= kChanceMargin + 1e-12) {
      if (chance_streak_++ == 0) {
        streak_first_loss_ = r.train_loss;
        chance_flagged_ = false;
      }
      // Not learning is not diverging: the loss must be worse than a constant prediction's and
      // not falling.
      const bool worse =
          r.train_loss > kChanceLossFactor * chance_loss && !(r.train_loss < streak_first_loss_);
      if (chance_streak_ >= kChanceEpochs && !chance_flagged_ && worse && !out) {
        chance_flagged_ = true;
        out = make("val_accuracy", *r.val_accuracy,
                   "validation accuracy " + formatHuman(*r.val_accuracy) +
                       " has been within 2 points of chance (" + formatHuman(chance) + ") for " +
                       std::to_string(chance_streak_) + " epochs while the training loss " +
                       formatHuman(r.train_loss) + " is over " + formatHuman(kChanceLossFactor) +
                       "x ln " + std::to_string(n_classes_) + " (" + formatHuman(chance_loss) +
                       ", a constant prediction's) and not falling");
      }
    } else {
      chance_streak_ = 0;
    }
  }
  return out;
}

}  // namespace trainscope

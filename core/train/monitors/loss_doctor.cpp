#include "core/train/monitors/loss_doctor.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/io/number_format.h"

namespace trainscope {

void LossDoctor::onStep(double loss, bool applied) {
  ++steps_;
  if (!std::isfinite(loss) || !applied) {
    if (non_finite_steps_++ == 0) {
      first_non_finite_step_ = steps_;
      first_non_finite_loss_ = loss;
    }
    return;
  }
  if (static_cast<int>(first_losses_.size()) < kInitialSteps) first_losses_.push_back(loss);
}

void LossDoctor::onEpoch(const EpochRecord& r) { epochs_.push_back(r); }

namespace {

Finding check(const char* code, const char* text) { return {code, {}, "", text}; }

}  // namespace

Diagnosis LossDoctor::diagnose(const DoctorContext& context) const {
  Diagnosis d;
  d.epoch = epochs_.empty() ? 0 : epochs_.back().epoch;
  const auto n = static_cast<int64_t>(epochs_.size());
  const auto n_initial = static_cast<double>(first_losses_.size());
  const double initial =
      first_losses_.empty()
          ? std::nan("")
          : std::accumulate(first_losses_.begin(), first_losses_.end(), 0.0) / n_initial;
  const std::string init_text = "initial loss " + formatHuman(initial) + " (mean of the first " +
                                std::to_string(first_losses_.size()) + " steps)";
  const Finding init_finding{"initial_loss", {initial, n_initial}, "", init_text};
  double max_train = -INFINITY, min_train = INFINITY;
  for (const auto& e : epochs_) {
    if (std::isfinite(e.train_loss)) {
      max_train = std::max(max_train, e.train_loss);
      min_train = std::min(min_train, e.train_loss);
    }
  }
  const bool huge = std::isfinite(initial) && n > 0 && max_train > kDivergeFactor * initial;

  if (non_finite_steps_ > 0 || diverged_ || huge) {
    d.kind = "diverging";
    d.summary = "the loss is diverging (exploding gradients)";
    if (non_finite_steps_ > 0)
      d.evidence.push_back({"non_finite_steps",
                            {static_cast<double>(non_finite_steps_),
                             static_cast<double>(first_non_finite_step_), first_non_finite_loss_},
                            "",
                            std::to_string(non_finite_steps_) +
                                " non-finite step(s), the first at step " +
                                std::to_string(first_non_finite_step_) + " (loss " +
                                formatHuman(first_non_finite_loss_) + ")"});
    if (huge)
      d.evidence.push_back({"loss_exploded",
                            {max_train, kDivergeFactor, initial, n_initial},
                            "",
                            "training loss reached " + formatHuman(max_train) + ", over " +
                                formatHuman(kDivergeFactor) + "x the " + init_text});
    if (diverged_)
      d.evidence.push_back({"divergence_detected", {}, "", "a finite divergence was detected"});
    d.checks = {check("lower_lr_10x", "lower the learning rate 10x"),
                context.clip_enabled
                    ? check("lower_max_norm", "lower max_norm (training.clip.max_norm)")
                    : check("clip_on", "turn on gradient clipping (training.clip.enabled)"),
                check("standardise_and_scale", "standardise the inputs and scale the targets"),
                check("check_init", "check the weight initialisation")};
    return d;
  }
  if (n < 3) {
    d.kind = "too_early";
    d.summary = "too early to tell: fewer than 3 epochs";
    if (std::isfinite(initial)) d.evidence.push_back(init_finding);
    return d;
  }
  const EpochRecord& last = epochs_.back();

  // Overfitting: validation minimum at least kOverfitEpochs ago, now 10% above it, training
  // loss still falling since then.
  int64_t best = -1;
  for (int64_t i = 0; i < n; ++i)
    if (std::isfinite(epochs_[i].val_loss) &&
        (best < 0 || epochs_[i].val_loss < epochs_[best].val_loss))
      best = i;
  // Means of the last kOverfitEpochs epochs: one noisy validation epoch does not flip it.
  double val_recent = 0, train_recent = 0;
  for (int64_t i = n - kOverfitEpochs; i < n; ++i) {
    val_recent += epochs_[i].val_loss / kOverfitEpochs;
    train_recent += epochs_[i].train_loss / kOverfitEpochs;
  }
  if (best >= 0 && n - 1 - best >= kOverfitEpochs &&
      val_recent > kOverfitRise * epochs_[best].val_loss &&
      train_recent < epochs_[best].train_loss) {
    const EpochRecord& b = epochs_[best];
    d.kind = "overfitting";
    d.summary = "training loss falls while validation loss rises";
    d.evidence = {
        {"val_rising",
         {last.val_loss, static_cast<double>(last.epoch), static_cast<double>(kOverfitEpochs),
          val_recent, b.val_loss, static_cast<double>(b.epoch)},
         "",
         "validation loss " + formatHuman(last.val_loss) + " at epoch " +
             std::to_string(last.epoch) + " (mean of the last " + std::to_string(kOverfitEpochs) +
             " epochs " + formatHuman(val_recent) + "), up from its minimum " +
             formatHuman(b.val_loss) + " at epoch " + std::to_string(b.epoch)},
        {"train_fell",
         {b.train_loss, last.train_loss},
         "",
         "training loss fell from " + formatHuman(b.train_loss) + " to " +
             formatHuman(last.train_loss) + " meanwhile"}};
    d.checks = {check("keep_best",
                      "keep the best epoch's checkpoint (checkpoints/best.pt) or stop earlier"),
                check("regularise", "add regularisation: weight decay or dropout"),
                check("more_data", "get more training data"),
                check("smaller_model", "use a smaller model")};
    return d;
  }
  if (std::isfinite(initial) && min_train >= kFlatFraction * initial) {
    d.kind = "flat";
    d.summary = "the loss is flat from the start: the model is not learning";
    const double percent = 100 * min_train / initial;
    d.evidence = {
        init_finding,
        {"best_train_loss",
         {min_train, percent, static_cast<double>(n)},
         "",
         "best epoch training loss " + formatHuman(min_train) + " (" + formatHuman(percent) +
             "% of initial) after " + std::to_string(n) + " epochs"}};
    d.checks.clear();
    if (context.clip_enabled && context.clip_steps_recent > 0 &&
        context.clip_share_recent > kClipBoundShare) {
      const double share = 100 * context.clip_share_recent;
      d.evidence.push_back({"clip_share",
                            {share, static_cast<double>(context.clip_steps_recent)},
                            "",
                            "clipping cut " + formatHuman(share) + "% of the last " +
                                std::to_string(context.clip_steps_recent) + " updates"});
      d.checks.push_back(
          check("clip_bound",
                "clipping cuts nearly every update, so each step moves the weights by at most "
                "lr x max_norm: raise max_norm, or bring the targets to a smaller scale"));
    }
    d.checks.insert(
        d.checks.end(),
        {check("raise_lr", "raise the learning rate (it may be too small)"),
         check("standardise_inputs", "standardise the inputs (data.standardize)"),
         check("check_labels", "check that labels are aligned with their inputs"),
         check("fit_tiny_subset", "check that the model can fit a tiny subset (data.limit)")});
    return d;
  }
  const int64_t third = std::max<int64_t>(3, n / 3);
  const int64_t from = std::max<int64_t>(0, n - 1 - third);
  const double then = epochs_[from].train_loss;
  const double change = (then - last.train_loss) / std::abs(then);
  const bool stalled = std::isfinite(change) && change < kStallChange;
  if (stalled && std::isfinite(initial) && last.train_loss >= kConvergedFraction * initial) {
    d.kind = "plateau";
    d.summary = "the loss fell, then stalled at a plateau";
    d.evidence = {
        init_finding,
        {"train_stalled",
         {then, static_cast<double>(epochs_[from].epoch), last.train_loss,
          static_cast<double>(last.epoch), 100 * change},
         "",
         "training loss " + formatHuman(then) + " at epoch " + std::to_string(epochs_[from].epoch) +
             ", " + formatHuman(last.train_loss) + " at epoch " + std::to_string(last.epoch) +
             " (" + formatHuman(100 * change) + "% better)"}};
    d.checks = {
        check("lr_schedule", "lower the learning rate (a scheduler) to settle into the minimum"),
        check("other_optimizer", "try another optimizer (Adam) or momentum"),
        check("more_capacity", "give the model more capacity (wider or more hidden layers)"),
        check("check_saturation", "check for a bottleneck: saturated activations (sigmoid/tanh)")};
    return d;
  }
  d.kind = "healthy";
  d.summary = "the training loss falls and validation follows";
  d.evidence = {
      init_finding,
      {"last_losses",
       {last.train_loss, static_cast<double>(last.epoch), last.val_loss},
       "",
       "training loss " + formatHuman(last.train_loss) + " at epoch " + std::to_string(last.epoch) +
           ", validation loss " + formatHuman(last.val_loss)}};
  d.checks = {check("nothing_urgent", "nothing urgent; watch validation loss for overfitting")};
  return d;
}

}  // namespace trainscope

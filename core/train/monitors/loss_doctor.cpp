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

Diagnosis LossDoctor::diagnose() const {
  Diagnosis d;
  d.epoch = epochs_.empty() ? 0 : epochs_.back().epoch;
  const auto n = static_cast<int64_t>(epochs_.size());
  const double initial =
      first_losses_.empty()
          ? std::nan("")
          : std::accumulate(first_losses_.begin(), first_losses_.end(), 0.0) / first_losses_.size();
  const std::string init_text = "initial loss " + formatNumber(initial) + " (mean of the first " +
                                std::to_string(first_losses_.size()) + " steps)";
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
      d.evidence.push_back(std::to_string(non_finite_steps_) + " non-finite step(s), the first " +
                           "at step " + std::to_string(first_non_finite_step_) + " (loss " +
                           formatNumber(first_non_finite_loss_) + ")");
    if (huge)
      d.evidence.push_back("training loss reached " + formatNumber(max_train) + ", over " +
                           formatNumber(kDivergeFactor) + "x the " + init_text);
    if (diverged_) d.evidence.push_back("a finite divergence was detected");
    d.checks = {"lower the learning rate 10x", "turn on gradient clipping (training.clip.enabled)",
                "standardise the inputs and scale the targets", "check the weight initialisation"};
    return d;
  }
  if (n < 3) {
    d.kind = "too_early";
    d.summary = "too early to tell: fewer than 3 epochs";
    if (std::isfinite(initial)) d.evidence.push_back(init_text);
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
    d.kind = "overfitting";
    d.summary = "overfitting: training loss falls while validation loss rises";
    d.evidence = {"validation loss " + formatNumber(last.val_loss) + " at epoch " +
                      std::to_string(last.epoch) + " (mean of the last " +
                      std::to_string(kOverfitEpochs) + " epochs " + formatNumber(val_recent) +
                      "), up from its minimum " + formatNumber(epochs_[best].val_loss) +
                      " at epoch " + std::to_string(epochs_[best].epoch),
                  "training loss fell from " + formatNumber(epochs_[best].train_loss) + " to " +
                      formatNumber(last.train_loss) + " meanwhile"};
    d.checks = {"keep the best epoch's checkpoint (checkpoints/best.pt) or stop earlier",
                "add regularisation: weight decay or dropout", "get more training data",
                "use a smaller model"};
    return d;
  }
  if (std::isfinite(initial) && min_train >= kFlatFraction * initial) {
    d.kind = "flat";
    d.summary = "the loss is flat from the start: the model is not learning";
    d.evidence = {init_text, "best epoch training loss " + formatNumber(min_train) + " (" +
                                 formatNumber(100 * min_train / initial) + "% of initial) after " +
                                 std::to_string(n) + " epochs"};
    d.checks = {"raise the learning rate (it may be too small)",
                "standardise the inputs (data.standardize)",
                "check that labels are aligned with their inputs",
                "check that the model can fit a tiny subset (data.limit)"};
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
    d.evidence = {init_text, "training loss " + formatNumber(then) + " at epoch " +
                                 std::to_string(epochs_[from].epoch) + ", " +
                                 formatNumber(last.train_loss) + " at epoch " +
                                 std::to_string(last.epoch) + " (" + formatNumber(100 * change) +
                                 "% better)"};
    d.checks = {"lower the learning rate (a scheduler) to settle into the minimum",
                "try another optimizer (Adam) or momentum",
                "give the model more capacity (wider or more hidden layers)",
                "check for a bottleneck: saturated activations (sigmoid/tanh)"};
    return d;
  }
  d.kind = "healthy";
  d.summary = "healthy: the training loss falls and validation follows";
  d.evidence = {init_text, "training loss " + formatNumber(last.train_loss) + " at epoch " +
                               std::to_string(last.epoch) + ", validation loss " +
                               formatNumber(last.val_loss)};
  d.checks = {"nothing urgent; watch validation loss for overfitting"};
  return d;
}

}  // namespace trainscope

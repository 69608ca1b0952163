// The loss doctor (core/train/monitors/loss_doctor.h): what it keeps of a run and the trend
// rules (gradient growth, overfitting, plateau); loss_doctor.cpp reads them into a diagnosis.
#include "core/train/monitors/loss_doctor.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/run/epoch_thinning.h"

#include "core/train/monitors/loss_doctor_rules.h"

namespace trainscope {

using namespace doctor_rules;

// ---- what the doctor keeps of the run (steps, epochs, update ratios) ----

void LossDoctor::onStep(double loss, bool applied, double grad_norm) {
  ++steps_;
  if (!std::isfinite(loss) || !applied) {
    if (non_finite_steps_++ == 0) {
      first_non_finite_step_ = steps_;
      first_non_finite_loss_ = loss;
    }
    return;
  }
  if (std::isfinite(grad_norm)) {
    DoctorGrads& g = grads_;
    if (g.first.size() < static_cast<size_t>(kInitialSteps)) g.first.push_back(grad_norm);
    if (g.seen++ % g.stride == 0) g.samples.push_back(static_cast<float>(grad_norm));
    if (g.samples.size() > kGradSamples) {  // keep every other: the stride doubles
      for (size_t i = 0; i < g.samples.size() / 2; ++i) g.samples[i] = g.samples[2 * i];
      g.samples.resize(g.samples.size() / 2);
      g.stride *= 2;
    }
  }
  if (!initial_from_history_ && static_cast<int>(first_losses_.size()) < kInitialSteps)
    first_losses_.push_back(loss);
}

void LossDoctor::onEpoch(const EpochRecord& r) {
  appendThinned(epochs_,
                Epoch{r.epoch, r.step, r.train_loss, r.val_loss, r.val_accuracy.value_or(std::nan(""))},
                [](const Epoch& e) { return e.epoch; });
}

size_t LossDoctor::latestEpoch() const {
  return epochs_.empty() ? 0 : static_cast<size_t>(epochs_.back().epoch);
}

bool LossDoctor::readingDue() const {
  const size_t n = latestEpoch();
  const bool due = n <= kEveryEpochReadings || non_finite_steps_ != read_at_non_finite_ ||
                   n < read_at_epochs_ || n >= read_at_epochs_ + n / kEveryEpochReadings;
  if (due) {
    read_at_epochs_ = n;
    read_at_non_finite_ = non_finite_steps_;
  }
  return due;
}

void LossDoctor::onUpdateRatios(const std::vector<double>& ratios) {
  std::vector<double> finite;
  for (double r : ratios)
    if (std::isfinite(r)) finite.push_back(r);
  if (finite.empty()) return;
  update_ratios_.push_back(medianOf(std::move(finite)));
  if (update_ratios_.size() > kUpdateSamples) update_ratios_.pop_front();
}

double LossDoctor::recentUpdateRatio() const {
  return medianOf(std::vector<double>(update_ratios_.begin(), update_ratios_.end()));
}

void LossDoctor::restart(int64_t step, const std::vector<double>& initial_losses,
                         bool from_history, const DoctorGrads* grads) {
  *this = LossDoctor();
  steps_ = step;
  if (grads) grads_ = *grads;
  first_losses_ = initial_losses;
  if (static_cast<int>(first_losses_.size()) > kInitialSteps) first_losses_.resize(kInitialSteps);
  initial_from_history_ = from_history && first_losses_.empty();
}

// ---- the trends its rules read: gradient growth, overfitting, plateau ----

const std::optional<OverfittingOnset>& LossDoctor::overfitOnset(int64_t patience) const {
  OverfitReading& r = overfit_;
  // Past kEpochCapacity epochs the detector reads the epochs the thinning keeps for good (not
  // the latest while it is off the stride), afresh whenever the thinning dropped fed epochs, so
  // a doctor restarted from a checkpoint's thinned history reads exactly as this one.
  size_t kept = epochs_.size();
  if (kept > 0 && !epochKept(epochs_.back().epoch, epochs_.back().epoch + 1)) --kept;
  if (r.patience != patience || r.fed > kept ||
      (r.fed > 0 && epochs_[r.fed - 1].epoch != r.fed_epoch)) {
    r = OverfitReading{};
    r.patience = patience;
    r.detector = OverfittingDetector(patience);
  }
  for (; r.fed < kept; ++r.fed) {
    const Epoch& e = epochs_[r.fed];
    r.fed_epoch = e.epoch;
    auto o = r.detector.update(e.epoch, e.train_loss, e.val_loss);
    // The reading holds until the mean validation loss comes back below its lowest mean (a
    // single lucky epoch below the best one does not end it: hysteresis).
    const std::optional<double> best_mean = r.detector.bestMean();
    if (best_mean && (!r.best_val || *best_mean < *r.best_val)) {
      r.best_val = best_mean;
      r.onset.reset();
    }
    if (o) r.onset = o;
  }
  return r.onset;
}

std::optional<LossDoctor::GradGrowth> LossDoctor::gradGrowth(bool held) const {
  const std::vector<float>& samples = grads_.samples;
  if (grads_.seen < kGrowthMinSteps || grads_.first.size() < static_cast<size_t>(kInitialSteps))
    return std::nullopt;
  GradGrowth g;
  g.first = medianOf(grads_.first);
  g.steps = grads_.seen;
  const size_t n = samples.size();
  for (size_t q = 0; q < 4; ++q)
    g.quarters[q] = medianOf(std::vector<float>(samples.begin() + static_cast<long>(q * n / 4),
                                                samples.begin() + static_cast<long>((q + 1) * n / 4)));
  // Rising over the run (each half above the one before it, quarter by quarter: q3 > q1 and
  // q4 > q2; the accumulated sum wanders as Adam chases it), never by a jump (an explosion).
  // Held: the gradients stay grown (the last quarter over kGrowthFactor x the first steps).
  for (size_t q = 1; q < 4 && !held; ++q)
    if (g.quarters[q] > kGrowthJump * g.quarters[q - 1]) return std::nullopt;
  if (!held && (!(g.quarters[2] > g.quarters[0]) || !(g.quarters[3] > g.quarters[1])))
    return std::nullopt;
  if (!(g.first > 0) || !(g.quarters[3] >= kGrowthFactor * g.first)) return std::nullopt;
  return g;
}

bool LossDoctor::readOverfitting(const DoctorContext& context, Diagnosis& d) const {
  const auto n = static_cast<int64_t>(epochs_.size());
  const Epoch& last = epochs_.back();
  // Overfitting: the onset detector's rule (the run's overfitting event): a sustained rise of
  // the mean validation loss since the best epoch while training loss still falls.
  double val_mean = 0, train_mean = 0;
  for (int64_t i = n - kOverfitEpochs; i < n; ++i) {
    val_mean += epochs_[i].val_loss / kOverfitEpochs;
    train_mean += epochs_[i].train_loss / kOverfitEpochs;
  }
  const auto& onset = overfitOnset(context.overfit_patience);
  const auto onset_index = [&] {
    for (int64_t i = 0; onset && i < n; ++i)
      if (epochs_[i].epoch == onset->onset_epoch) return i;
    return int64_t{-1};
  }();
  if (onset_index >= 0) {
    const Epoch& b = epochs_[onset_index];
    d.kind = "overfitting";
    d.summary = "training loss falls while validation loss rises";
    d.evidence = {
        {"val_rising",
         {last.val_loss, static_cast<double>(last.epoch), static_cast<double>(kOverfitEpochs),
          val_mean, b.val_loss, static_cast<double>(b.epoch), onset->best_val_mean},
         "",
         "validation loss " + formatHuman(last.val_loss) + " at epoch " +
             std::to_string(last.epoch) + " (mean of the last " + std::to_string(kOverfitEpochs) +
             " epochs " + formatHuman(val_mean) + "), up from its lowest such mean " +
             formatHuman(onset->best_val_mean) + " (best epoch " + std::to_string(b.epoch) +
             ", " + formatHuman(b.val_loss) + ")"},
        {"train_fell",
         {b.train_loss, last.train_loss},
         "",
         "training loss fell from " + formatHuman(b.train_loss) + " to " +
             formatHuman(last.train_loss) + " meanwhile"}};
    d.checks = {check("keep_best",
                      "keep the best epoch's checkpoint (checkpoints/best.pt) or stop earlier"),
                context.weight_decay > 0 || context.dropout > 0
                    ? Finding{"regularise_more",
                              {context.weight_decay, context.dropout},
                              "",
                              "regularise more: raise the weight decay (now " +
                                  formatHuman(context.weight_decay) + ") or the dropout (now " +
                                  formatHuman(context.dropout) + ")"}
                    : check("regularise", "add regularisation: weight decay or dropout"),
                check("more_data", "get more training data"),
                check("smaller_model", "use a smaller model")};
    return true;
  }
  return false;
}

bool LossDoctor::readPlateau(const DoctorContext& context, double initial,
                             const Finding& init_finding, Diagnosis& d, bool held) const {
  const auto n = static_cast<int64_t>(epochs_.size());
  const size_t un = epochs_.size();
  const Epoch& last = epochs_.back();
  const ChanceLevels& chance = context.chance;
  // Plateau: the block mean of the last third of the epochs against the third before it.
  const auto bw = static_cast<size_t>(std::max<int64_t>(kPlateauBlock, n / 3));
  if (un >= 3 * bw) {  // the first third is the initial fall
    const size_t a = un - 2 * bw, b = un - bw;
    const double then = meanOf(epochs_, a, b, trainLoss), now = meanOf(epochs_, b, un, trainLoss);
    const double se = std::sqrt(2.0 / static_cast<double>(bw)) * noiseOf(epochs_, a, un, trainLoss);
    const double val_then = meanOf(epochs_, a, b, valLoss), val_now = meanOf(epochs_, b, un, valLoss);
    const double val_se =
        std::sqrt(2.0 / static_cast<double>(bw)) * noiseOf(epochs_, a, un, valLoss);
    // Held (the previous reading was "plateau"), only three times the improvement ends it: the
    // thirds move with the run, and a stall read at one epoch and not at the next flapped
    // (healthy, plateau, healthy, plateau on a 4-class table at lr 0.1).
    const double factor = held ? 3 : 1;
    const auto improved = [factor](double before, double after, double se_) {
      return before - after >= factor * std::max(kStallChange * std::abs(before),
                                                  std::isfinite(se_) ? kStallSigmas * se_ : 0.0);
    };
    const double level = chance.known ? chance.loss : initial;
    const bool stalled = std::isfinite(then) && std::isfinite(now) && !improved(then, now, se);
    const bool val_stalled = !(std::isfinite(val_then) && std::isfinite(val_now)) ||
                             !improved(val_then, val_now, val_se);
    if (stalled && val_stalled && std::isfinite(level) && now >= kPlateauShare * level) {
      const double change = 100 * (then - now) / std::abs(then);
      d.kind = "plateau";
      d.summary = "the loss fell, then stalled at a plateau";
      d.evidence = {
          init_finding,
          {"train_stalled",
           {then, static_cast<double>(epochs_[b - 1].epoch), now,
            static_cast<double>(last.epoch), change, static_cast<double>(bw)},
           "",
           "mean training loss " + formatHuman(then) + " over the " + std::to_string(bw) +
               " epochs to epoch " + std::to_string(epochs_[b - 1].epoch) + ", " +
               formatHuman(now) + " over the " + std::to_string(bw) + " epochs to epoch " +
               std::to_string(last.epoch) + " (" + signedChange(change) + ")"}};
      d.checks = {
          check("lr_schedule", "lower the learning rate (a scheduler) to settle into the minimum")};
      if (context.optimizer == "sgd" && context.momentum == 0)
        d.checks.push_back(check("try_momentum", "try momentum (optimizer.momentum 0.9) or Adam"));
      else if (context.optimizer == "sgd")
        d.checks.push_back(check("try_adam", "try the Adam optimizer"));
      d.checks.push_back(
          check("more_capacity", "give the model more capacity (wider or more hidden layers)"));
      d.checks.push_back(check("check_saturation",
                               "check for a bottleneck: saturated activations (sigmoid/tanh)"));
      return true;
    }
  }
  return false;
}

}  // namespace trainscope

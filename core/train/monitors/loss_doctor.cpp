#include "core/train/monitors/loss_doctor.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/system/number_format.h"
#include "core/run/epoch_thinning.h"
#include "core/train/monitors/loss_doctor_rules.h"
#include "core/system/noise.h"

namespace trainscope {

using namespace doctor_rules;

namespace {

/// "ln 2" or "the variance of the targets": what the chance loss is.
std::string chanceLossName(const ChanceLevels& c) {
  return c.classification ? "ln " + std::to_string(c.n_classes) +
                                ", the cross-entropy of a constant uniform prediction"
                          : "the variance of the targets, the MSE of predicting their mean";
}

}  // namespace

Diagnosis LossDoctor::diagnose(const DoctorContext& context) const {
  // The reading of the previous epoch (several readings within one epoch see the same one).
  if (held_.epochs != latestEpoch()) {
    held_.prior = held_.last;
    held_.epochs = latestEpoch();
  }
  Diagnosis d = read(context, held_.prior);
  held_.last = d.kind;
  return d;
}

Diagnosis LossDoctor::read(const DoctorContext& context, const std::string& held) const {
  Diagnosis d;
  d.epoch = epochs_.empty() ? 0 : epochs_.back().epoch;
  const auto n = static_cast<int64_t>(epochs_.size());
  const auto n_initial = static_cast<double>(first_losses_.size());
  const bool from_history = initial_from_history_ && !epochs_.empty();
  const double initial =
      from_history ? epochs_.front().train_loss
      : first_losses_.empty()
          ? std::nan("")
          : std::accumulate(first_losses_.begin(), first_losses_.end(), 0.0) / n_initial;
  const std::string init_text =
      from_history ? "initial loss " + formatHuman(initial) +
                         " (the first epoch's training loss: the checkpoint has no initial loss)"
                   : "initial loss " + formatHuman(initial) + " (mean of the first " +
                         std::to_string(first_losses_.size()) + " steps)";
  const Finding init_finding = from_history
                                   ? Finding{"initial_loss_from_epoch", {initial}, "", init_text}
                                   : Finding{"initial_loss", {initial, n_initial}, "", init_text};
  const ChanceLevels& chance = context.chance;
  const auto k = static_cast<size_t>(std::min<int64_t>(kRecentEpochs, n));
  const size_t un = epochs_.size();
  const double train_recent = meanOf(epochs_, un - k, un, trainLoss);
  const double train_early = meanOf(epochs_, 0, k, trainLoss);
  // Falling at every one of the last epochs (at least 2, 10% in all): a learner that is slow,
  // e.g. towards large regression targets that were not scaled, is not overshooting.
  bool falling_every_epoch = n >= 2;
  const size_t w = std::min<size_t>(static_cast<size_t>(kRecentEpochs), un - 1);
  for (size_t i = un - w; falling_every_epoch && i < un; ++i)
    falling_every_epoch = epochs_[i].train_loss < epochs_[i - 1].train_loss;
  falling_every_epoch = falling_every_epoch &&
                        epochs_.back().train_loss < 0.9 * epochs_[un - 1 - w].train_loss;
  // How far the weights move: a learning rate too small to move them keeps every loss where it
  // started, chance included, and is "flat" (raise the learning rate), not "no signal".
  const double update = recentUpdateRatio();
  const bool update_known = std::isfinite(update);
  const bool weights_still = update_known && update < kTinyUpdate;
  // Falling at each of the last `w` epochs (at least 2), 0.1% in all, with weights that move: a
  // slow start (an unscaled regression target, a small rate), neither a flat loss, nor
  // gradients that accumulate, nor a rate too high. At a rate too small to move the weights the
  // epochs' means differ by rounding and the order of the batches; with large updates (over
  // kLargeUpdate of the weights a step) a loss that bounces around its start falls three epochs
  // in a row now and then: there the streak is 5 epochs (every epoch while there are fewer).
  // A loss held by clipping on large targets creeps down by 0.02% in 20 epochs: flat.
  // `whole`: only with at least `w` epoch-to-epoch changes (a held reading's 5-epoch streak).
  const auto falling_for = [&](size_t w, double Epoch::*loss, bool whole = false,
                               double min_fall = 0.001) {
    if (update_known && update > kLargeUpdate) w = std::max<size_t>(w, 5);
    if (whole && un < w + 1) return false;
    w = std::min(w, un > 0 ? un - 1 : 0);
    bool falling = !weights_still && w >= 2;
    for (size_t i = un - w; falling && i < un; ++i)
      falling = epochs_[i].*loss < epochs_[i - 1].*loss;
    return falling && epochs_.back().*loss < (1 - min_fall) * epochs_[un - 1 - w].*loss;
  };
  const bool steadily_falling = falling_for(static_cast<size_t>(kRecentEpochs), &Epoch::train_loss);
  // Far above the loss of a constant prediction, and not falling: the updates overshoot.
  // Classification from the third epoch on: a training loss well above ln C (1.5x) already
  // says it (a healthy classifier is below a uniform prediction within an epoch or two).
  // When the first steps already threw the loss far above chance (2x: the first updates were
  // too large), staying above chance at all is enough.
  // Held (the previous epoch's reading was "diverging"): it holds while above chance at all.
  const double above_factor =
      !chance.classification || n < kRecentEpochs ? kChanceLossFactor
      : held == "diverging" || (std::isfinite(initial) && initial > 2 * chance.loss)
          ? 1.0
          : kOvershootFactor;
  // Held (classification), falling is not enough to end it while still above chance.
  const bool held_above = held == "diverging" && chance.classification;
  // Regression: only a loss that rose above its start. Unscaled targets start far above their
  // variance, and a model whose loss creeps down there, or holds still under clipping, is slow
  // or flat, not overshooting (Linnerud's targets: 10x their variance, falling 0.3% an epoch).
  const bool above_chance =
      chance.known && k > 0 && std::isfinite(train_recent) &&
      train_recent > above_factor * chance.loss &&
      (chance.classification || (std::isfinite(initial) && train_recent > initial)) &&
      (held_above || (!(train_recent < kFallingFraction * train_early) && !falling_every_epoch &&
                      !steadily_falling));
  // Classification whose validation loss stays far above chance while the training loss is above
  // chance too: confident wrong answers on both splits, the updates overshoot, however the
  // training loss moves (batch norm keeps SGD at lr 1000 finite, its loss falling from 1e16 to
  // hundreds). Overfitting also raises the validation loss, but with the training loss far
  // below chance.
  const double val_recent_k = meanOf(epochs_, un - k, un, valLoss);
  const bool val_above_chance = chance.known && chance.classification && k > 0 &&
                                std::isfinite(val_recent_k) && std::isfinite(train_recent) &&
                                val_recent_k > kChanceLossFactor * chance.loss &&
                                train_recent > chance.loss;
  double max_train = -INFINITY, min_train = INFINITY;
  for (const auto& e : epochs_) {
    if (std::isfinite(e.train_loss)) {
      max_train = std::max(max_train, e.train_loss);
      min_train = std::min(min_train, e.train_loss);
    }
  }
  const bool huge = std::isfinite(initial) && n > 0 && max_train > kDivergeFactor * initial;
  // What "flat from the start" compares with the initial loss: the lowest mean training loss
  // over kPlateauBlock consecutive epochs (fewer while there are fewer), never a single epoch:
  // a loss bouncing between 700 and 1300 around an initial 860 (lr 0.01 on unscaled targets)
  // has single epochs below 90% of the start without having learned anything. Only epochs
  // after the steps the initial loss averages count (with one step per epoch those epochs are
  // the initial loss itself); before there are any, the lowest single epoch.
  const int64_t steps_per_epoch =
      n >= 2 ? (epochs_[1].step - epochs_[0].step) / std::max<int64_t>(1, epochs_[1].epoch - epochs_[0].epoch)
             : (n == 1 ? epochs_[0].step : 0);
  const int64_t initial_end =
      (n >= 1 ? epochs_[0].step - steps_per_epoch + 1 : 1) + static_cast<int64_t>(n_initial) - 1;
  size_t first_after = un;
  for (size_t i = 1; i < un; ++i)
    if (epochs_[i - 1].step >= initial_end) {
      first_after = i;
      break;
    }
  const size_t flat_window = std::min<size_t>(un - first_after, static_cast<size_t>(kPlateauBlock));
  double min_train_block = INFINITY;
  for (size_t i = first_after; flat_window > 0 && i + flat_window <= un; ++i)
    min_train_block = std::min(min_train_block, meanOf(epochs_, i, i + flat_window, trainLoss));
  const bool block_known = std::isfinite(min_train_block);
  if (!block_known) min_train_block = min_train;

  const std::optional<GradGrowth> growth = gradGrowth(held == "accumulating");
  const auto growth_finding = [&] {
    const GradGrowth& g = *growth;
    return Finding{"grad_norm_growing",
                   {g.first, g.quarters[0], g.quarters[1], g.quarters[2], g.quarters[3],
                    g.quarters[3] / g.first, static_cast<double>(g.steps)},
                   "",
                   "the gradient norm grew quarter after quarter of the " +
                       std::to_string(g.steps) + " steps (medians " + formatHuman(g.quarters[0]) +
                       ", " + formatHuman(g.quarters[1]) + ", " + formatHuman(g.quarters[2]) +
                       ", " + formatHuman(g.quarters[3]) + "), " +
                       formatHuman(g.quarters[3] / g.first) + "x the first steps' " +
                       formatHuman(g.first)};
  };
  const Finding zero_grad_check =
      check("zero_grad",
            "call optimizer.zero_grad() before each backward(): without it every step adds its "
            "gradient to those of all steps before");
  // A growing gradient norm with a falling loss is a model growing into its targets, not
  // accumulation: falling at each of the last 3 epochs by any amount (targets x1000 under Adam
  // fall 0.04% in the first epochs). Held, only a loss clearly below its start or falling for
  // 5 epochs in a row ends it (accumulated gradients overshoot back and forth: three falling
  // epochs happen).
  const bool loss_fell_meanwhile =
      held == "accumulating"
          ? falling_for(5, &Epoch::train_loss, true) || (std::isfinite(initial) && std::isfinite(train_recent) &&
                               train_recent < 0.8 * initial)
          : falling_for(static_cast<size_t>(kRecentEpochs), &Epoch::train_loss, false, 0) ||
                (std::isfinite(initial) && std::isfinite(train_recent) &&
                 train_recent < kGrowthLossFraction * initial);
  // Under clipping that cuts nearly every update, a loss held still on large targets grows its
  // gradient norm with the weights, its loss where it began: accumulation needs a loss that
  // rose above its start there (moons without zero_grad: 0.43 -> 1.2 by epoch 3).
  const bool clip_bound = context.clip_enabled && context.clip_steps_recent > 0 &&
                          context.clip_share_recent > kClipBoundShare;
  const bool loss_rose = held == "accumulating" || !clip_bound ||
                         (std::isfinite(initial) && std::isfinite(train_recent) &&
                          train_recent > initial);
  if (growth && non_finite_steps_ == 0 && !loss_fell_meanwhile && loss_rose) {
    d.kind = "accumulating";
    d.summary =
        "the gradient norm grows step after step: the gradients accumulate (optimizer.zero_grad() "
        "missing?)";
    d.evidence = {growth_finding()};
    if (std::isfinite(initial)) d.evidence.push_back(init_finding);
    d.checks = {zero_grad_check,
                check("check_accumulation",
                      "if the accumulation is on purpose, step and zero the gradients every k "
                      "batches (training.grad_accum_steps)")};
    return d;
  }
  if (non_finite_steps_ > 0 || diverged_ || huge || above_chance || val_above_chance) {
    d.kind = "diverging";
    d.summary = non_finite_steps_ > 0 || diverged_ || huge
                    ? "the loss is diverging (exploding gradients)"
                    : "the loss stays above chance (a constant prediction does better): the "
                      "learning rate is too high";
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
    if (above_chance)
      d.evidence.push_back({"loss_above_chance",
                            {train_recent, static_cast<double>(k), above_factor, chance.loss},
                            chance.classification ? "cross_entropy" : "mse",
                            "training loss " + formatHuman(train_recent) + " (mean of the last " +
                                std::to_string(k) + " epochs) is over " +
                                formatHuman(above_factor) + "x the chance loss " +
                                formatHuman(chance.loss) + " (" + chanceLossName(chance) + ")"});
    if (val_above_chance && !above_chance)
      d.evidence.push_back({"val_loss_above_chance",
                            {val_recent_k, static_cast<double>(k), kChanceLossFactor, chance.loss,
                             train_recent},
                            "cross_entropy",
                            "validation loss " + formatHuman(val_recent_k) + " (mean of the last " +
                                std::to_string(k) + " epochs) is over " +
                                formatHuman(kChanceLossFactor) + "x the chance loss " +
                                formatHuman(chance.loss) + " (" + chanceLossName(chance) +
                                "), and the training loss " + formatHuman(train_recent) +
                                " is above chance too"});
    if (diverged_)
      d.evidence.push_back({"divergence_detected", {}, "", "a finite divergence was detected"});
    const bool accumulation = growth && !loss_fell_meanwhile;
    if (accumulation) d.evidence.insert(d.evidence.begin(), growth_finding());
    d.checks = {check("lower_lr_10x", "lower the learning rate 10x"),
                context.clip_enabled
                    ? check("lower_max_norm", "lower max_norm (training.clip.max_norm)")
                    : check("clip_on", "turn on gradient clipping (training.clip.enabled)"),
                check("standardise_and_scale", "standardise the inputs and scale the targets"),
                check("check_init", "check the weight initialisation")};
    if (accumulation) d.checks.insert(d.checks.begin(), zero_grad_check);
    return d;
  }
  if (n < 3) {
    d.kind = "too_early";
    d.summary = "too early to tell: fewer than 3 epochs";
    if (std::isfinite(initial)) d.evidence.push_back(init_finding);
    return d;
  }
  const Epoch& last = epochs_.back();
  int64_t best = -1;  // the epoch index of the validation minimum
  for (int64_t i = 0; i < n; ++i)
    if (std::isfinite(epochs_[i].val_loss) &&
        (best < 0 || epochs_[i].val_loss < epochs_[best].val_loss))
      best = i;

  // Accuracy at chance: within max(2 points, 2 standard errors of an accuracy at chance).
  const double acc_recent = meanOf(epochs_, un - k, un, valAccuracy);
  const double p = chance.accuracy;
  const double margin =
      std::max(kChanceAccMargin,
               chance.n_val > 0 ? kChanceAccSigmas * std::sqrt(p * (1 - p) / chance.n_val) : 0.0);
  const bool acc_at_chance = chance.known && chance.classification && std::isfinite(acc_recent) &&
                             std::abs(acc_recent - p) <= margin;
  const Finding acc_finding{"val_at_chance",
                            {100 * acc_recent, static_cast<double>(k), 100 * p, 100 * margin},
                            "",
                            "validation accuracy " + formatHuman(100 * acc_recent) +
                                "% (mean of the last " + std::to_string(k) + " epochs) is within " +
                                formatHuman(100 * margin) + " points of chance, " +
                                formatHuman(100 * p) + "% (the majority class's share)"};
  const double val_recent = meanOf(epochs_, un - k, un, valLoss);
  const int64_t since_best = best < 0 ? n : n - 1 - best;
  const Finding update_finding{
      "update_ratio",
      {update, kTinyUpdate},
      "",
      "the weights move by " + formatHuman(update) +
          " of their size per step (median update-to-weight ratio of the recent steps; "
          "healthy is around 0.001)"};
  // Held ("no_signal" the epoch before), within 10% of chance still counts: a validation loss
  // wandering around 95% of ln C flapped between no_signal and overfitting.
  // "At chance" is at the loss of predicting the training split's class shares, ln C for
  // balanced classes, lower for imbalanced ones (93/7: 0.27, where shuffled labels keep the
  // validation loss), the margins in shares of ln C.
  const double prior = std::min(chance.prior_loss > 0 ? chance.prior_loss : chance.loss, chance.loss);
  const bool val_at_chance_loss =
      chance.known && chance.classification && std::isfinite(val_recent) &&
      val_recent >= prior - (held == "no_signal" ? 2 : 1) * kChanceLossMargin * chance.loss;
  // Nothing learned on either split while the weights move: a model that cannot fit its
  // training labels better than a constant prediction (its accuracy on validation is then
  // whatever its arbitrary boundary gives, not necessarily the majority share). Or the
  // accuracy at chance with a validation loss that stopped improving (a model that memorises
  // shuffled training labels).
  // Held, it holds until the training loss is 10% below chance (20% below its initial loss):
  // a model that slowly memorises shuffled labels still learns nothing that carries over.
  const bool hold = held == "no_signal";
  const double loss_margin = hold ? 2 * kChanceLossMargin : kChanceLossMargin;
  const bool flat_from_start =
      std::isfinite(initial) && min_train_block >= (hold ? 0.8 : kFlatFraction) * initial;
  const bool nothing_learned = update_known && !weights_still && flat_from_start &&
                               std::isfinite(train_recent) &&
                               train_recent >= prior - loss_margin * chance.loss;
  const bool val_near_chance_loss = chance.known && chance.classification &&
                                    std::isfinite(val_recent) &&
                                    val_recent >= prior - 2 * loss_margin * chance.loss;
  // At chance or below it (a model memorising shuffled labels can score below the majority
  // share: 8% on digits where the majority is 11.7%).
  // Held, up to twice the margin above (an accuracy around the margin flapped).
  const bool acc_not_above_chance =
      chance.known && chance.classification && std::isfinite(acc_recent) &&
      acc_recent <= p + (held == "no_signal" ? 2 : 1) * margin;
  // Signal the model did find: a validation accuracy above the majority share beyond the
  // margin, a validation loss 5% of ln C below what predicting the class shares gives and a
  // training loss 10% below ln C, all three (twice the margins when held): a run resumed at a
  // higher rate, a model that found the signal and then overfitted. No one of them alone will
  // do: trained on shuffled labels, a model's boundary on the true validation labels swings from
  // epoch to epoch (moons: 20%, 78%, 47%, 72%), and on well-clustered data with few samples it
  // settles on a chance share of the clusters (shuffled flowers: 50% against 33%, validation
  // loss 0.99 against ln 3 = 1.099, training loss still 97% of ln 3).
  const double evidence_factor = held == "no_signal" ? 2 : 1;
  const bool signal_found =
      chance.known && chance.classification && std::isfinite(acc_recent) &&
      std::isfinite(val_recent) && std::isfinite(train_recent) &&
      acc_recent > p + evidence_factor * margin &&
      val_recent < prior - evidence_factor * kChanceLossMargin * chance.loss &&
      train_recent < (1 - 2 * evidence_factor * kChanceLossMargin) * chance.loss;
  // Both losses falling epoch after epoch (5 when held), the validation loss already 5% of ln C
  // below what predicting the class shares gives: a slow learner near chance (SGD at lr 1e-3 on
  // digits: accuracy 25% at epoch 15 against 11.7%), not labels without signal (a model
  // memorising shuffled labels has a validation loss that rises, or one that falls towards
  // chance from above, or a hair below it: shuffled flowers 1.045 against ln 3 = 1.099).
  const size_t fall_epochs = held == "no_signal" ? 5 : static_cast<size_t>(kRecentEpochs);
  // With updates below the healthy 1e-3 of the weights a step (SGD at lr 0.003 on flowers:
  // 5.8e-4, accuracy 33% at epoch 5 and 78% at 13), both losses falling is enough: such a
  // model has not moved far enough to say its data carries no signal (shuffled labels under
  // Adam move the weights by 0.008-0.012 a step).
  // Or with the validation accuracy above chance beyond the margin (a 2-unit bottleneck at
  // 61% against 51%: both losses fall, slowly).
  const bool held_signal = held == "no_signal";
  const bool both_falling =
      falling_for(fall_epochs, &Epoch::train_loss, held_signal) &&
      falling_for(fall_epochs, &Epoch::val_loss, held_signal) &&
      std::isfinite(val_recent) &&
      (val_recent < prior - kChanceLossMargin * chance.loss ||
       (update_known && update < kHealthyUpdate) ||
       (std::isfinite(acc_recent) && acc_recent > p + evidence_factor * margin) ||
       // held: 5 epochs of both losses falling, now below chance (a model at chance stops
       // there; a slow learner goes on below it)
       (held == "no_signal" && val_recent < prior));
  if (!signal_found && !both_falling &&
      ((nothing_learned && val_near_chance_loss) ||
       (val_at_chance_loss && acc_not_above_chance &&
        (since_best >= kRecentEpochs || held == "no_signal") && !weights_still))) {
    d.kind = "no_signal";
    d.summary =
        "the data carries no signal the model finds: accuracy and loss stay at chance (labels "
        "misaligned with their inputs?)";
    if (nothing_learned)
      d.evidence.push_back({"train_loss_at_chance",
                            {train_recent, static_cast<double>(k), chance.loss},
                            "",
                            "training loss " + formatHuman(train_recent) + " (mean of the last " +
                                std::to_string(k) + " epochs) has not fallen below the chance loss " +
                                formatHuman(chance.loss) + " (" + chanceLossName(chance) +
                                "): the model fits its training labels no better than a constant "
                                "prediction"});
    if (acc_at_chance) d.evidence.push_back(acc_finding);
    d.evidence.push_back(
        {"val_loss_at_chance",
         {val_recent, chance.loss, 100 * kChanceLossMargin, static_cast<double>(since_best)},
         "",
         "validation loss " + formatHuman(val_recent) + " is not " +
             formatHuman(100 * kChanceLossMargin) + "% below the chance loss " +
             formatHuman(chance.loss) + " (" + chanceLossName(chance) +
             ") and has not improved for " + std::to_string(since_best) + " epochs"});
    if (update_known) d.evidence.push_back(update_finding);
    d.checks = {
        check("check_labels", "check that labels are aligned with their inputs"),
        check("check_label_order",
              "check that inputs and labels are read in the same order (one shuffled, sorted or "
              "filtered without the other gives exactly this)"),
        check("fit_tiny_subset", "check that the model can fit a tiny subset (data.limit)")};
    return d;
  }

  if (readOverfitting(context, d)) return d;
  // A run read as learning (healthy, plateau) becomes "flat from the start" only at 95% of its
  // start: the lowest block is over fewer epochs early on, and a loss hovering at 90% flapped
  // (healthy, flat, healthy on a 1-unit bottleneck).
  const double flat_fraction =
      held == "healthy" || held == "plateau" ? 0.95 : kFlatFraction;
  if (std::isfinite(initial) && min_train_block >= flat_fraction * initial && !steadily_falling) {
    d.kind = "flat";
    d.summary = "the loss is flat from the start: the model is not learning";
    const double percent = 100 * min_train_block / initial;
    d.evidence = {
        init_finding,
        {"best_train_loss",
         block_known ? std::vector<double>{min_train_block, percent, static_cast<double>(n),
                                           static_cast<double>(flat_window)}
                     : std::vector<double>{min_train_block, percent, static_cast<double>(n)},
         "",
         (block_known ? "lowest mean training loss over " + std::to_string(flat_window) +
                            " consecutive epochs "
                      : std::string("best epoch training loss ")) +
             formatHuman(min_train_block) + " (" + formatHuman(percent) + "% of initial) after " +
             std::to_string(n) + " epochs"}};
    if (acc_at_chance) d.evidence.push_back(acc_finding);
    if (update_known) d.evidence.push_back(update_finding);
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
    const Finding raise_lr = check("raise_lr", "raise the learning rate (it may be too small)");
    const std::vector<Finding> data_checks = {
        chance.known && !chance.classification
            ? check("standardise_and_scale", "standardise the inputs and scale the targets")
            : check("standardise_inputs", "standardise the inputs (data.standardize)"),
        check("check_labels", "check that labels are aligned with their inputs"),
        check("fit_tiny_subset", "check that the model can fit a tiny subset (data.limit)")};
    // The weights jump at every step while the loss bounces around its start: the updates
    // overshoot (lr 0.01 on targets x50), a smaller rate is what helps, never a larger one.
    if (update_known && update > kLargeUpdate) {
      d.checks.push_back(check("lower_lr_10x", "lower the learning rate 10x"));
      d.checks.insert(d.checks.end(), data_checks.begin(), data_checks.end());
      return d;
    }
    // The weights move at a healthy rate: the learning rate is not what holds the loss.
    const bool lr_last = update_known && !weights_still;
    if (!lr_last) d.checks.push_back(raise_lr);
    d.checks.insert(d.checks.end(), data_checks.begin(), data_checks.end());
    if (lr_last) d.checks.push_back(raise_lr);
    return d;
  }
  // A loss that falls at each of the last 3 epochs, 0.5% in all, has not stalled (unscaled
  // targets falling 0.3% an epoch read "plateau: lower the learning rate"); one creeping down
  // by less (0.05% an epoch at 60% of its start) has. Held, 5 such epochs end it.
  const bool still_falling =
      held == "plateau" ? falling_for(5, &Epoch::train_loss, true, 0.005)
                        : falling_for(static_cast<size_t>(kRecentEpochs), &Epoch::train_loss,
                                      false, 0.005);
  if (!still_falling && readPlateau(context, initial, init_finding, d, held == "plateau")) return d;
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

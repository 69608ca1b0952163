#pragma once
/// The loss doctor (issue 11): reads a run's losses as it goes and classifies its behaviour into
/// the three kinds of "the loss will not go down" — (a) diverging / huge / non-finite, (b) flat
/// from the start, (c) falls then stalls at a plateau — plus "no_signal" (the labels carry no
/// information the model finds), "overfitting" and "healthy", each with its evidence (the run's
/// numbers) and the checks to make, in order. It judges against chance (ChanceLevels: the loss
/// of a constant prediction, the majority-class accuracy) as well as against the run's first
/// steps. Pure logic, torch-free, so tests script synthetic runs.
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/data/chance_levels.h"
#include "core/run/records.h"
#include "core/train/monitors/overfitting.h"

namespace trainscope {

/// What the doctor cannot see in the losses: the run's clipping, so that its checks fit the run
/// (no "turn on clipping" when it is on; a flat loss under clipping that cuts every update is
/// named as such), and the data's chance levels.
struct DoctorContext {
  bool clip_enabled = false;
  double clip_share_recent = 0;   ///< ClipStats::shareRecent(): clipped share of the last 100
  int64_t clip_steps_recent = 0;  ///< how many steps that share is over
  ChanceLevels chance;            ///< from the data (core/data/chance.h); unknown: not judged
  /// The run's overfitting patience (training.early_stopping.patience): the doctor's
  /// "overfitting" is the OverfittingDetector's onset, the same rule as the run's event.
  int64_t overfit_patience = 10;
};

class LossDoctor {
 public:
  static constexpr int kInitialSteps = 10;            ///< the initial loss: mean of the first steps
  static constexpr double kDivergeFactor = 10;        ///< train loss > 10x initial: diverging
  static constexpr double kFlatFraction = 0.9;        ///< best train loss >= 90% of initial: flat
  static constexpr double kStallChange = 0.01;        ///< < 1% better over the last third: stalled
  static constexpr double kConvergedFraction = 0.05;  ///< stalled below 5% of initial: healthy
  static constexpr double kOverfitRise = 1.1;         ///< val loss 10% above its best ...
  static constexpr int kOverfitEpochs = 3;            ///< ... best at least 3 epochs ago
  static constexpr double kClipBoundShare = 0.9;      ///< flat under clipping on > 90% of steps
  // Against chance (DoctorContext::chance), over means of the last kRecentEpochs epochs:
  static constexpr int kRecentEpochs = 3;
  static constexpr double kChanceLossFactor = 10;    ///< train loss > 10x chance loss: diverging
  static constexpr double kFallingFraction = 0.5;    ///< ... unless below half its first epochs'
  static constexpr double kChanceAccMargin = 0.02;   ///< accuracy within 2 points of chance ...
  static constexpr double kChanceAccSigmas = 2;      ///< ... or 2 standard errors, the wider
  static constexpr double kChanceLossMargin = 0.05;  ///< val loss >= 95% of chance: at chance

  // Gradients that accumulate (optimizer.zero_grad() forgotten): over at least 40 applied
  // steps, the medians of the gradient norm over the four quarters of the run rise quarter after
  // quarter, none more than 10x the one before (not an explosion), and the last is over 10x the
  // median of the first 10 steps.
  static constexpr int64_t kGrowthMinSteps = 40;
  static constexpr double kGrowthFactor = 10;
  static constexpr double kGrowthJump = 10;
  static constexpr size_t kGradSamples = 4096;  ///< grad norms kept (evenly thinned), bounded

  /// Every step, in order (skipped steps too); `grad_norm` the step's total norm before
  /// clipping (NaN: not known).
  void onStep(double loss, bool applied, double grad_norm = std::nan(""));
  /// Every completed epoch, in order.
  void onEpoch(const EpochRecord& r);
  /// A finite divergence was detected (DivergenceMonitor).
  void onDiverged() { diverged_ = true; }

  /// A resumed or rolled-back run: the steps so far (non-finite steps are then numbered from
  /// it) and the initial losses the run started with (TrainState::initial_losses). Empty
  /// `initial_losses` with `from_history`: the checkpoint had none, the initial loss is the
  /// first epoch's training loss. Call before onEpoch() of the history.
  void restart(int64_t step, const std::vector<double>& initial_losses, bool from_history);
  /// The first finite step losses (at most kInitialSteps): the initial loss.
  const std::vector<double>& initialLosses() const { return first_losses_; }

  /// The reading now. Rules, first match wins: "accumulating" when no step was non-finite and
  /// the gradient norm grows steadily (the rule above: the gradients of every step add up, as
  /// without optimizer.zero_grad(); evidence "grad_norm_growing", first check "zero_grad"; a
  /// diverging run with that pattern gets the same evidence and check first); "diverging" when a step was non-finite, a
  /// divergence was detected, an epoch's training loss exceeds 10x the initial loss (mean
  /// of the first 10 finite step losses), or (chance known) the mean training loss of the last
  /// 3 epochs exceeds 10x the chance loss and is not below half the mean of the first 3 epochs
  /// (a constant prediction does far better: the learning rate is too high); "too_early"
  /// before 3 epochs; "no_signal" (classification, chance known) when the mean validation
  /// accuracy of the last 3 epochs is within max(2 points, 2 binomial standard errors) of the
  /// majority-class share, the mean validation loss of the last 3 epochs is >= 95% of ln C and
  /// the validation minimum is at least 3 epochs old (not improving); "overfitting" when the
  /// OverfittingDetector (context.overfit_patience) has recognised an onset at the current best
  /// epoch (the mean validation loss of the last 3 epochs over 1.1x its lowest value for
  /// `patience` epochs while training fell; no new validation minimum since); "flat"
  /// when the best epoch training loss is still >= 90% of the initial loss; "plateau" when the
  /// training loss improved by < 1% over the last third of the epochs (at least 3) and is still >=
  /// 5% of the initial loss; else "healthy". A flat reading with the accuracy at chance names
  /// it ("val_at_chance"). Evidence and checks are Findings (codes in
  /// core/run/watch_records.h). With `context.clip_enabled`, "diverging" suggests lowering
  /// max_norm instead of turning clipping on; "flat" while over 90% of the recent steps were
  /// clipped names the clip share and puts "clip_bound" (updates cut to lr x max_norm) first.
  Diagnosis diagnose(const DoctorContext& context = {}) const;

 private:
  /// The steady growth of the gradient norm (kGrowth* rule), or nullopt.
  struct GradGrowth {
    double first = 0;       ///< median of the first kInitialSteps applied steps' norms
    double quarters[4]{};  ///< medians of the four quarters of the applied steps
    int64_t steps = 0;
  };
  std::optional<GradGrowth> gradGrowth() const;

  std::vector<double> first_losses_;
  std::vector<double> first_grads_;  ///< the first applied steps' finite grad norms (<= 10)
  std::vector<float> grad_samples_;  ///< every grad_stride_-th applied step's norm
  int64_t grad_stride_ = 1, grad_seen_ = 0;
  bool initial_from_history_ = false;  ///< restart() without initial losses
  int64_t steps_ = 0, non_finite_steps_ = 0, first_non_finite_step_ = 0;
  double first_non_finite_loss_ = 0;
  bool diverged_ = false;
  std::vector<EpochRecord> epochs_;
  /// The onset detector fed with epochs_ (incrementally across diagnose() calls, afresh when
  /// the patience changes or restart() cleared the epochs).
  struct OverfitReading {
    int64_t patience = -1;
    size_t fed = 0;
    std::optional<double> best_val;
    OverfittingDetector detector{1};
    std::optional<OverfittingOnset> onset;  ///< the current onset (cleared by a new minimum)
  };
  mutable OverfitReading overfit_;
  const std::optional<OverfittingOnset>& overfitOnset(int64_t patience) const;
};

}  // namespace trainscope

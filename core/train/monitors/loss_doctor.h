#pragma once
/// The loss doctor: reads a run's losses as it goes and classifies its behaviour into
/// the three kinds of "the loss will not go down" — (a) diverging / huge / non-finite, (b) flat
/// from the start, (c) falls then stalls at a plateau — plus "no_signal" (the labels carry no
/// information the model finds), "overfitting" and "healthy", each with its evidence (the run's
/// numbers) and the checks to make, in order. It judges against chance (ChanceLevels: the loss
/// of a constant prediction, the majority-class accuracy) as well as against the run's first
/// steps. Pure logic, torch-free, so tests script synthetic runs.
#include <cmath>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "core/data/chance_levels.h"
#include "core/run/records.h"
#include "core/train/monitors/doctor_grads.h"
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
  /// The run's optimizer (optimizer.name, optimizer.momentum), so that no advice names what the
  /// run already uses ("try Adam" on an Adam run). Empty: not known, no optimizer advice.
  std::string optimizer;
  double momentum = 0;
  /// The run's regularisation (optimizer.weight_decay, model.dropout), so that overfitting
  /// advice asks for more of what the run uses instead of "add" it.
  double weight_decay = 0;
  double dropout = 0;
};

class LossDoctor {
 public:
  static constexpr int kInitialSteps = 10;            ///< the initial loss: mean of the first steps
  static constexpr double kDivergeFactor = 10;        ///< train loss > 10x initial: diverging
  static constexpr double kFlatFraction = 0.9;        ///< best train loss >= 90% of initial: flat
  // Plateau: block means of the training loss, the last third of the epochs (at least
  // kRecentEpochs) against the third before it, judged against the run's own noise.
  static constexpr double kStallChange = 0.01;  ///< < 1% better between the blocks: stalled ...
  static constexpr double kStallSigmas = 2;     ///< ... or better by < 2 standard errors
  static constexpr int64_t kPlateauBlock = 5;   ///< epochs a block has at least
  /// Stalled where a constant prediction is not far better: the block mean at least this share
  /// of the chance loss (of the initial loss when chance is not known). Lower, the run has
  /// learned most of what it can and levels off: healthy, not a plateau to act on.
  static constexpr double kPlateauShare = 0.5;
  /// The median update-to-weight ratio (||w_after - w_before|| / ||w_before||, layers.csv) of
  /// the recent steps below this: the weights barely move (healthy is around 1e-3).
  static constexpr double kTinyUpdate = 1e-4;
  /// ... above this, the updates are large (10x the healthy 1e-3): a flat loss then overshoots
  /// (lower the learning rate), it is not held by a rate too small.
  static constexpr double kLargeUpdate = 0.01;
  /// ... below this (the healthy ratio), a model whose losses fall slowly near chance has not
  /// moved far enough to be judged "no signal".
  static constexpr double kHealthyUpdate = 1e-3;
  static constexpr size_t kUpdateSamples = 16;  ///< layer-stats records the ratio is a median of
  static constexpr double kOverfitRise = 1.1;         ///< val loss 10% above its best ...
  static constexpr int kOverfitEpochs = 3;            ///< ... best at least 3 epochs ago
  static constexpr double kClipBoundShare = 0.9;      ///< flat under clipping on > 90% of steps
  // Against chance (DoctorContext::chance), over means of the last kRecentEpochs epochs:
  static constexpr int kRecentEpochs = 3;
  static constexpr double kChanceLossFactor = 10;    ///< train loss > 10x chance loss: diverging
  static constexpr double kOvershootFactor = 1.5;    ///< classification, from epoch 3: 1.5x
  static constexpr double kFallingFraction = 0.5;    ///< ... unless below half its first epochs'
  static constexpr double kChanceAccMargin = 0.02;   ///< accuracy within 2 points of chance ...
  static constexpr double kChanceAccSigmas = 2;      ///< ... or 2 standard errors, the wider
  static constexpr double kChanceLossMargin = 0.05;  ///< val loss >= 95% of chance: at chance

  // Gradients that accumulate (optimizer.zero_grad() forgotten): over at least 40 applied
  // steps, the medians of the gradient norm over the four quarters of the run rise (the third
  // above the first, the fourth above the second), none more than 10x the one before (not an
  // explosion), and the last is over 4x the median of the first 10 steps.
  static constexpr int64_t kGrowthMinSteps = 40;
  static constexpr double kGrowthFactor = 4;
  static constexpr double kGrowthJump = 10;
  /// ... while the training loss (mean of the last kRecentEpochs epochs) has not fallen below
  /// this share of the initial loss (0.8 to end a held reading): accumulated gradients overshoot
  /// and the loss does not fall, whereas a model growing into large regression targets (an
  /// unscaled target, sklearn's diabetes) grows its gradient norm while its loss falls.
  static constexpr double kGrowthLossFraction = 0.9;
  static constexpr size_t kGradSamples = 4096;  ///< grad norms kept (evenly thinned), bounded

  /// Every step, in order (skipped steps too); `grad_norm` the step's total norm before
  /// clipping (NaN: not known).
  void onStep(double loss, bool applied, double grad_norm = std::nan(""));
  /// Every completed epoch, in order.
  void onEpoch(const EpochRecord& r);
  /// Whether a new reading is worth its cost: a reading is O(epochs) (the plateau rule's blocks
  /// are thirds of the run), so after kEveryEpochReadings epochs the readings are spaced by
  /// 1/kEveryEpochReadings of the epochs so far (a bounded share of the run's time: readings
  /// took 51% of a 70,000-epoch run); a new non-finite step is always due.
  /// Marks the reading as taken when it answers true.
  bool readingDue() const;
  static constexpr size_t kEveryEpochReadings = 1000;
  /// A finite divergence was detected (DivergenceMonitor).
  void onDiverged() { diverged_ = true; }
  /// The update-to-weight ratios of one step's optimizer update, per parameter tensor
  /// (LayerStatsRecord::update_ratio; NaN entries ignored): how far the weights move.
  void onUpdateRatios(const std::vector<double>& ratios);
  /// The median of the recent steps' median ratios; NaN when none was seen.
  double recentUpdateRatio() const;

  /// A resumed or rolled-back run: the steps so far (non-finite steps are then numbered from
  /// it) and the initial losses the run started with (TrainState::initial_losses). Empty
  /// `initial_losses` with `from_history`: the checkpoint had none, the initial loss is the
  /// first epoch's training loss. Call before onEpoch() of the history.
  /// `grads`: the gradient norms the doctor had read (a checkpoint's, DoctorGrads), so the
  /// growth rule reads the whole run; without them (a roll-back, an older checkpoint) it reads
  /// the steps from here on only, and so never before kGrowthMinSteps more steps.
  void restart(int64_t step, const std::vector<double>& initial_losses, bool from_history,
               const DoctorGrads* grads = nullptr);
  /// The gradient norms read so far (saved in checkpoints for restart()).
  const DoctorGrads& grads() const { return grads_; }
  /// Epochs held (at most kEpochCapacity + 1: every epoch up to kEpochCapacity, then thinned).
  size_t epochsKept() const { return epochs_.size(); }
  /// The last epoch read (0 before any).
  size_t latestEpoch() const;
  /// The first finite step losses (at most kInitialSteps): the initial loss.
  const std::vector<double>& initialLosses() const { return first_losses_; }

  /// The reading now. Rules, first match wins: "accumulating" when no step was non-finite and
  /// the gradient norm grows steadily (the rule above: the gradients of every step add up, as
  /// without optimizer.zero_grad(); evidence "grad_norm_growing", first check "zero_grad"; a
  /// diverging run with that pattern gets the same evidence and check first); "diverging" when
  /// a step was non-finite, a divergence was detected, an epoch's training loss exceeds 10x the
  /// initial loss (mean of the first 10 finite step losses), or (chance known) the mean training
  /// loss of the last 3 epochs exceeds the chance loss by a factor (10x; for classification from
  /// the third epoch 1.5x, and 1x when the initial loss was already over 2x ln C) and is neither
  /// below half the mean of the first 3 epochs nor falling at each of the last epochs (a constant
  /// prediction does better: the learning rate is too high), or (classification) the mean
  /// validation loss of the last 3 epochs is over 10x ln C with the training loss above ln C;
  /// "too_early" before 3 epochs; "no_signal" (classification, chance known) when either the
  /// weights move (recentUpdateRatio() >= kTinyUpdate), the loss is flat from the start and the
  /// mean training loss of the last 3 epochs stays >= 95% of ln C with the validation loss >= 90%
  /// of it (nothing learned on either split: the validation accuracy is then whatever the
  /// model's arbitrary boundary gives), or the mean validation accuracy of the last 3 epochs is
  /// within max(2 points, 2 binomial standard errors) of the majority-class share, the mean
  /// validation loss >= 95% of ln C and its minimum at least 3 epochs old (a model memorising
  /// shuffled labels; not when the weights barely move); "overfitting" when the
  /// OverfittingDetector (context.overfit_patience) has recognised an onset (see
  /// core/train/monitors/overfitting.h: a sustained rise of the mean validation loss over its
  /// lowest mean, beyond 1.1x and beyond the run's own noise, while training fell), held until
  /// the mean validation loss reaches a new lowest mean; "flat" when the best epoch training
  /// loss is still >= 90% of the initial loss (first check "raise_lr" when the weights barely
  /// move or the ratio is not known, else the data checks first); "plateau" from 15 epochs, when
  /// the mean training loss of the last third of the epochs (at least 5) is less than 1% or 2
  /// standard errors (the epoch-to-epoch noise) below that of the third before, the validation
  /// loss is not improving either, and it stays at >= 50% of the chance loss (of the initial
  /// loss when chance is not known); optimizer advice only for what the run does not use
  /// (context.optimizer); else "healthy". A flat reading with the accuracy at chance names
  /// it ("val_at_chance"). Evidence and checks are Findings (codes in
  /// core/run/watch_records.h). With `context.clip_enabled`, "diverging" suggests lowering
  /// max_norm instead of turning clipping on; "flat" while over 90% of the recent steps were
  /// clipped names the clip share and puts "clip_bound" (updates cut to lr x max_norm) first.
  ///
  /// Hysteresis: a reading holds until the evidence against it passes the evidence
  /// that made it. The previous epoch's reading relaxes its own rule: "no_signal" holds while
  /// the training loss stays within 10% of chance (within 20% of the initial loss), the
  /// validation loss within 20% of chance; "diverging" (classification) while the training
  /// loss stays above chance at all, falling or not; "accumulating" while the gradient norm's
  /// last quarter stays over 4x the first steps'; "overfitting" until the mean validation loss reaches a new
  /// lowest mean. Several calls within one epoch read alike.
  Diagnosis diagnose(const DoctorContext& context = {}) const;

  /// What the doctor keeps of an epoch: the fields of EpochRecord it reads (40 bytes an epoch
  /// instead of 152; at most kEpochCapacity + 1 of them). val_accuracy is NaN
  /// where the record had none.
  struct Epoch {
    int64_t epoch = 0, step = 0;
    double train_loss = 0, val_loss = 0, val_accuracy = 0;
  };

 private:
  /// The steady growth of the gradient norm (kGrowth* rule), or nullopt.
  struct GradGrowth {
    double first = 0;       ///< median of the first kInitialSteps applied steps' norms
    double quarters[4]{};  ///< medians of the four quarters of the applied steps
    int64_t steps = 0;
  };
  /// `held`: the previous reading was "accumulating"; then the last quarter over
  /// kGrowthFactor x the first steps is enough.
  std::optional<GradGrowth> gradGrowth(bool held) const;
  /// The rules, with `held` the previous epoch's kind.
  Diagnosis read(const DoctorContext& context, const std::string& held) const;
  /// read()'s overfitting rule (loss_doctor_trends.cpp): fills `d` and returns true when the
  /// onset detector holds an onset among the kept epochs.
  bool readOverfitting(const DoctorContext& context, Diagnosis& d) const;
  /// read()'s plateau rule (loss_doctor_trends.cpp): fills `d` and returns true when the last
  /// third of the epochs stalled against the third before, above half of chance (or of
  /// `initial`). `held`: the previous reading was "plateau" (three times the improvement ends it).
  bool readPlateau(const DoctorContext& context, double initial, const Finding& init_finding,
                   Diagnosis& d, bool held) const;
  struct Held {
    size_t epochs = 0;  ///< latestEpoch() at the last reading
    std::string last, prior;
  };
  mutable Held held_;

  std::vector<double> first_losses_;
  DoctorGrads grads_;
  std::deque<double> update_ratios_;  ///< the last kUpdateSamples records' median ratios
  bool initial_from_history_ = false;  ///< restart() without initial losses
  int64_t steps_ = 0, non_finite_steps_ = 0, first_non_finite_step_ = 0;
  double first_non_finite_loss_ = 0;
  bool diverged_ = false;
  /// Every epoch up to kEpochCapacity, then thinned (core/run/epoch_thinning.h: every s-th and
  /// the latest), so memory is bounded: past kEpochCapacity epochs the rules read the kept
  /// epochs as consecutive ones (windows of "epochs" span s epochs each).
  std::vector<Epoch> epochs_;
  /// readingDue(): the epoch count and non-finite step count at the last reading it allowed.
  mutable size_t read_at_epochs_ = 0;
  mutable int64_t read_at_non_finite_ = 0;
  /// The onset detector fed with epochs_ (incrementally across diagnose() calls, afresh when
  /// the patience changes or restart() cleared the epochs).
  struct OverfitReading {
    int64_t patience = -1;
    size_t fed = 0;
    int64_t fed_epoch = 0;  ///< the epoch of epochs_[fed - 1] when it was fed
    std::optional<double> best_val;
    OverfittingDetector detector{1};
    std::optional<OverfittingOnset> onset;  ///< the current onset (cleared by a new lowest mean)
  };
  mutable OverfitReading overfit_;
  const std::optional<OverfittingOnset>& overfitOnset(int64_t patience) const;
};

}  // namespace trainscope

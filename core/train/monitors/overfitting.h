#pragma once
/// Overfitting-onset detection (ARCHITECTURE §3): validation loss has risen for `patience`
/// epochs while training loss fell. Runs whether or not early stopping is enabled. Torch-free.
#include <cstdint>
#include <deque>
#include <optional>

#include "core/io/value_dict.h"

namespace trainscope {

/// What the detector found at an epoch end.
struct OverfittingOnset {
  int64_t onset_epoch = 0;   ///< the best-validation epoch, where the gap started to open
  int64_t detected_at = 0;   ///< the epoch at which it was recognised (onset + patience or later)
  double best_val_loss = 0;  ///< validation loss at onset_epoch
  double val_loss = 0;       ///< at detected_at
  double val_mean = 0;       ///< mean validation loss of the kMeanEpochs epochs to detected_at
  double best_val_mean = 0;  ///< the lowest such mean of the run so far (the rise's baseline)
  double train_loss_at_onset = 0, train_loss = 0;
};

/// Recognises a sustained rise of validation loss while training loss falls; the onset is the
/// best-validation epoch (the lowest finite validation loss so far: the epoch early stopping's
/// restore_best_weights returns to and the loss plot labels "best").
///
/// Noise is not an onset: the rise is judged on the mean of the last kMeanEpochs epochs (as the
/// loss doctor's overfitting rule), against the lowest such mean so far. An epoch counts as
/// rising when that mean is over kRise x its lowest value, the rise is over kNoiseSigmas
/// standard errors of the difference of two such means (4; the run's own noise: sigma estimated
/// from the last kNoiseEpochs changes of the validation loss over twice `patience` epochs (at
/// least kMeanEpochs, at most kMaxNoiseLag) as the median absolute deviation of the signed changes
/// from their median / (0.6745 sqrt 2), the robust estimate for Gaussian noise that a steady
/// trend does not inflate; over that lag, because a validation loss wanders slowly, up and back
/// over tens of epochs, far more than from one epoch to the next; unknown before 3 changes,
/// then the rise alone counts), and the mean training loss is below its value at that lowest
/// mean. An onset is reported after `patience` consecutive rising epochs. A new
/// validation minimum (of the raw loss or of the mean) clears the count and moves the onset;
/// each onset epoch is reported at most once. (A noisy shelf has a lowest 3-epoch mean well
/// below its typical mean: 1.1x that minimum alone was crossed by noise, issue 42.)
class OverfittingDetector {
 public:
  static constexpr int kMeanEpochs = 3;  ///< as LossDoctor::kOverfitEpochs
  static constexpr double kRise = 1.1;   ///< as LossDoctor::kOverfitRise
  static constexpr double kNoiseSigmas = 4;  ///< the rise beyond the noise of two means
  static constexpr int64_t kNoiseEpochs = 30;  ///< changes the noise is estimated from
  static constexpr int64_t kMaxNoiseLag = 50;  ///< the longest lag of those changes

  /// patience: consecutive epochs of rise (values below 1 count as 1). `judge_noise` false
  /// leaves the noise condition out (the rise alone counts): tests of the counting use it.
  explicit OverfittingDetector(int64_t patience, bool judge_noise = true)
      : patience_(patience < 1 ? 1 : patience), judge_noise_(judge_noise) {}
  /// Feeds one epoch (losses in the task's loss units); returns the onset when it is
  /// recognised at this epoch.
  std::optional<OverfittingOnset> update(int64_t epoch, double train_loss, double val_loss);
  /// Consecutive epochs of rise needed for an onset.
  int64_t patience() const { return patience_; }
  /// The lowest mean validation loss over kMeanEpochs epochs so far (nullopt before one).
  std::optional<double> bestMean() const { return best_mean_; }
  /// The estimated noise (standard deviation) of the validation loss, from its changes over
  /// noiseLag() epochs; NaN before 3 changes.
  double noise() const;
  /// The lag of those changes: 2 x patience, at least kMeanEpochs, at most kMaxNoiseLag.
  int64_t noiseLag() const;

  /// {"best_val_loss", "best_epoch", "train_loss_at_best", "reported_best_epoch",
  /// "best_val_mean", "train_mean_at_best_mean", "rising_epochs"} and the lists
  /// "recent_val_loss", "recent_train_loss" (the last kMeanEpochs epochs) and "val_history" (the
  /// last kNoiseEpochs + noiseLag() finite validation losses, the noise's window).
  ValueDict stateDict() const;
  /// Restores stateDict(); throws std::out_of_range naming a missing key of the first four
  /// (the rest may be absent: checkpoints written before them start with an empty window).
  void loadStateDict(const ValueDict& d);

 private:
  int64_t patience_;
  bool judge_noise_ = true;
  std::optional<double> best_;
  int64_t best_epoch_ = 0;
  double train_at_best_ = 0;
  int64_t reported_best_epoch_ = 0;  ///< the best epoch already reported (0: none)
  std::optional<double> best_mean_;  ///< lowest mean validation loss over kMeanEpochs epochs
  double train_mean_at_best_mean_ = 0;
  int64_t rising_ = 0;                            ///< consecutive epochs of sustained rise
  std::deque<double> recent_val_, recent_train_;  ///< the last kMeanEpochs epochs
  std::deque<double> val_history_;  ///< the last kNoiseEpochs + noiseLag() finite val losses
};

}  // namespace trainscope

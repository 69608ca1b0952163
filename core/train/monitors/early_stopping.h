#pragma once
/// Early stopping on the monitored validation metric, `training.monitor` (Keras' EarlyStopping /
/// Lightning's EarlyStopping with monitor and mode; val_loss, mode min by default). Torch-free: the Trainer keeps the best weights itself
/// (monitors/best_weights.h).
#include <cstdint>
#include <optional>
#include <string>

#include "core/config/config_fwd.h"
#include "core/io/value_dict.h"

namespace trainscope {

struct EpochRecord;

/// Whether higher is better for `monitor` (a training.monitor value): val_accuracy and val_r2;
/// val_loss, val_mae and val_rmse are lower-is-better (Keras' mode="auto" guesses alike).
bool monitorMaximizes(const std::string& monitor);

/// The value of `monitor` in epoch record `r` (val_loss, val_accuracy, val_r2, val_mae,
/// val_rmse); nullopt where the record has none (accuracy of a regression run).
std::optional<double> monitoredValue(const EpochRecord& r, const std::string& monitor);

/// Whether `value` beats `best` by more than `min_delta` in `monitor`'s better direction
/// (lower: value + min_delta < best; higher: value - min_delta > best); a finite value beats
/// no best; NaN and infinities never beat anything.
bool monitorImproves(double value, std::optional<double> best, bool maximize, double min_delta = 0);

/// Counts epochs without improvement. An epoch improves when the monitored value moved past the
/// best by more than min_delta in the better direction (mode min: value + min_delta < best;
/// Keras: np.less(current - min_delta, best) with min_delta negated for mode min; Lightning
/// alike); the first finite value always improves, NaN never does. It fires at the first epoch
/// where wait >= patience.
class EarlyStopping {
 public:
  /// `maximize`: higher is better (monitorMaximizes of training.monitor).
  explicit EarlyStopping(const EarlyStoppingConfig& config, bool maximize = false);

  /// Feeds epoch `epoch`'s monitored value. Returns true when the run must stop now.
  bool update(int64_t epoch, double val_loss);
  /// True when the last update() improved (a new best: keep these weights).
  bool improved() const { return improved_; }
  std::optional<double> best() const { return best_; }
  int64_t bestEpoch() const { return best_epoch_; }
  /// Epochs since the last improvement.
  int64_t wait() const { return wait_; }
  /// The epoch at which it will fire if validation loss does not improve again: the last
  /// improvement's epoch + patience (the last update's epoch + patience - wait). 0 before the
  /// first update.
  int64_t wouldFireAt() const { return last_epoch_ == 0 ? 0 : last_epoch_ - wait_ + patience_; }

  /// {"best", "best_epoch", "wait", "last_epoch"} (best NaN when none).
  ValueDict stateDict() const;
  /// Restores stateDict(); throws std::out_of_range naming a missing key.
  void loadStateDict(const ValueDict& d);

 private:
  int64_t patience_;
  double min_delta_;
  bool maximize_ = false;
  std::optional<double> best_;
  int64_t best_epoch_ = 0;
  int64_t wait_ = 0;
  int64_t last_epoch_ = 0;
  bool improved_ = false;
};

}  // namespace trainscope

#pragma once
/// Early stopping on the validation loss (Keras' EarlyStopping / Lightning's EarlyStopping with
/// monitor val_loss, mode min). Torch-free: the Trainer keeps the best weights itself
/// (monitors/best_weights.h).
#include <cstdint>
#include <optional>

#include "core/config/train_config.h"
#include "core/io/value_dict.h"

namespace trainscope {

/// Counts epochs without improvement. An epoch improves when val_loss + min_delta < best, i.e.
/// it decreased by more than min_delta (Keras: np.less(current - min_delta, best) with
/// min_delta negated for mode min; Lightning alike); the first finite value always improves,
/// NaN never does. It fires at the first epoch where wait >= patience.
class EarlyStopping {
 public:
  explicit EarlyStopping(const EarlyStoppingConfig& config)
      : patience_(config.patience), min_delta_(config.min_delta) {}

  /// Feeds epoch `epoch`'s validation loss. Returns true when the run must stop now.
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
  std::optional<double> best_;
  int64_t best_epoch_ = 0;
  int64_t wait_ = 0;
  int64_t last_epoch_ = 0;
  bool improved_ = false;
};

}  // namespace trainscope

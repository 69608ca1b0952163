#pragma once
/// Overfitting-onset detection (ARCHITECTURE §3): validation loss has risen for `patience`
/// epochs while training loss fell. Runs whether or not early stopping is enabled. Torch-free.
#include <cstdint>
#include <optional>

#include "core/io/value_dict.h"

namespace trainscope {

/// What the detector found at an epoch end.
struct OverfittingOnset {
  int64_t onset_epoch = 0;   ///< the best-validation epoch, where the gap started to open
  int64_t detected_at = 0;   ///< the epoch at which it was recognised (onset + patience)
  double best_val_loss = 0;  ///< validation loss at onset_epoch
  double val_loss = 0;       ///< at detected_at
  double train_loss_at_onset = 0, train_loss = 0;
};

/// Reports once per best-validation epoch: when the newest epoch is `patience` epochs after the
/// epoch of the lowest finite validation loss (validation has not come back down: "rising")
/// and its training loss is below the training loss of that best epoch (training still
/// falling). A later new best re-arms it.
class OverfittingDetector {
 public:
  explicit OverfittingDetector(int64_t patience) : patience_(patience) {}
  /// Feeds one epoch; returns the onset when it is recognised at this epoch.
  std::optional<OverfittingOnset> update(int64_t epoch, double train_loss, double val_loss);

  /// {"best_val_loss", "best_epoch", "train_loss_at_best", "reported_best_epoch"}.
  ValueDict stateDict() const;
  /// Restores stateDict(); throws std::out_of_range naming a missing key.
  void loadStateDict(const ValueDict& d);

 private:
  int64_t patience_;
  std::optional<double> best_;
  int64_t best_epoch_ = 0;
  double train_at_best_ = 0;
  int64_t reported_best_epoch_ = 0;  ///< the best epoch already reported (0: none)
};

}  // namespace trainscope

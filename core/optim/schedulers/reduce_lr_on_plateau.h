#pragma once
/// torch.optim.lr_scheduler.ReduceLROnPlateau, stepped with the validation loss.
#include "core/optim/schedulers/lr_scheduler.h"

namespace trainscope {

/// Python's ReduceLROnPlateau(optimizer, mode, factor, patience, threshold, threshold_mode,
/// cooldown, min_lr, eps=1e-8): after more than `patience` epochs without improvement
/// (rel/min: metric < best * (1 - threshold); abs/min: metric < best - threshold; max mirrored)
/// lr = max(lr * factor, min_lr) (skipped when that changes it by <= eps), then `cooldown`
/// epochs in which bad epochs are not counted. A NaN metric is a bad epoch, as in Python.
class ReduceLROnPlateau final : public LrScheduler {
 public:
  ReduceLROnPlateau(double base_lr, const SchedulerConfig& c);
  std::string name() const override { return "ReduceLROnPlateau"; }
  double step(double metric) override;
  double rescale(double base_lr) override;
  /// SequentialLR's milestone: start over from base_lr (best, counters reset).
  void restart();
  ValueDict stateDict() const override;
  void loadStateDict(const ValueDict& d) override;

 private:
  bool isBetter(double a) const;
  bool max_mode_, rel_;
  double factor_, threshold_, min_lr_;
  int64_t patience_, cooldown_;
  double best_;
  int64_t num_bad_epochs_ = 0, cooldown_counter_ = 0;
};

}  // namespace trainscope

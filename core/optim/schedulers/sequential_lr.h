#pragma once
/// torch.optim.lr_scheduler.SequentialLR of a LinearLR warm-up and the main scheduler.
#include <memory>

#include "core/optim/schedulers/linear_lr.h"
#include "core/optim/schedulers/lr_scheduler.h"

namespace trainscope {

/// Python's SequentialLR(optimizer, [LinearLR(start_factor, total_iters=W), main],
/// milestones=[W]): epochs 0..W-1 follow the LinearLR; at epoch W the main scheduler is
/// stepped with step(0) (its closed form at 0: base_lr); afterwards main.step(). A
/// ReduceLROnPlateau main is restarted at W and fed the validation losses after W.
class SequentialLR final : public LrScheduler {
 public:
  SequentialLR(double base_lr, double start_factor, int64_t warmup_epochs,
               std::unique_ptr<LrScheduler> main);
  std::string name() const override { return "SequentialLR"; }
  double step(double metric) override;
  double rescale(double base_lr) override;
  ValueDict stateDict() const override;
  void loadStateDict(const ValueDict& d) override;

 private:
  int64_t milestone_;
  LinearLR warmup_;
  std::unique_ptr<LrScheduler> main_;
};

}  // namespace trainscope

#pragma once
/// torch.optim.lr_scheduler.StepLR: lr = base_lr * gamma^(epoch // step_size).
#include "core/optim/schedulers/lr_scheduler.h"

namespace trainscope {

/// Python's StepLR(optimizer, step_size, gamma). Chainable: multiplies the lr by gamma when
/// last_epoch is a positive multiple of step_size.
class StepLR final : public ChainableLrScheduler {
 public:
  StepLR(double base_lr, int64_t step_size, double gamma) : step_size_(step_size), gamma_(gamma) {
    base_lr_ = last_lr_ = base_lr;
  }
  std::string name() const override { return "StepLR"; }
  double chainable() const override {
    if (last_epoch_ == 0 || last_epoch_ % step_size_ != 0) return last_lr_;
    return last_lr_ * gamma_;
  }
  double closedForm() const override;

 private:
  int64_t step_size_;
  double gamma_;
};

}  // namespace trainscope

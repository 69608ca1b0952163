#pragma once
/// torch.optim.lr_scheduler.ExponentialLR: lr = base_lr * gamma^epoch.
#include "core/optim/schedulers/lr_scheduler.h"

namespace trainscope {

/// Python's ExponentialLR(optimizer, gamma). Chainable: lr *= gamma every epoch after 0.
class ExponentialLR final : public ChainableLrScheduler {
 public:
  ExponentialLR(double base_lr, double gamma) : gamma_(gamma) { base_lr_ = last_lr_ = base_lr; }
  std::string name() const override { return "ExponentialLR"; }
  double chainable() const override { return last_epoch_ == 0 ? last_lr_ : last_lr_ * gamma_; }
  double closedForm() const override;

 private:
  double gamma_;
};

}  // namespace trainscope

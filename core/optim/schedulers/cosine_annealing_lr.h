#pragma once
/// torch.optim.lr_scheduler.CosineAnnealingLR:
/// lr = eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2.
#include "core/optim/schedulers/lr_scheduler.h"

namespace trainscope {

/// Python's CosineAnnealingLR(optimizer, T_max, eta_min), with its chainable recursion (and
/// its special case at (epoch - 1 - T_max) % (2 T_max) == 0, so after T_max the lr rises again
/// as in Python).
class CosineAnnealingLR final : public ChainableLrScheduler {
 public:
  CosineAnnealingLR(double base_lr, int64_t t_max, double eta_min)
      : t_max_(t_max), eta_min_(eta_min) {
    base_lr_ = last_lr_ = base_lr;
  }
  std::string name() const override { return "CosineAnnealingLR"; }
  double chainable() const override;
  double closedForm() const override;

 private:
  int64_t t_max_;
  double eta_min_;
};

}  // namespace trainscope

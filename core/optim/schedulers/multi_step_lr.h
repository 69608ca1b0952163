#pragma once
/// torch.optim.lr_scheduler.MultiStepLR: lr = base_lr * gamma^(number of milestones <= epoch).
#include <vector>

#include "core/optim/schedulers/lr_scheduler.h"

namespace trainscope {

/// Python's MultiStepLR(optimizer, milestones, gamma). Chainable: at an epoch listed k times in
/// `milestones` the lr is multiplied by gamma^k.
class MultiStepLR final : public ChainableLrScheduler {
 public:
  MultiStepLR(double base_lr, std::vector<int64_t> milestones, double gamma);
  std::string name() const override { return "MultiStepLR"; }
  double chainable() const override;
  double closedForm() const override;

 private:
  std::vector<int64_t> milestones_;  ///< sorted
  double gamma_;
};

}  // namespace trainscope

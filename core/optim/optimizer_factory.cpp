#include "core/optim/optimizer_factory.h"

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/optim/optimizer_family.h"

namespace trainscope {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerConfig& c,
                                                       const std::vector<torch::Tensor>& params) {
  const OptimizerKind* kind = findOptimizerKind(c.name);
  if (!kind)
    throw Error(ErrorCode::Config, "optimizer.name", "unknown optimizer.name '" + c.name + "'");
  return kind->family->make(c, params);
}

double currentLr(const torch::optim::Optimizer& optimizer) {
  return optimizer.param_groups().front().options().get_lr();
}

}  // namespace trainscope

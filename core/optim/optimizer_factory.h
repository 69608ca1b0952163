#pragma once
/// Builds the optimizer of a run from `optimizer.*` (torch.optim.SGD / Adam / AdamW).
#include <torch/optim/optimizer.h>

#include <memory>
#include <vector>

#include "core/config/config_fwd.h"

namespace trainscope {

/// A torch::optim::SGD, Adam or AdamW over `params` with the hyperparameters of `config`
/// (same names and meanings as in PyTorch). Throws Error(Config, "optimizer.name") for an
/// unknown name.
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerConfig& config,
                                                       const std::vector<torch::Tensor>& params);

/// The learning rate of the optimizer's first parameter group (what the next step uses).
double currentLr(const torch::optim::Optimizer& optimizer);

}  // namespace trainscope

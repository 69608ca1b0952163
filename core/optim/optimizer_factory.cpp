#include "core/optim/optimizer_factory.h"

#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>

#include "core/errors.h"

namespace trainscope {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerConfig& c,
                                                       const std::vector<torch::Tensor>& params) {
  if (c.name == "sgd") {
    return std::make_unique<torch::optim::SGD>(
        params, torch::optim::SGDOptions(c.lr).momentum(c.momentum).weight_decay(c.weight_decay));
  }
  if (c.name == "adam") {
    return std::make_unique<torch::optim::Adam>(params, torch::optim::AdamOptions(c.lr)
                                                            .betas({c.betas[0], c.betas[1]})
                                                            .weight_decay(c.weight_decay));
  }
  if (c.name == "adamw") {
    return std::make_unique<torch::optim::AdamW>(params, torch::optim::AdamWOptions(c.lr)
                                                             .betas({c.betas[0], c.betas[1]})
                                                             .weight_decay(c.weight_decay));
  }
  throw Error(ErrorCode::Config, "optimizer.name", "unknown optimizer.name '" + c.name + "'");
}

double currentLr(const torch::optim::Optimizer& optimizer) {
  return optimizer.param_groups().front().options().get_lr();
}

}  // namespace trainscope

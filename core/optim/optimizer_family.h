#pragma once
/// One torch.optim class as TrainScope uses it: how it is built from `optimizer.*` and how its
/// state_dict is written and read in PyTorch 1.13's layout (checked with Python torch 1.13's
/// torch.optim.{SGD,Adam,AdamW}.state_dict(): Adam's 'step' is a float32 scalar tensor,
/// hyperparameters are Python floats/bools, betas a tuple). Each optimizer row of the kinds
/// registry (core/config/kinds.h) points at one of these. Internal to core (torch types).
#include <ATen/core/Dict.h>
#include <torch/optim/optimizer.h>

#include <memory>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/io/checkpoint_reader.h"

namespace trainscope {

struct OptimizerFamily {
  /// The torch::optim optimizer over `params` with the hyperparameters of `config`.
  std::unique_ptr<torch::optim::Optimizer> (*make)(const OptimizerConfig& config,
                                                   const std::vector<at::Tensor>& params);
  /// One parameter's entry of state_dict()["state"] (tensors copied).
  c10::impl::GenericDict (*save_param_state)(const torch::optim::OptimizerParamState& state);
  /// One entry of state_dict()["param_groups"], its "params" aside.
  void (*save_group)(const torch::optim::OptimizerOptions& options, c10::impl::GenericDict& group);
  /// Reads a "state" entry for parameter `param`, checking every key, shape and dtype; `where`
  /// is its key path ("optimizer_state_dict.state.0."). Throws Error(Checkpoint, file).
  std::unique_ptr<torch::optim::OptimizerParamState> (*load_param_state)(
      const CheckpointReader& r, const c10::impl::GenericDict& state, const at::Tensor& param,
      const std::string& where);
  /// Reads a "param_groups" entry's hyperparameters into a copy of `current`, checked; the
  /// caller applies the result (set_options), which cannot fail. Throws Error(Checkpoint, file).
  std::unique_ptr<torch::optim::OptimizerOptions> (*load_group)(
      const CheckpointReader& r, const c10::impl::GenericDict& group,
      const torch::optim::OptimizerOptions& current, const std::string& where);
};

/// torch.optim.SGD (momentum_buffer per parameter when momentum > 0).
extern const OptimizerFamily kSgdFamily;
/// torch.optim.Adam (step, exp_avg, exp_avg_sq[, max_exp_avg_sq] per parameter).
extern const OptimizerFamily kAdamFamily;
/// torch.optim.AdamW (Adam's state; decoupled weight decay).
extern const OptimizerFamily kAdamWFamily;

}  // namespace trainscope

#pragma once
/// PyTorch's strict matching of a state_dict against a model's (Model::state_dict()). Internal
/// to core (torch types); used by checkpoint restore (train_state_io.*) and weights import
/// (weights_import.*).
#include <ATen/core/Tensor.h>

#include <string>
#include <utility>
#include <vector>

#include "core/model/model.h"

namespace trainscope {

/// The outcome of matching a state_dict against a model.
struct StateMatch {
  std::vector<std::pair<at::Tensor, at::Tensor>> copies;  ///< {model tensor, file tensor}
  /// One line per problem, all of them: "<name> missing from the file (model [16, 2])",
  /// "<name>: file [8, 2], model [16, 2]", "<name> [3] is not in the model",
  /// "<name>: file float64, model float32" (only with `same_dtype`).
  std::vector<std::string> problems;
};

/// The check of torch.nn.Module.load_state_dict(strict=True) (torch/nn/modules/module.py):
/// every model entry must be in `entries` with the same shape and no entry may be unknown.
/// `same_dtype` also requires equal dtypes (a checkpoint restore); without it a real-valued
/// entry of another dtype is accepted and converted on copy, as PyTorch's param.copy_(input)
/// does, and a complex one is a problem. Changes nothing.
StateMatch matchState(const Model& model,
                      const std::vector<std::pair<std::string, at::Tensor>>& entries,
                      bool same_dtype);

/// Copies the matched entries into the model (no autograd; the model's tensors keep their
/// identity, device and dtype).
void applyState(const StateMatch& match);

}  // namespace trainscope

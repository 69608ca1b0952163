#pragma once
/// The output of one named submodule of a TorchScript module, for Grad-CAM (issue 49 §3).
/// libtorch 1.13 has no forward hooks on scripted modules (Python's register_forward_hook is
/// refused for them too), so a copy of the module's forward graph is rewritten instead: the
/// calls leading to the submodule are inlined (torch::jit::inlineCallTo) until its own
/// `prim::CallMethod[name="forward"]` stands in the top block, and the graph returns
/// (output, that call's result). The module itself is not changed. Torch and TorchScript
/// inside: included by core/model/torchscript.cpp and its tests only.
#include <ATen/core/Tensor.h>
#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/api/module.h>

#include <memory>
#include <string>
#include <utility>

namespace trainscope {

/// The dotted name of the last submodule of `m` (named_modules() pre-order) whose class is
/// torch.nn.Conv2d ("features.3"); empty when it has none.
std::string lastConv2dName(const torch::jit::Module& m);

/// A forward of `m` that also returns the output of its submodule `layer`.
class SubmoduleCapture {
 public:
  /// Builds the rewritten graph. Throws Error(Config, "model.torchscript.grad_cam_layer") when
  /// `m` has no submodule `layer`, or forward does not call it outside any if or loop (its
  /// output would not be one tensor of the run), or its result is not a tensor.
  SubmoduleCapture(const torch::jit::Module& m, const std::string& layer);

  /// (the layer's output, forward's output) of `m` (the module given to the constructor or a
  /// deepcopy of it) for `input`, in the module's current mode, recorded by autograd where
  /// grad mode is on. Throws what the module's code throws (c10::Error, JITException).
  std::pair<at::Tensor, at::Tensor> run(const torch::jit::Module& m, const at::Tensor& input) const;

 private:
  std::shared_ptr<torch::jit::GraphFunction> function_;
};

}  // namespace trainscope

#pragma once
/// A Model over a torch::nn::Sequential: the common implementation of the kinds that are a
/// chain of layers (the MLP today). Torch types: internal to core/model; nothing outside
/// core/model names torch::nn::Sequential.
#include <torch/nn/modules/container/sequential.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/model/layer_spec.h"
#include "core/model/model.h"

namespace trainscope {

/// Module.state_dict() of any torch module: for each module in pre-order its own parameters,
/// then its own buffers, names prefixed by the module path ("1.running_mean"). Mirrors
/// torch/nn/modules/module.py (_save_to_state_dict, then the children). Undefined tensors are
/// left out, as Python leaves out None.
NamedTensors moduleStateDict(const torch::nn::Module& module);

/// Appends the activation layer named `activation` (model.activation: relu -> nn.ReLU, tanh ->
/// nn.Tanh, gelu -> nn.GELU, sigmoid -> nn.Sigmoid) to `seq`. Throws Error(Config,
/// "model.activation") for another name.
void pushActivation(torch::nn::Sequential& seq, const std::string& activation);

/// Appends an MLP's layers to `seq` for inputs of `width` features: per entry h of `hidden`
/// Linear(width, h), the activation (pushActivation) and Dropout(dropout) when dropout > 0, then
/// Linear(last width, outputs). The MLP and the CNN's head are built by it.
void pushLinearLayers(torch::nn::Sequential& seq, int64_t width, const std::vector<int64_t>& hidden,
                      const std::string& activation, double dropout, int64_t outputs);

/// A chain of layers, each fed the previous one's output (Python's nn.Sequential; children
/// named "0", "1", ...).
class SequentialModel final : public Model {
 public:
  /// `kind`: the registry name reported by kind(). `sequential` must be non-null.
  SequentialModel(std::string kind, torch::nn::Sequential sequential);

  std::string kind() const override { return kind_; }
  /// lastConvFeatures() as its child's name ("3"), empty without a Conv2d.
  std::string camLayer() const override;
  /// The layers up to lastConvFeatures() run without gradients; A is a fresh leaf (so that
  /// gradients reach only it) that the remaining layers take.
  std::pair<at::Tensor, at::Tensor> camForward(const at::Tensor& input) override;
  at::Tensor forward(const at::Tensor& input) override;
  std::vector<at::Tensor> parameters() const override;
  NamedTensors named_parameters() const override;
  std::vector<at::Tensor> buffers() const override;
  NamedTensors state_dict() const override;
  void train(bool on = true) override;
  bool is_training() const override;
  std::shared_ptr<Model> clone(std::optional<c10::Device> device = std::nullopt) const override;
  void to(c10::Device device) override;
  ModelSummary summary() const override;
  std::vector<LayerInfo> layers(const std::vector<int64_t>& input_shape) const override;

  /// The first Conv2d's weight [out, in, kH, kW] and what `input` [N, ...] gives after it, its
  /// BatchNorm2d and its activation (the first block's feature maps [N, out, H', W']), run in
  /// the model's current mode (callers hold a NoGradGuard); two undefined tensors when the
  /// model has no Conv2d.
  std::pair<at::Tensor, at::Tensor> firstConvBlock(const at::Tensor& input);
  /// The penultimate layer's features: what `input` [N, ...] gives after every layer before
  /// the last Linear (its input, [N, F]: the representation the classifier separates), in the
  /// model's current mode (callers hold a NoGradGuard). Undefined without a Linear layer.
  at::Tensor penultimate(const at::Tensor& input);
  /// The layers in order (children "0", "1", ...).
  std::size_t layerCount() const;
  /// Index of the layer whose output is the last convolution block's feature maps: the
  /// activation after the last Conv2d (a BatchNorm2d between them included); nullopt without
  /// a Conv2d.
  std::optional<std::size_t> lastConvFeatures() const;
  /// Index and type ("ReLU", "Tanh", "GELU", "Sigmoid") of each activation layer, in order.
  std::vector<std::pair<std::size_t, std::string>> activationLayers() const;
  /// The layers as torch.nn names them, with their options (what core/export writes). Throws
  /// Error(Config, "model.kind") naming a layer or option the exports do not write.
  std::vector<LayerSpec> layerSpecs() const;
  /// Runs the layers [from, to) on `x` in the model's current mode.
  at::Tensor forwardRange(const at::Tensor& x, std::size_t from, std::size_t to);

 private:
  std::string kind_;
  torch::nn::Sequential seq_;
};

}  // namespace trainscope

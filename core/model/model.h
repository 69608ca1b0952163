#pragma once
/// The model interface of a run: what the engine, the probes and checkpoints need from any
/// model kind (MLP today; CNN, RNN and TorchScript kinds implement the same). Mirrors
/// torch::nn::Module's C++ API (forward, parameters, buffers, named_parameters, train/eval,
/// is_training, clone, to) and Python's Module.state_dict(). Torch types: internal to core.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/data/data_summary.h"
#include "core/model/model_summary.h"

namespace trainscope {

/// Tensors with their PyTorch names ("0.weight", ...), in a fixed order.
using NamedTensors = std::vector<std::pair<std::string, at::Tensor>>;

/// One layer of Model::layers(): what torchinfo's summary prints for it.
struct LayerInfo {
  std::string name;                   ///< state_dict prefix of the layer ("0", "2", ...)
  std::string description;            ///< "Linear(784->256)", "ReLU", "Dropout(0.3)"
  std::vector<int64_t> output_shape;  ///< the layer's output for one sample (batch dim left out)
  /// False where the model does not reveal it (a child of a scripted module whose forward may
  /// use its children in any order): output_shape is then empty.
  bool shape_known = true;
  int64_t trainable_parameters = 0;   ///< scalars with requires_grad
  int64_t frozen_parameters = 0;      ///< scalars without requires_grad
};

/// A trainable model. Input float32 [N, ...input shape] (the data's input shape), output
/// float32 [N, outputs] (logits of C classes, or k regression outputs). Touched only by the
/// thread that trains it.
class Model {
 public:
  virtual ~Model() = default;

  /// The registry name of its kind ("mlp").
  virtual std::string kind() const = 0;
  /// The forward pass: float32 [N, ...] -> float32 [N, outputs]. Under autocast the output may
  /// be bf16/fp16.
  virtual at::Tensor forward(const at::Tensor& input) = 0;

  /// Trainable and frozen parameters in Module.parameters() order.
  virtual std::vector<at::Tensor> parameters() const = 0;
  /// Parameters with their names, in Module.named_parameters() order.
  virtual NamedTensors named_parameters() const = 0;
  /// Buffers (BatchNorm's running statistics, ...) in Module.buffers() order.
  virtual std::vector<at::Tensor> buffers() const = 0;
  /// Module.state_dict(): for each module in pre-order its parameters, then its buffers, with
  /// PyTorch's dotted names. The one place this order is defined (checkpoints, best weights,
  /// weights import and export all use it). The tensors are the model's own (no copies).
  virtual NamedTensors state_dict() const = 0;

  /// Module.train(on) / Module.eval(): dropout and batch norm behave accordingly.
  virtual void train(bool on = true) = 0;
  void eval() { train(false); }
  virtual bool is_training() const = 0;

  /// A deep copy (parameters and buffers copied, mode kept), on `device` when given. Like
  /// torch::nn::Module::clone it may re-initialise the copy before copying the values, which
  /// draws from the global torch generator: callers that must not disturb it save and restore
  /// it (thread choice, lr finder, reproducibility check do).
  virtual std::shared_ptr<Model> clone(std::optional<c10::Device> device = std::nullopt) const = 0;
  /// Moves parameters and buffers to `device` in place (Module::to).
  virtual void to(c10::Device device) = 0;

  /// The one-line description ("Linear(784->256) ReLU ...") and trainable parameter count.
  virtual ModelSummary summary() const = 0;
  /// Layer by layer, with output shapes for one sample of `input_shape` (found by running a
  /// zero batch of one through the layers in eval mode without gradients; the model is left in
  /// its mode). Throws Error(Config, "model.kind") when the input shape does not fit the model.
  virtual std::vector<LayerInfo> layers(const std::vector<int64_t>& input_shape) const = 0;

  /// Writes the model as TorchScript (torch.jit.save's archive, for torch.jit.load) to `path`
  /// atomically, in eval mode with its current weights (the model's mode is restored). Returns
  /// false, writing nothing, for kinds without a TorchScript form (all but "torchscript").
  /// Throws Error(Io, path) for a failed write.
  virtual bool saveTorchScript(const std::filesystem::path& path) const {
    (void)path;
    return false;
  }

  /// The layer whose output feature maps Grad-CAM reads (core/model/grad_cam.h): "3" for the
  /// cnn kind's last convolution block (the activation after its last Conv2d), a TorchScript
  /// module's submodule ("features.3"); empty when the model has none.
  virtual std::string camLayer() const { return {}; }
  /// One forward pass split at camLayer(): (A, output), the feature maps A [N, K, h, w]
  /// float32 as a tensor the output's autograd graph reaches, and the output [N, outputs]
  /// computed from them, for `input` as forward() takes it, in the model's current mode.
  /// Callers hold torch::AutoGradMode(true). Throws Error(Config, "model.kind") when
  /// camLayer() is empty.
  virtual std::pair<at::Tensor, at::Tensor> camForward(const at::Tensor& input);
};

using ModelPtr = std::shared_ptr<Model>;

/// Scalars of all parameters; `trainable` counts those with requires_grad, else the frozen ones.
int64_t countParameters(const Model& model, bool trainable);

/// The tensors of model.state_dict(), in its order, without the names.
std::vector<at::Tensor> stateTensors(const Model& model);

/// Builds the model of `config.kind` (core/config/kinds.h) for inputs of `input_shape` (one
/// sample: [784] for flat images, [2] for moons) and `outputs` outputs (classes, or regression
/// targets), initialised by libtorch's defaults from the global torch generator (seed it
/// first). `image_shape`: the data's [C, H, W] when its samples are images, else empty.
/// Throws Error(Config, "model.kind") for an unknown kind or an input shape the kind cannot
/// take, Error(Config, "model.activation") for an unknown activation.
ModelPtr buildModel(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                    int64_t outputs, const std::vector<int64_t>& image_shape = {});
/// buildModel(config, {in_features}, outputs): flat inputs.
ModelPtr buildModel(const ModelConfig& config, int64_t in_features, int64_t outputs);
/// The model for `data`: its input_shape, image_shape and outputs.
ModelPtr buildModel(const ModelConfig& config, const DataSummary& data);

}  // namespace trainscope

#pragma once
/// What an export writes, whatever its format (issue 50): the model's layers in order with
/// their tensors and options, and the run's preprocessing as the model's first step. Built
/// from a Model: the mlp and cnn kinds from their torch::nn::Sequential children, the rnn kind
/// from model.rnn.* and its state_dict. Torch types inside: included by core/export only.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/config/config_fwd.h"

namespace trainscope {

class Model;
struct DataSummary;

/// One layer, as torch.nn names it.
struct ExportLayer {
  std::string name;  ///< its state_dict prefix in the run's model ("3", "rnn", "head")
  /// torch.nn's class: Linear Conv2d BatchNorm2d ReLU Tanh Sigmoid GELU MaxPool2d AvgPool2d
  /// Flatten Unflatten Dropout, or the rnn kind's LSTM GRU RNN.
  std::string type;
  /// Its own tensors by their torch.nn names ("weight", "bias", "running_mean", "running_var",
  /// "weight_ih_l0", ...), float32 on the CPU, in state_dict order (buffers such as
  /// num_batches_tracked left out: no export uses them).
  std::vector<std::pair<std::string, at::Tensor>> tensors;
  std::vector<int64_t> kernel, stride, padding;  ///< Conv2d and the pools: (h, w)
  std::vector<int64_t> sizes;                    ///< Unflatten: [C, H, W]
  double eps = 1e-5;                             ///< BatchNorm2d
  // The rnn kind (torch.nn.LSTM/GRU/RNN with batch_first=True):
  int64_t num_layers = 1, hidden_size = 0;
  bool bidirectional = false;
  std::string nonlinearity = "tanh";  ///< RNN: tanh | relu
  std::string reduce;                 ///< "last" (output[:, -1]) | "mean" (output.mean(1))

  /// The tensor called `own` ("weight"); undefined when the layer has none.
  at::Tensor tensor(const std::string& own) const;
};

/// The model to export, eval mode, with what turns stored inputs into its inputs.
struct ExportPlan {
  std::string kind;                  ///< model.kind: mlp | cnn | rnn
  std::vector<int64_t> input_shape;  ///< one sample as the export takes it
  int64_t outputs = 0;
  std::vector<ExportLayer> layers;
  /// The run's preprocessing as the first step: model input = (x - input_offset) /
  /// input_scale, float32 [1] or of input_shape, as TrainScope computes it (images: offset
  /// mean * 255, scale std * 255; tables: the per-feature mean and std). Undefined with
  /// --raw-input (the export then takes what the model takes).
  at::Tensor input_offset, input_scale;
};

/// The plan of `model` (built by buildModel for `model_config` and `data`, its weights
/// loaded). `include_preprocessing`: data.preprocessing as the first step. A torchscript
/// model gets no layers (its module is exported whole: torchscript_export.h). Throws
/// Error(Config, "model.kind") naming the layer for what no export can write.
ExportPlan planExport(const Model& model, const ModelConfig& model_config, const DataSummary& data,
                      bool include_preprocessing);

}  // namespace trainscope

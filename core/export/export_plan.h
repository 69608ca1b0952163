#pragma once
/// What an export writes, whatever its format (issue 50): the model's layers in order with
/// their tensors and options, and the run's preprocessing as the model's first step. Built
/// from a Model: the mlp and cnn kinds from their layers (SequentialModel::layerSpecs), the rnn
/// kind from model.rnn.*; the tensors from the state_dict. Torch types inside: included by core/export only.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/model/layer_spec.h"

namespace trainscope {

class Model;
struct DataSummary;

/// One layer, as torch.nn names it, with its tensors.
struct ExportLayer : LayerSpec {
  /// Its own tensors by their torch.nn names ("weight", "bias", "running_mean", "running_var",
  /// "weight_ih_l0", ...), float32 on the CPU, in state_dict order (buffers such as
  /// num_batches_tracked left out: no export uses them).
  std::vector<std::pair<std::string, at::Tensor>> tensors;
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

#pragma once
/// Builds the model of a run as a torch::nn::Sequential.
#include <torch/nn/modules/container/sequential.h>

#include <cstdint>

#include "core/config/train_config.h"
#include "core/train/records.h"

namespace trainscope {

/// MLP: [Linear(in, h) -> activation -> Dropout(p) (when p > 0)] per hidden width, then
/// Linear(h_last, out). Parameter names equal those of the same Python nn.Sequential
/// ("0.weight", "0.bias", "2.weight", ...). Input float32 [B, in]; output float32 [B, out].
/// Initialised by libtorch's defaults from the global torch generator (seed it first).
torch::nn::Sequential buildModel(const ModelConfig& config, int64_t in_features,
                                 int64_t out_features);

/// Description ("Linear(784->256) ReLU ...") and trainable parameter count.
ModelSummary summarizeModel(const torch::nn::Sequential& model);

}  // namespace trainscope

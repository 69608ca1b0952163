#pragma once
/// The "mlp" model kind (core/config/kinds.h).
#include <cstdint>
#include <memory>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/system/memory.h"

namespace trainscope {

class Model;

/// MLP: [Linear(in, h) -> activation -> Dropout(p) (when p > 0)] per model.hidden width, then
/// Linear(h_last, outputs), as a SequentialModel. Parameter names equal those of the same
/// Python nn.Sequential ("0.weight", "0.bias", "2.weight", ...). Input float32 [N, in] where
/// in is the product of `input_shape` (an image [1, 28, 28] is flattened first, as
/// nn.Flatten would; today's data is already flat); output float32 [N, outputs]. Initialised
/// by libtorch's defaults from the global torch generator, layer by layer. `image_shape` is
/// not used (an image is taken as its flat pixels). Throws
/// Error(Config, "model.activation") for an unknown activation.
std::shared_ptr<Model> buildMlp(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& image_shape, int64_t outputs);

/// The footprint of buildMlp(config, input_shape, outputs) without building it:
/// mlpFootprint({product of input_shape, hidden..., outputs}) (core/system/memory.h).
ModelFootprint mlpKindFootprint(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& image_shape, int64_t outputs);

}  // namespace trainscope

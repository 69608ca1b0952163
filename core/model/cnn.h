#pragma once
/// The "cnn" model kind (core/config/kinds.h, keys model.cnn.*): a convolutional network for
/// image data.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/system/memory.h"

namespace trainscope {

class Model;

/// CNN as a SequentialModel equal to this Python nn.Sequential (same children, so the same
/// state_dict names, "1.weight", "2.running_mean" ..., and, from the same seed, the same
/// initial weights: libtorch's Conv2d, BatchNorm2d and Linear initialise as torch.nn's):
///   [nn.Unflatten(1, (C, H, W))]            when x holds the images flat ([C*H*W] samples)
///   per model.cnn.channels entry c:
///     nn.Conv2d(in, c, kernel_size, stride, padding) [nn.BatchNorm2d(c)] activation
///     [nn.MaxPool2d(pool_size) | nn.AvgPool2d(pool_size)]
///   nn.Flatten() [nn.Dropout(p)] per model.cnn.hidden width h: nn.Linear(.., h) activation
///   [nn.Dropout(p)], then nn.Linear(.., outputs)
/// Input float32 [N, C*H*W] or [N, C, H, W] (`input_shape`; `image_shape` [C, H, W] says how
/// flat pixels are laid out; [H, W] samples get one channel), output float32 [N, outputs].
/// Throws Error(Config, "model.kind") when the samples are not images, Error(Config,
/// "model.cnn.channels") naming the image size and the block where the feature maps would
/// shrink to nothing, Error(Config, "model.activation") for an unknown activation.
std::shared_ptr<Model> buildCnn(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& image_shape, int64_t outputs);

/// Parameters and activations of buildCnn(...) without building it: per block the conv (and
/// batch norm) and activation outputs with their gradients, the pooled output; the linear
/// layers as mlpFootprint counts them. Throws what buildCnn throws for shapes.
ModelFootprint cnnKindFootprint(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& image_shape, int64_t outputs);

}  // namespace trainscope

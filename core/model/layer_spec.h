#pragma once
/// One layer of a chain of layers as torch.nn names it, its options as plain values: what the
/// exports write (core/export). Torch-free.
#include <cstdint>
#include <string>
#include <vector>

namespace trainscope {

struct LayerSpec {
  std::string name;  ///< its state_dict prefix in the model ("3", "rnn", "head")
  /// torch.nn's class: Linear Conv2d BatchNorm2d ReLU Tanh Sigmoid GELU MaxPool2d AvgPool2d
  /// Flatten Unflatten Dropout, or the rnn kind's LSTM GRU RNN.
  std::string type;
  std::vector<int64_t> kernel, stride, padding;  ///< Conv2d and the pools: (h, w)
  std::vector<int64_t> sizes;                    ///< Unflatten: [C, H, W]
  double eps = 1e-5;                             ///< BatchNorm2d
};

}  // namespace trainscope

#pragma once
/// Default locations of the data TrainScope knows by name. Torch-free.

namespace trainscope {

/// Default folder of the Debian package dataset-fashion-mnist.
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";

}  // namespace trainscope

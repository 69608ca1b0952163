#pragma once
/// Imbalanced classes (issue 48 §4): training.class_weights and data.sampler "weighted", from
/// the training split's labels. Internal to core (torch types).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "core/config/config_fwd.h"

namespace trainscope {

/// The class weights of `cw` for training labels `y` (int64 [N]) of `n_classes` classes:
/// empty for "none"; "balanced" as scikit-learn's compute_class_weight("balanced", ...):
/// N / (n_classes * count of the class), in float64; a list as given. Throws
/// Error(Config, "training.class_weights") for regression data, a list whose length is not
/// n_classes, and (balanced) a class without a training sample.
std::vector<double> classWeights(const ClassWeights& cw, const at::Tensor& y, int64_t n_classes,
                                 bool classification);

/// The weights as CrossEntropyLoss takes them: float32 [n_classes] (from float64, as
/// torch.tensor(weights, dtype=torch.float64).float()).
at::Tensor classWeightTensor(const std::vector<double>& weights);

/// data.sampler "weighted": each sample's weight 1 / (its class's count), float64 [N], as
/// WeightedRandomSampler is usually given for balanced classes. Throws
/// Error(Config, "data.sampler") for regression data.
at::Tensor balancedSampleWeights(const at::Tensor& y, int64_t n_classes, bool classification);

}  // namespace trainscope

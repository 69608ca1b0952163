#pragma once
/// The numbers of the Distributions view and TensorBoard's histograms (issue 49 §4): the
/// percentiles and histogram of a tensor's values, and the activations of each activation layer
/// over a validation batch with the dead-ReLU share. Torch inside; include from core/train only.
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "core/run/distribution_records.h"

namespace trainscope {

class Model;

/// Values a TensorDistribution describes at most: a bigger tensor's every k-th value (its
/// flattened order, k = ceil(numel / this)), so a tensor costs at most a few ms to describe.
inline constexpr int64_t kMaxDescribedValues = int64_t{1} << 18;

/// The distribution of the values of `values` (any shape, dtype and device; copied to float32
/// on the CPU; of a tensor with more than kMaxDescribedValues, every k-th): the
/// kDistributionPercentiles as numpy.percentile computes them (method "linear"; order
/// statistics by nth_element over the ranks needed, no sort), sum and sum of squares (float64), and a
/// kHistogramBuckets-bucket histogram between the minimum and maximum counted as
/// numpy.histogram(values, 30, range=(min, max)) counts it. Non-finite values are left out and
/// `finite` set false; no values: count 0, no buckets. `name` is copied into the result.
TensorDistribution describeValues(const at::Tensor& values, std::string name);

/// The dead share of ReLU output `activations` [N, ...]: the share of the per-sample positions
/// (every index of the trailing dimensions) that are exactly 0 in all N samples. NaN for N = 0.
double deadShare(const at::Tensor& activations);

/// For a chain-of-layers model (SequentialModel: mlp, cnn): runs `x` [N, ...input shape]
/// through the layers one by one in eval mode without gradients and describes the output of
/// each activation layer (describeValues, named "<index> <type>", e.g. "1 ReLU"), ReLU layers
/// with their deadShare. Restores the model's mode. Empty for other kinds.
std::vector<TensorDistribution> activationDistributions(Model& model, const at::Tensor& x);

}  // namespace trainscope

#pragma once
/// Distributions of weights, gradients and activations per layer over steps (issue 49 §4), as
/// plain torch-free records like records.h: the percentile bands TensorBoard's Distributions
/// dashboard draws and the histogram its Histograms dashboard draws.
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace trainscope {

/// The percentiles a TensorDistribution holds, in order: TensorBoard's distribution bands
/// (tensorboard/plugins/distribution/compressor.py NORMAL_HISTOGRAM_BPS: 0, 668, 1587, 3085,
/// 5000, 6915, 8413, 9332, 10000 basis points, i.e. the normal distribution's -inf, -1.5, -1,
/// -0.5, 0, 0.5, 1, 1.5, +inf sigma; shown rounded as 0/7/16/31/50/69/84/93/100) with the
/// quartiles 25 and 75 inserted, so a caption can say where half of the values lie.
inline constexpr std::array<double, 11> kDistributionPercentiles = {
    0, 6.68, 15.87, 25, 30.85, 50, 69.15, 75, 84.13, 93.32, 100};
/// Indices into TensorDistribution::percentiles.
enum DistributionIndex : int {
  kP0 = 0, kP7 = 1, kP16 = 2, kP25 = 3, kP31 = 4, kP50 = 5, kP69 = 6, kP75 = 7, kP84 = 8,
  kP93 = 9, kP100 = 10
};
/// Equal-width buckets between the minimum and maximum of a TensorDistribution's histogram
/// (TensorBoard's histogram summary v2 default bucket_count).
inline constexpr int kHistogramBuckets = 30;

/// The values of one tensor at one step: one parameter's weights or gradient, or one layer's
/// activations over a validation batch.
struct TensorDistribution {
  /// Parameters: their state_dict name ("0.weight"); activations: the layer's index and type
  /// ("1 ReLU").
  std::string name;
  int64_t count = 0;  ///< number of values; 0: none (or not finite: see finite)
  /// numpy.percentile(values, kDistributionPercentiles) (linear interpolation between the
  /// closest ranks) of the finite values.
  std::array<double, 11> percentiles{};
  double sum = 0, sum_squares = 0;  ///< of the finite values, in float64
  bool finite = true;               ///< false: some values were NaN or inf (left out above)
  /// Histogram (TensorBoard's HistogramProto): counts of values in kHistogramBuckets equal-width
  /// buckets from percentiles[kP0] to percentiles[kP100]; bucket i holds values in
  /// [edge_i, edge_i+1) and the last one includes the maximum (numpy.histogram's rule).
  /// bucket_limit[i] = edge_{i+1}. One bucket when all values are equal.
  std::vector<double> bucket_limit, bucket;
  /// ReLU layers: the share (0..1) of units (output features; for feature maps each channel and
  /// position) whose activation is exactly 0 for every sample of the batch ("dead"); NaN for
  /// other tensors.
  double dead_share = std::numeric_limits<double>::quiet_NaN();
};

/// One reading of the model (every training.distributions_every optimizer steps, after the
/// step's update).
struct DistributionRecord {
  int64_t step = 0;   ///< global step (1-based) just applied
  int64_t epoch = 0;  ///< 1-based epoch of that step
  /// Each parameter tensor in state_dict order: its weights after the update and its gradient as
  /// the optimizer applied it (after AMP's unscaling and clipping).
  std::vector<TensorDistribution> weights, gradients;
  /// Each activation layer of a chain-of-layers model (nn.ReLU, nn.Tanh, nn.GELU, nn.Sigmoid,
  /// in order) over the first `activation_samples` validation samples, in eval mode; empty for
  /// other kinds or without a validation split.
  std::vector<TensorDistribution> activations;
  int64_t activation_samples = 0;
};

}  // namespace trainscope

// Percentiles, histograms and dead-ReLU shares of weights, gradients and activations (issue 49
// §4).
#include "core/train/step/distributions.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/model/sequential_model.h"

namespace trainscope {

namespace {

/// numpy.percentile's value at rank q/100 (n-1) from the two closest order statistics a (rank
/// floor) and b (the next), interpolated as numpy's _lerp does (a + (b-a) t, computed from b's
/// side when t >= 0.5).
double lerp(double a, double b, double t) {
  const double diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/// Puts the order statistics `ranks` (sorted, indices into [0, n)) of v[begin, end) in place,
/// as a sort would: the middle rank by nth_element, then each side with its own ranks
/// (O(n log k) for k ranks, instead of a sort's O(n log n)).
void selectRanks(std::vector<float>& v, int64_t begin, int64_t end, const int64_t* r0,
                 const int64_t* r1) {
  if (r0 == r1 || end - begin <= 1) return;
  const int64_t* mid = r0 + (r1 - r0) / 2;
  std::nth_element(v.begin() + begin, v.begin() + *mid, v.begin() + end);
  selectRanks(v, begin, *mid, r0, mid);
  selectRanks(v, *mid + 1, end, mid + 1, r1);
}

}  // namespace

TensorDistribution describeValues(const at::Tensor& values, std::string name) {
  TensorDistribution d;
  d.name = std::move(name);
  at::Tensor flat = values.detach().reshape({-1});
  const int64_t stride = (flat.numel() + kMaxDescribedValues - 1) / kMaxDescribedValues;
  if (stride > 1) flat = flat.slice(0, 0, flat.numel(), stride);
  flat = flat.to(at::kCPU, at::kFloat).contiguous();
  std::vector<float> v(flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel());
  const auto bad = std::remove_if(v.begin(), v.end(), [](float x) { return !std::isfinite(x); });
  if (bad != v.end()) {
    d.finite = false;
    v.erase(bad, v.end());
  }
  const auto n = static_cast<int64_t>(v.size());
  d.count = n;
  if (n == 0) {
    d.percentiles.fill(std::numeric_limits<double>::quiet_NaN());
    return d;
  }
  double sum = 0, squares = 0;
  for (float x : v) {
    sum += x;
    squares += static_cast<double>(x) * x;
  }
  d.sum = sum;
  d.sum_squares = squares;
  // The order statistics the percentiles need (selectRanks, no sort).
  std::vector<int64_t> ranks;
  for (double q : kDistributionPercentiles) {
    const auto lo = static_cast<int64_t>(std::floor(q / 100.0 * static_cast<double>(n - 1)));
    ranks.push_back(lo);
    ranks.push_back(std::min(lo + 1, n - 1));
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  selectRanks(v, 0, n, ranks.data(), ranks.data() + ranks.size());
  const auto value = [&](int64_t rank) { return static_cast<double>(v[static_cast<std::size_t>(rank)]); };
  for (std::size_t i = 0; i < kDistributionPercentiles.size(); ++i) {
    const double rank = kDistributionPercentiles[i] / 100.0 * static_cast<double>(n - 1);
    const auto lo = static_cast<int64_t>(std::floor(rank));
    d.percentiles[i] = lerp(value(lo), value(std::min(lo + 1, n - 1)), rank - static_cast<double>(lo));
  }
  const double lo = d.percentiles[kP0], hi = d.percentiles[kP100];
  if (!(hi > lo)) {  // numpy widens an empty range by 0.5 each side: one bucket says it plainly
    d.bucket_limit = {hi};
    d.bucket = {static_cast<double>(n)};
    return d;
  }
  // numpy.histogram(v, 30, range=(lo, hi)): edges numpy.linspace(lo, hi, 31); a value's
  // bucket from its scaled offset, corrected by the edges themselves (numpy's own two fixes),
  // so bucket i holds [edge_i, edge_i+1) and the last one the maximum too.
  constexpr int kB = kHistogramBuckets;
  const double step = (hi - lo) / kB;
  std::array<double, kB + 1> edge{};
  for (int b = 0; b < kB; ++b) edge[static_cast<std::size_t>(b)] = b * step + lo;
  edge[kB] = hi;
  const double norm = kB / (hi - lo);
  std::array<int64_t, kB> count{};
  for (float x : v) {
    const double a = x;
    auto b = static_cast<int>((a - lo) * norm);
    b = std::clamp(b, 0, kB - 1);
    if (a < edge[static_cast<std::size_t>(b)] && b > 0) --b;
    else if (b < kB - 1 && a >= edge[static_cast<std::size_t>(b + 1)]) ++b;
    ++count[static_cast<std::size_t>(b)];
  }
  d.bucket_limit.assign(edge.begin() + 1, edge.end());
  d.bucket.assign(count.begin(), count.end());
  return d;
}

double deadShare(const at::Tensor& activations) {
  if (activations.dim() == 0 || activations.size(0) == 0)
    return std::numeric_limits<double>::quiet_NaN();
  const at::Tensor alive = (activations.detach().reshape({activations.size(0), -1}) != 0).any(0);
  const int64_t units = alive.numel();
  if (units == 0) return std::numeric_limits<double>::quiet_NaN();
  return 1.0 - static_cast<double>(alive.sum().item<int64_t>()) / static_cast<double>(units);
}

std::vector<TensorDistribution> activationDistributions(Model& model, const at::Tensor& x) {
  std::vector<TensorDistribution> out;
  auto* seq = dynamic_cast<SequentialModel*>(&model);
  if (!seq || !x.defined() || x.size(0) == 0) return out;
  const auto activations = seq->activationLayers();
  if (activations.empty()) return out;
  const bool was_training = model.is_training();
  model.train(false);
  torch::NoGradGuard no_grad;
  at::Tensor h = x;
  std::size_t done = 0;
  for (const auto& [index, type] : activations) {
    h = seq->forwardRange(h, done, index + 1);
    done = index + 1;
    TensorDistribution d = describeValues(h, std::to_string(index) + " " + type);
    if (type == "ReLU") d.dead_share = deadShare(h);
    out.push_back(std::move(d));
  }
  model.train(was_training);
  return out;
}

}  // namespace trainscope

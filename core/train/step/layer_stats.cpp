#include "core/train/step/layer_stats.h"

#include <ATen/ATen.h>

#include <cmath>

namespace trainscope {

namespace {

/// Reads a 1-D tensor of sums of squares in one transfer (one device sync on CUDA) and returns
/// their square roots as float64.
std::vector<double> sqrtOfAll(const at::Tensor& sums) {
  const at::Tensor host = sums.to(at::kCPU, at::kDouble).contiguous();
  const double* p = host.data_ptr<double>();
  std::vector<double> out(p, p + host.numel());
  for (double& v : out) v = std::sqrt(v);
  return out;
}

}  // namespace

LayerStats::LayerStats(const std::vector<at::Tensor>& params) {
  int64_t offset = 0;
  for (const auto& p : params) {
    offsets_.push_back(offset);
    numels_.push_back(p.numel());
    offset += p.numel();
  }
}

std::vector<double> LayerStats::gradNorms(const FlatGradients& grads) const {
  const at::Tensor& flat = grads.buffer();
  std::vector<at::Tensor> sums;
  sums.reserve(offsets_.size());
  for (size_t i = 0; i < offsets_.size(); ++i) {
    const at::Tensor g = flat.narrow(0, offsets_[i], numels_[i]);
    sums.push_back(at::dot(g, g));
  }
  if (sums.empty()) return {};
  return sqrtOfAll(at::stack(sums));
}

void LayerStats::rememberWeights(const std::vector<at::Tensor>& params) {
  if (params.empty()) return;
  if (!before_.defined()) {
    int64_t total = 0;
    for (auto n : numels_) total += n;
    before_ = at::empty({total}, params.front().options());
    delta_ = at::empty({total}, params.front().options());
  }
  for (size_t i = 0; i < params.size(); ++i)
    before_.narrow(0, offsets_[i], numels_[i]).copy_(params[i].detach().reshape({-1}));
}

std::vector<double> LayerStats::updateRatios(const std::vector<at::Tensor>& params) {
  if (params.empty()) return {};
  // Sums of squares, in the weights' dtype (as gradNorms): ||w0||^2 for every layer, then
  // ||w1 - w0||^2 for every layer, read in one transfer.
  const size_t n = params.size();
  std::vector<at::Tensor> sums(2 * n);
  for (size_t i = 0; i < n; ++i) {
    const at::Tensor w0 = before_.narrow(0, offsets_[i], numels_[i]);
    at::Tensor d = delta_.narrow(0, offsets_[i], numels_[i]);
    at::sub_out(d, params[i].detach().reshape({-1}), w0);
    sums[i] = at::dot(w0, w0);
    sums[n + i] = at::dot(d, d);
  }
  const std::vector<double> norms = sqrtOfAll(at::stack(sums));
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = norms[i] > 0 ? norms[n + i] / norms[i] : std::nan("");
  return out;
}

}  // namespace trainscope

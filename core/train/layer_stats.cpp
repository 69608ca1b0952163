#include "core/train/layer_stats.h"

#include <ATen/ATen.h>

#include <cmath>

namespace trainscope {

LayerStats::LayerStats(const std::vector<at::Tensor>& params) {
  int64_t offset = 0;
  for (const auto& p : params) {
    offsets_.push_back(offset);
    numels_.push_back(p.numel());
    offset += p.numel();
  }
}

std::vector<double> LayerStats::gradNorms(const FlatGradients& grads) const {
  std::vector<double> out;
  out.reserve(offsets_.size());
  const at::Tensor& flat = grads.buffer();
  for (size_t i = 0; i < offsets_.size(); ++i) {
    const at::Tensor g = flat.narrow(0, offsets_[i], numels_[i]);
    out.push_back(std::sqrt(at::dot(g, g).item<double>()));
  }
  return out;
}

void LayerStats::rememberWeights(const std::vector<at::Tensor>& params) {
  int64_t total = 0;
  for (auto n : numels_) total += n;
  if (!before_.defined()) before_ = at::empty({total}, params.front().options().dtype(at::kDouble));
  for (size_t i = 0; i < params.size(); ++i)
    before_.narrow(0, offsets_[i], numels_[i]).copy_(params[i].detach().reshape({-1}));
}

std::vector<double> LayerStats::updateRatios(const std::vector<at::Tensor>& params) const {
  std::vector<double> out;
  out.reserve(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const at::Tensor w0 = before_.narrow(0, offsets_[i], numels_[i]);
    const at::Tensor w1 = params[i].detach().reshape({-1}).to(at::kDouble);
    const double base = at::norm(w0).item<double>();
    const double step = at::norm(w1 - w0).item<double>();
    out.push_back(base > 0 ? step / base : std::nan(""));
  }
  return out;
}

}  // namespace trainscope

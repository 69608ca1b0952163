#include "core/train/step/flat_gradients.h"

#include <ATen/ATen.h>

#include <cmath>

#include "core/errors.h"

namespace trainscope {

FlatGradients::FlatGradients(const std::vector<at::Tensor>& params) : params_(params) {
  int64_t total = 0;
  for (const auto& p : params_) total += p.numel();
  if (params_.empty()) throw Error(ErrorCode::Internal, "", "model has no parameters");
  flat_ = at::zeros({total}, params_.front().options());
  int64_t offset = 0;
  for (auto& p : params_) {
    if (p.scalar_type() != flat_.scalar_type() || p.device() != flat_.device())
      throw Error(ErrorCode::Internal, "", "parameters differ in dtype or device");
    p.mutable_grad() = flat_.narrow(0, offset, p.numel()).view(p.sizes());
    offset += p.numel();
  }
}

void FlatGradients::zero() { flat_.zero_(); }

double FlatGradients::norm() const {
  // sqrt(g . g): one BLAS dot over the flat buffer is ~4x faster than at::norm here (12 vs 46 us
  // for 235k floats). Like clip_grad_norm_ in float32, a norm whose square overflows (> ~1.8e19)
  // comes out inf.
  return std::sqrt(at::dot(flat_, flat_).item<double>());
}

void FlatGradients::scale(double coef) { flat_.mul_(coef); }

bool FlatGradients::intact() const {
  const char* base = static_cast<const char*>(flat_.data_ptr());
  int64_t offset = 0;
  for (const auto& p : params_) {
    const at::Tensor& g = p.grad();
    if (!g.defined() ||
        static_cast<const char*>(g.data_ptr()) != base + offset * flat_.element_size())
      return false;
    offset += p.numel();
  }
  return true;
}

double clipCoefficient(double total_norm, double max_norm) {
  double coef = max_norm / (total_norm + 1e-6);
  return coef < 1.0 ? coef : 1.0;
}

}  // namespace trainscope

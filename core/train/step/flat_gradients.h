#pragma once
/// Gradient measurement and clipping over one flat gradient buffer.
#include <ATen/core/Tensor.h>

#include <vector>

namespace trainscope {

/// Holds every parameter's gradient in one contiguous buffer: each param.grad() is a view into
/// it, so the total norm is one reduction and clipping one multiply. Autograd accumulates into
/// the existing views in place (AccumulateGrad with grad mode off), so the views survive
/// backward(); zero() replaces optimizer.zero_grad() (which would not keep them).
/// All parameters must share one dtype and device.
class FlatGradients {
 public:
  explicit FlatGradients(const std::vector<at::Tensor>& params);
  /// Sets every gradient to zero (one memset).
  void zero();
  /// Total L2 norm over all gradients: the value torch.nn.utils.clip_grad_norm_(params,
  /// max_norm, norm_type=2) returns, computed as sqrt(g . g) in the gradients' dtype (float32).
  double norm() const;
  /// Multiplies every gradient by `coef` in place.
  void scale(double coef);
  /// The flat buffer: 1-D, numel = total parameter count.
  const at::Tensor& buffer() const { return flat_; }
  /// True when every parameter's grad still points into the buffer.
  bool intact() const;

 private:
  std::vector<at::Tensor> params_;
  at::Tensor flat_;
};

/// Clip coefficient of torch.nn.utils.clip_grad_norm_: max_norm / (total_norm + 1e-6),
/// applied only when it is < 1. Returns the factor actually applied (1 when not clipping).
double clipCoefficient(double total_norm, double max_norm);

}  // namespace trainscope

#pragma once
/// Per-parameter-tensor gradient norms and update-to-parameter ratios, from slices
/// of the flat gradient buffer. Internal to core (torch types).
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "core/train/step/flat_gradients.h"

namespace trainscope {

class LayerStats {
 public:
  /// `params`: the model's parameters in state_dict order (the order FlatGradients lays them
  /// out), all of one dtype and device.
  explicit LayerStats(const std::vector<at::Tensor>& params);

  /// L2 norm of each parameter's gradient, from its slice of `grads` (float32 dot products,
  /// like FlatGradients::norm). Non-finite gradients give inf or nan.
  std::vector<double> gradNorms(const FlatGradients& grads) const;

  /// Copies the current weights into one flat buffer of their dtype (call just before
  /// optimizer.step()).
  void rememberWeights(const std::vector<at::Tensor>& params);
  /// ||w_now - w_remembered|| / ||w_remembered|| per parameter (call just after the step).
  /// The difference and the sums of squares are computed in the weights' dtype (float32 dot
  /// products, as gradNorms) and read back together, so a CUDA run syncs once; NaN where
  /// ||w_remembered|| is 0.
  std::vector<double> updateRatios(const std::vector<at::Tensor>& params);

 private:
  std::vector<int64_t> offsets_, numels_;
  at::Tensor before_;  ///< flat copy of the weights before the step, in their dtype
  at::Tensor delta_;   ///< scratch: w_now - w_remembered, flat
};

}  // namespace trainscope

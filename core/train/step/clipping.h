#pragma once
/// Gradient clipping by the total norm, as torch.nn.utils.clip_grad_norm_ (torch/nn/utils/
/// clip_grad.py, PyTorch 1.13): total = the norm_type-norm of all gradients together,
/// factor = max_norm / (total + 1e-6), applied when < 1. Internal to core (torch types).
#include <ATen/core/Tensor.h>

#include <vector>

#include "core/config/config_fwd.h"
#include "core/train/step/flat_gradients.h"

namespace trainscope {

/// The p of `clip.norm_type` as a double: +inf for "inf" (nullopt).
double normTypeValue(const ClipConfig& clip);

/// Total norm of every gradient in the flat buffer: (sum |g|^p)^(1/p), or max |g| for p = inf
/// (0 for an empty buffer). p = 2 uses FlatGradients::norm() (one dot product).
double totalGradNorm(const FlatGradients& grads, double norm_type);

/// What clipping did in one step.
struct ClipOutcome {
  double norm = 0;          ///< total norm before clipping (clip_grad_norm_'s return value)
  double norm_clipped = 0;  ///< total norm of the gradient the optimizer uses
  bool clipped = false;     ///< the factor was < 1 and the gradients were scaled
};

/// Given `norm` = totalGradNorm(grads, normTypeValue(clip)): when clip.enabled and the norm is
/// finite, scales the gradients by min(1, max_norm / (norm + 1e-6)) in place, the factor
/// computed in the gradients' dtype as PyTorch does (float32 for float32 gradients). A non-finite
/// norm leaves the gradients as they are (the step will be skipped).
ClipOutcome clipFlatGradients(FlatGradients& grads, const ClipConfig& clip, double norm);

/// torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type) for plain parameters whose
/// .grad() may be undefined (unused layers): those are skipped, as PyTorch does. Returns the
/// total norm before clipping (0 when no gradient is defined). Throws Error(Config,
/// "training.clip.max_norm") for max_norm <= 0 or not finite.
double clipGradNorm(const std::vector<at::Tensor>& params, double max_norm, double norm_type);

}  // namespace trainscope

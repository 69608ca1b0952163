#include "core/train/step/clipping.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>

#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/system/number_format.h"

namespace trainscope {

double normTypeValue(const ClipConfig& clip) {
  return clip.norm_type ? static_cast<double>(*clip.norm_type)
                        : std::numeric_limits<double>::infinity();
}

double totalGradNorm(const FlatGradients& grads, double norm_type) {
  if (norm_type == 2) return grads.norm();
  const at::Tensor& flat = grads.buffer();
  if (flat.numel() == 0) return 0;
  if (std::isinf(norm_type)) return flat.abs().max().item<double>();
  return at::norm(flat, norm_type).item<double>();
}

ClipOutcome clipFlatGradients(FlatGradients& grads, const ClipConfig& clip, double norm) {
  ClipOutcome out;
  out.norm = norm;
  out.norm_clipped = out.norm;
  if (!clip.enabled || !std::isfinite(out.norm)) return out;
  // clip_grad_norm_ computes max_norm / (total_norm + 1e-6) as a tensor of the gradients'
  // dtype: in float32 for float32 gradients, which can differ from the double quotient in the
  // last bit (1 / (10 + 1e-6) -> 0.099999994f, not 0.09999999f).
  const bool f32 = grads.buffer().scalar_type() == at::kFloat;
  const double coef = f32 ? static_cast<double>(static_cast<float>(clip.max_norm) /
                                                (static_cast<float>(out.norm) + 1e-6f))
                          : clipCoefficient(out.norm, clip.max_norm);
  if (coef < 1.0) {
    grads.scale(coef);
    out.norm_clipped = out.norm * coef;
    out.clipped = true;
  }
  return out;
}

double clipGradNorm(const std::vector<at::Tensor>& params, double max_norm, double norm_type) {
  if (!(max_norm > 0) || !std::isfinite(max_norm))
    throw Error(
        ErrorCode::Config, "training.clip.max_norm",
        "training.clip.max_norm must be a finite number > 0, got " + formatNumber(max_norm));
  std::vector<at::Tensor> grads;
  for (const auto& p : params)
    if (p.grad().defined()) grads.push_back(p.grad());
  if (grads.empty()) return 0;
  double total = 0;
  if (std::isinf(norm_type)) {
    for (const auto& g : grads) total = std::max(total, g.abs().max().item<double>());
  } else {
    // torch: norm(stack([norm(g, p) for g in grads]), p)
    std::vector<at::Tensor> norms;
    for (const auto& g : grads) norms.push_back(at::norm(g, norm_type));
    total = at::norm(at::stack(norms), norm_type).item<double>();
  }
  const bool f32 = grads.front().scalar_type() == at::kFloat;  // the factor in that dtype
  const double coef =
      f32 ? static_cast<double>(static_cast<float>(max_norm) / (static_cast<float>(total) + 1e-6f))
          : clipCoefficient(total, max_norm);
  if (coef < 1.0)
    for (auto& g : grads) g.mul_(coef);
  return total;
}

}  // namespace trainscope

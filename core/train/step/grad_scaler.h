#pragma once
/// GradScaler: dynamic loss scaling for fp16 mixed precision, a C++ mirror of
/// torch.amp.GradScaler (torch/cuda/amp/grad_scaler.py in PyTorch 1.13, torch/amp/grad_scaler.py
/// in 2.x). libtorch's C++ API has none. Internal to core (torch types).
#include <ATen/core/Dict.h>
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <filesystem>

namespace trainscope {

class FlatGradients;

/// Constructor arguments of torch.amp.GradScaler, with its defaults.
struct GradScalerOptions {
  double init_scale = 65536.0;  ///< 2**16
  double growth_factor = 2.0;
  double backoff_factor = 0.5;
  int64_t growth_interval = 2000;
};

/// The per-step protocol, as in PyTorch:
///   backward(scaler.scale(loss)); found_inf = scaler.unscale(grads); measure/clip the now
///   unscaled gradients; if (!found_inf) optimizer.step(); scaler.update();
/// The scale is a float32 value (PyTorch keeps a float32 tensor), so growth and backoff round
/// exactly as there. Plain-tensor path (any device); on CUDA the fused
/// at::_amp_foreach_non_finite_check_and_unscale_ / at::_amp_update_scale_ kernels would give
/// the same numbers, and the plain path is what runs and is tested on CPU.
class GradScaler {
 public:
  explicit GradScaler(GradScalerOptions options = {});

  /// `loss * scale` (scale cast to the loss's dtype, like GradScaler.scale(outputs)).
  at::Tensor scale(const at::Tensor& loss) const;
  /// GradScaler.unscale_(optimizer) over the flat gradient buffer: multiplies every gradient by
  /// the float32 reciprocal of the scale (computed in double, then rounded to float, as
  /// PyTorch's `self._scale.double().reciprocal().float()`), and records whether any gradient
  /// is inf or NaN. Call once per optimizer step, before measuring or clipping. Returns
  /// found_inf.
  bool unscale(FlatGradients& grads);
  /// True when the last unscale() found an inf/NaN: the optimizer step must be skipped
  /// (GradScaler.step's `if not sum(found_inf): optimizer.step()`).
  bool foundInf() const { return found_inf_; }
  /// GradScaler.update() (the _amp_update_scale_ kernel): on found_inf the scale is multiplied
  /// by backoff_factor and the growth tracker reset; otherwise the tracker counts the clean
  /// step and, when it reaches growth_interval, the scale is multiplied by growth_factor (kept
  /// only when finite) and the tracker reset. Clears found_inf.
  void update();

  /// The current scale (a float32 value).
  double getScale() const { return scale_; }
  /// Consecutive clean steps since the last growth or backoff (PyTorch's _growth_tracker).
  int64_t growthTracker() const { return growth_tracker_; }
  const GradScalerOptions& options() const { return options_; }

  /// GradScaler.state_dict(): {"scale": float, "growth_factor": float, "backoff_factor":
  /// float, "growth_interval": int, "_growth_tracker": int} (Python floats/ints).
  c10::impl::GenericDict stateDict() const;
  /// GradScaler.load_state_dict(). Checks every key and type first; throws
  /// Error(Checkpoint, file) naming the key (and leaves the scaler untouched) on a bad dict.
  void loadStateDict(const c10::impl::GenericDict& dict, const std::filesystem::path& file = {});

 private:
  GradScalerOptions options_;
  float scale_;
  int64_t growth_tracker_ = 0;
  bool found_inf_ = false;
};

}  // namespace trainscope

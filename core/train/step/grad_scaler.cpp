// GradScaler: see grad_scaler.h. Semantics checked against PyTorch 1.13's
// torch/cuda/amp/grad_scaler.py and aten/src/ATen/native/cuda/AmpKernels.cu (_amp_update_scale_).
#include "core/train/step/grad_scaler.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/scalar_tensor.h>

#include <cmath>

#include "core/errors.h"
#include "core/io/checkpoint_file.h"
#include "core/train/step/flat_gradients.h"

namespace trainscope {

GradScaler::GradScaler(GradScalerOptions options)
    : options_(options), scale_(static_cast<float>(options.init_scale)) {}

at::Tensor GradScaler::scale(const at::Tensor& loss) const {
  return loss * at::scalar_tensor(static_cast<double>(scale_), loss.options());
}

bool GradScaler::unscale(FlatGradients& grads) {
  const at::Tensor& flat = grads.buffer();
  // inv_scale = self._scale.double().reciprocal().float()
  const float inv_scale = static_cast<float>(1.0 / static_cast<double>(scale_));
  // _amp_foreach_non_finite_check_and_unscale_: found_inf is set when any element is inf or
  // NaN; the gradients are multiplied by inv_scale either way.
  found_inf_ = flat.numel() > 0 && !flat.isfinite().all().item<bool>();
  flat.mul_(static_cast<double>(inv_scale));
  return found_inf_;
}

void GradScaler::update() {
  if (found_inf_) {
    scale_ = static_cast<float>(static_cast<double>(scale_) * options_.backoff_factor);
    growth_tracker_ = 0;
  } else {
    const int64_t successful = growth_tracker_ + 1;
    if (successful == options_.growth_interval) {
      const float grown = static_cast<float>(static_cast<double>(scale_) * options_.growth_factor);
      if (std::isfinite(grown)) scale_ = grown;
      growth_tracker_ = 0;
    } else {
      growth_tracker_ = successful;
    }
  }
  found_inf_ = false;
}

c10::impl::GenericDict GradScaler::stateDict() const {
  c10::impl::GenericDict d = makeStringDict();
  d.insert("scale", static_cast<double>(scale_));
  d.insert("growth_factor", options_.growth_factor);
  d.insert("backoff_factor", options_.backoff_factor);
  d.insert("growth_interval", options_.growth_interval);
  d.insert("_growth_tracker", growth_tracker_);
  return d;
}

void GradScaler::loadStateDict(const c10::impl::GenericDict& d, const std::filesystem::path& file) {
  auto bad = [&](const std::string& problem) -> void {
    throw Error(ErrorCode::Checkpoint, file.string(),
                "cannot load the GradScaler state" +
                    (file.empty() ? std::string() : " of " + file.string()) + ": " + problem);
  };
  auto get = [&](const char* key) -> const c10::IValue& {
    auto it = d.find(key);
    if (it == d.end()) bad(std::string("'") + key + "' is missing");
    return it->value();
  };
  auto number = [&](const char* key) {
    const c10::IValue& v = get(key);
    if (v.isDouble()) return v.toDouble();
    if (v.isInt()) return static_cast<double>(v.toInt());
    bad(std::string("'") + key + "' is not a number");
    return 0.0;
  };
  auto integer = [&](const char* key) {
    const c10::IValue& v = get(key);
    if (!v.isInt()) bad(std::string("'") + key + "' is not an integer");
    return v.toInt();
  };
  GradScalerOptions o;
  const double scale = number("scale");
  o.init_scale = options_.init_scale;
  o.growth_factor = number("growth_factor");
  o.backoff_factor = number("backoff_factor");
  o.growth_interval = integer("growth_interval");
  const int64_t tracker = integer("_growth_tracker");
  if (!(scale > 0) || !std::isfinite(scale)) bad("'scale' must be a positive finite number");
  if (!(o.growth_factor > 1)) bad("'growth_factor' must be > 1");
  if (!(o.backoff_factor > 0 && o.backoff_factor < 1)) bad("'backoff_factor' must be in (0, 1)");
  if (o.growth_interval < 1) bad("'growth_interval' must be >= 1");
  if (tracker < 0) bad("'_growth_tracker' must be >= 0");
  options_ = o;
  scale_ = static_cast<float>(scale);
  growth_tracker_ = tracker;
  found_inf_ = false;
}

}  // namespace trainscope

#include "core/train/step/autocast.h"

#include "core/system/torch_compat.h"

namespace trainscope {

at::ScalarType ampDtype(const c10::Device& device) {
  return device.is_cuda() ? at::kHalf : at::kBFloat16;
}

bool ampNeedsScaler(const c10::Device& device) { return device.is_cuda(); }

AutocastGuard::AutocastGuard(bool enabled, const c10::Device& device) {
  if (!enabled) return;
  active_ = true;
  type_ = device.is_cuda() ? c10::DeviceType::CUDA : c10::DeviceType::CPU;
  was_enabled_ = compat::isAutocastEnabled(type_);
  old_dtype_ = compat::autocastDtype(type_);
  compat::setAutocastDtype(type_, ampDtype(device));
  compat::setAutocastEnabled(type_, true);
}

AutocastGuard::~AutocastGuard() {
  if (!active_) return;
  compat::setAutocastEnabled(type_, was_enabled_);
  compat::setAutocastDtype(type_, old_dtype_);
}

void clearAutocastCache() { at::autocast::clear_cache(); }

}  // namespace trainscope

#pragma once
/// Autocast for the forward pass (torch.autocast in C++). Internal to core (torch types).
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

namespace trainscope {

/// The dtype AMP computes in on `device`: bf16 on CPU (torch.autocast("cpu")'s default; no
/// loss scaling needed: bf16 has float32's exponent range), fp16 on CUDA (with a GradScaler).
at::ScalarType ampDtype(const c10::Device& device);

/// True when AMP on `device` needs a GradScaler (fp16: CUDA only).
bool ampNeedsScaler(const c10::Device& device);

/// RAII `with torch.autocast(device_type, dtype=ampDtype(device)):` for the calling thread.
/// Autocast switches are thread-local: construct it on the training thread, around the forward
/// pass only (not the loss's backward, not the optimizer). Restores the previous switch and
/// dtype on destruction. `enabled == false` changes nothing. Does not clear the weight-cast
/// cache: call clearAutocastCache() after every optimizer step.
class AutocastGuard {
 public:
  AutocastGuard(bool enabled, const c10::Device& device);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  bool active_ = false;
  c10::DeviceType type_ = c10::DeviceType::CPU;
  bool was_enabled_ = false;
  at::ScalarType old_dtype_ = at::kFloat;
};

/// at::autocast::clear_cache(): drops the cached low-precision copies of the weights. A cache
/// kept across optimizer steps would feed the next forward pass stale weights.
void clearAutocastCache();

}  // namespace trainscope

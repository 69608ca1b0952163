#pragma once
/// The one place for differences between libtorch versions (Debian's 1.13 and official 2.x).
#include <ATen/autocast_mode.h>
#include <c10/core/DeviceType.h>
#include <torch/version.h>

#include <string>

namespace trainscope::compat {

/// "1.13.1"-style libtorch version from the headers we compiled against.
inline std::string torchVersion() {
#ifdef TORCH_VERSION
  return TORCH_VERSION;
#else
  return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH);
#endif
}

/// libtorch >= 2.4 replaced the per-device autocast switches (set_cpu_enabled,
/// set_autocast_cpu_dtype, set_enabled, ...) by set_autocast_enabled(device_type, ...).
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
#define TRAINSCOPE_AUTOCAST_BY_DEVICE 1
#else
#define TRAINSCOPE_AUTOCAST_BY_DEVICE 0
#endif

/// Whether autocast is on for `device` (CPU or CUDA) on the calling thread (thread-local).
inline bool isAutocastEnabled(c10::DeviceType device) {
#if TRAINSCOPE_AUTOCAST_BY_DEVICE
  return at::autocast::is_autocast_enabled(device);
#else
  return device == c10::DeviceType::CUDA ? at::autocast::is_enabled()
                                         : at::autocast::is_cpu_enabled();
#endif
}

/// torch.autocast's switch for `device` on the calling thread (thread-local).
inline void setAutocastEnabled(c10::DeviceType device, bool enabled) {
#if TRAINSCOPE_AUTOCAST_BY_DEVICE
  at::autocast::set_autocast_enabled(device, enabled);
#else
  if (device == c10::DeviceType::CUDA) {
    at::autocast::set_enabled(enabled);
  } else {
    at::autocast::set_cpu_enabled(enabled);
  }
#endif
}

/// The lower-precision dtype autocast casts to on `device`.
inline at::ScalarType autocastDtype(c10::DeviceType device) {
#if TRAINSCOPE_AUTOCAST_BY_DEVICE
  return at::autocast::get_autocast_dtype(device);
#else
  return device == c10::DeviceType::CUDA ? at::autocast::get_autocast_gpu_dtype()
                                         : at::autocast::get_autocast_cpu_dtype();
#endif
}

/// Sets the lower-precision dtype of autocast on `device`.
inline void setAutocastDtype(c10::DeviceType device, at::ScalarType dtype) {
#if TRAINSCOPE_AUTOCAST_BY_DEVICE
  at::autocast::set_autocast_dtype(device, dtype);
#else
  if (device == c10::DeviceType::CUDA) {
    at::autocast::set_autocast_gpu_dtype(dtype);
  } else {
    at::autocast::set_autocast_cpu_dtype(dtype);
  }
#endif
}

#if TRAINSCOPE_CUDA
/// The CUDA caching allocator's statistics of device `index` (its DeviceStats moved to
/// c10::CachingDeviceAllocator in libtorch 2.5). Only with TRAINSCOPE_CUDA (the CUDA runtime).
inline auto cudaDeviceStats(int index) {
  return c10::cuda::CUDACachingAllocator::getDeviceStats(index);
}
#endif

}  // namespace trainscope::compat

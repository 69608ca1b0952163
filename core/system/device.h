#pragma once
/// Resolving `training.device` to a torch::Device (ARCHITECTURE §3: never hard-code cuda).
#include <c10/core/Device.h>

#include <string>

namespace trainscope {

/// "auto" -> cuda:0 when torch::cuda::is_available(), else cpu; "cpu"; "cuda" (= cuda:0);
/// "cuda:N". Throws Error(Config, "training.device") when CUDA (or device N) is not available,
/// naming the reason.
c10::Device resolveDevice(const std::string& spec);

}  // namespace trainscope

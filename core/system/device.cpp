#include "core/system/device.h"

#include <torch/cuda.h>

#include "core/errors.h"
#include "core/system/number_format.h"
#include "core/system/device_info.h"

namespace trainscope {

c10::Device resolveDevice(const std::string& spec) {
  const bool cuda = torch::cuda::is_available();
  if (spec == "auto") return cuda ? c10::Device(c10::kCUDA, 0) : c10::Device(c10::kCPU);
  if (spec == "cpu") return c10::Device(c10::kCPU);
  if (!cuda)
    throw Error(ErrorCode::Config, "training.device",
                "training.device is '" + spec +
                    "' but CUDA is not available: " + probeDevices().cuda_unavailable_reason);
  std::optional<long long> index = spec == "cuda" ? 0 : parseInteger(spec.substr(5));
  if (!index || *index < 0 || *index >= static_cast<long long>(torch::cuda::device_count()))
    throw Error(ErrorCode::Config, "training.device",
                "training.device is '" + spec + "' but only " +
                    std::to_string(torch::cuda::device_count()) + " CUDA device(s) exist");
  return c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(*index));
}

}  // namespace trainscope

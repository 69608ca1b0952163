#pragma once
/// JSON form of DeviceInfo (`trainscope-cli device --json`). Torch-free.
#include <nlohmann/json.hpp>

#include "core/system/device_info.h"

namespace trainscope {

/// Every DeviceInfo field under its own name.
nlohmann::json toJson(const DeviceInfo& info);

}  // namespace trainscope

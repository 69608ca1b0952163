#pragma once
/// Internal to core/config: the key tables that drive reading, writing and validating configs.
#include <nlohmann/json.hpp>

#include "core/config/config_fwd.h"

namespace trainscope::config_keys {

/// Every key of `config`, as a complete JSON object (the shape of the defaults).
nlohmann::json write(const TrainConfig& config);

/// Reads every key from a complete JSON object (the defaults merged with the input), checking
/// only JSON types (ranges and choices are validate()'s). Throws Error(Config, key).
TrainConfig read(const nlohmann::json& full);

}  // namespace trainscope::config_keys

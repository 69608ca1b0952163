// Precompiled header of core's torch-free layer (trainscope_core_base): the standard library
// headers most of its files use and nlohmann_json. No torch, no Qt.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config/config_diff.h"

#include "core/config/config_json.h"
#include "core/config/train_config.h"

namespace trainscope {
namespace {

/// Leaves of `j` as dotted keys (objects are descended, arrays and scalars are leaves).
void flatten(const nlohmann::json& j, const std::string& prefix,
             std::vector<std::pair<std::string, const nlohmann::json*>>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else {
    out.emplace_back(prefix, &j);
  }
}

}  // namespace

std::vector<ConfigChange> configChanges(const TrainConfig& before, const TrainConfig& after) {
  const nlohmann::json a = configToJson(before), b = configToJson(after);
  std::vector<std::pair<std::string, const nlohmann::json*>> leaves_a, leaves_b;
  flatten(a, "", leaves_a);
  flatten(b, "", leaves_b);
  std::vector<ConfigChange> changes;
  for (const auto& [key, value] : leaves_b) {
    if (key == "name") continue;
    const nlohmann::json* old_value = nullptr;
    for (const auto& [k, v] : leaves_a)
      if (k == key) old_value = v;
    if (old_value && *old_value == *value) continue;
    changes.push_back({key, old_value ? old_value->dump() : "null", value->dump()});
  }
  return changes;
}

bool comparableRuns(const TrainConfig& a, const TrainConfig& b) {
  const DataConfig &x = a.data, &y = b.data;
  return x.source == y.source && x.path == y.path && x.target_scale == y.target_scale &&
         x.standardize == y.standardize;
}

}  // namespace trainscope

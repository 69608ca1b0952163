// The experiment log's queries (see run_table.h): a row's cell as text, sorting, filtering and
// the config keys that differ among runs. Split from run_table.cpp (reading rows, the index).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/errors.h"
#include "core/system/number_format.h"
#include "core/run/run_table.h"

namespace trainscope {

using json = nlohmann::json;

std::string runCell(const RunRow& row, const std::string& key) {
  auto it = row.values.find(key);
  if (it == row.values.end() || it->is_null()) return "-";
  if (it->is_boolean()) return it->get<bool>() ? "yes" : "no";
  if (it->is_number_integer()) return std::to_string(it->get<int64_t>());
  if (it->is_number()) return formatHuman(it->get<double>());
  if (it->is_string()) {
    const std::string& v = it->get<std::string>();
    // started: "2026-12-04T17:05:08+0000" reads as "2026-12-04 17:05:08" (the run's local
    // time; --json and --csv keep the ISO form with its offset)
    if (key == "started" && v.size() >= 19 && v[10] == 'T') return v.substr(0, 10) + " " + v.substr(11, 8);
    return v.empty() ? "-" : v;
  }
  return it->dump();
}

namespace {

/// A dotted config key of configKeyInfos() ("optimizer.lr"), or a section of them ("model.cnn").
bool isConfigKey(const std::string& key) {
  static const std::vector<ConfigKeyInfo> infos = configKeyInfos();
  for (const auto& k : infos)
    if (k.key == key || k.key.rfind(key + ".", 0) == 0) return true;
  return false;
}

bool isColumn(const std::string& key) {
  for (const auto& c : runColumns())
    if (c.key == key) return true;
  return false;
}

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

/// config.json's value at a dotted key, as compact JSON text; nullopt when absent.
std::optional<std::string> configValue(const json& config, const std::string& key) {
  const json* node = configAt(config, key);
  if (!node) return std::nullopt;
  return node->is_string() ? node->get<std::string>() : node->dump();
}

/// config.json's value at a dotted key as a cell: numbers, text and booleans as they are, a list
/// or object as its JSON text; null when absent.
json configNode(const json& config, const std::string& key) {
  const json* node = configAt(config, key);
  if (!node) return nullptr;
  if (node->is_object() || node->is_array()) return node->dump();  // one cell
  return *node;
}

}  // namespace

bool isRunColumnOrConfigKey(const std::string& key) { return isColumn(key) || isConfigKey(key); }

void addConfigColumns(std::vector<RunRow>& rows, const std::vector<std::string>& keys,
                      const std::string& option) {
  for (const std::string& key : keys) {
    if (isColumn(key)) continue;
    if (!isConfigKey(key)) {
      std::string names;
      for (const auto& c : runColumns()) names += (names.empty() ? "" : ", ") + c.key;
      throw Error(ErrorCode::Config, option,
                  option + ": no column '" + key + "', and it is not a config key (see "
                  "`trainscope-cli config --keys`); the columns: " + names);
    }
    for (RunRow& row : rows) row.values[key] = configNode(row.config, key);
  }
}

void sortRuns(std::vector<RunRow>& rows, const std::string& key_in, bool descending) {
  if (!isColumn(key_in)) addConfigColumns(rows, {key_in}, "--sort");
  const std::string key = key_in == "epochs" ? "epochs_done" : key_in;  // "3/10" by its number
  // A number, or "inf" / "-inf" / "nan" (non-finite values are stored as text); NaN as unknown.
  auto number = [&](const json& v) -> std::optional<double> {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      const auto p = parseNumber(v.get<std::string>());
      if (p && !std::isnan(*p)) return p;
    }
    return std::nullopt;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const RunRow& a, const RunRow& b) {
    const json& x = a.values[key];
    const json& y = b.values[key];
    const auto nx = number(x), ny = number(y);
    const int rx = nx ? 0 : (x.is_null() || (x.is_string() && x.get<std::string>() == "nan")) ? 2 : 1;
    const int ry = ny ? 0 : (y.is_null() || (y.is_string() && y.get<std::string>() == "nan")) ? 2 : 1;
    if (rx != ry) return rx < ry;  // unknown values last, whatever the direction
    if (rx == 2) return false;
    const bool less = rx == 0 ? *nx < *ny : runCell(a, key) < runCell(b, key);
    const bool greater = rx == 0 ? *ny < *nx : runCell(b, key) < runCell(a, key);
    return descending ? greater : less;
  });
}

bool runMatches(const RunRow& row, const std::string& filter) {
  const auto eq = filter.find('=');
  if (eq == 0)
    throw Error(ErrorCode::Config, "--filter", "--filter " + filter + ": no key before '='");
  if (eq != std::string::npos) {
    const std::string key = filter.substr(0, eq);
    const std::string text = lower(filter.substr(eq + 1));
    if (isColumn(key)) return lower(runCell(row, key)).find(text) != std::string::npos;
    if (isConfigKey(key)) {
      const auto value = configValue(row.config, key);
      return value && lower(*value).find(text) != std::string::npos;
    }
    throw Error(ErrorCode::Config, "--filter",
                "--filter " + filter + ": '" + key + "' is neither a column nor a config key");
  }
  const std::string text = lower(filter);
  for (const auto& c : runColumns())
    if (lower(runCell(row, c.key)).find(text) != std::string::npos) return true;
  return false;
}

std::vector<ConfigDifference> configDifferences(const std::vector<RunRow>& rows) {
  // Flattened leaves (dotted keys) of each config; a list is one leaf.
  std::vector<std::map<std::string, std::string>> flat(rows.size());
  std::set<std::string> keys;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::pair<std::string, const json*>> stack{{"", &rows[i].config}};
    while (!stack.empty()) {
      auto [prefix, node] = stack.back();
      stack.pop_back();
      if (node->is_object() && !node->empty()) {
        for (auto it = node->begin(); it != node->end(); ++it)
          stack.emplace_back(prefix.empty() ? it.key() : prefix + "." + it.key(), &it.value());
      } else if (!prefix.empty()) {
        flat[i][prefix] = node->dump();
        keys.insert(prefix);
      }
    }
  }
  std::vector<ConfigDifference> out;
  for (const auto& key : keys) {
    if (key == "name") continue;
    ConfigDifference d{key, {}};
    for (const auto& f : flat) {
      auto it = f.find(key);
      d.values.push_back(it == f.end() ? "-" : it->second);
    }
    if (std::adjacent_find(d.values.begin(), d.values.end(), std::not_equal_to<>()) != d.values.end())
      out.push_back(std::move(d));
  }
  return out;
}

}  // namespace trainscope

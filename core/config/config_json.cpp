// Config JSON: defaults, merging, --set parsing, files (ARCHITECTURE §6). The keys themselves
// are declared once, in config_keys.cpp.
#include "core/config/config_json.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/config/config_file.h"
#include "core/config/config_keys.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"

namespace trainscope {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& key, const std::string& message) {
  throw Error(ErrorCode::Config, key, message);
}

std::string show(const json& value) { return value.dump(); }

std::string join(const std::string& where, const std::string& key) {
  return where.empty() ? key : where + "." + key;
}

}  // namespace

nlohmann::json defaultConfigJson() { return configToJson(TrainConfig{}); }

void mergeConfigJson(nlohmann::json& target, const nlohmann::json& patch,
                     const std::string& where) {
  if (!patch.is_object()) {
    fail(where.empty() ? "config" : where, (where.empty() ? std::string("a config") : where) +
                                               " must be a JSON object, got " + show(patch));
  }
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    std::string key = join(where, it.key());
    if (!target.is_object() || !target.contains(it.key())) fail(key, "unknown config key " + key);
    json& slot = target[it.key()];
    if (slot.is_object()) {
      mergeConfigJson(slot, it.value(), key);
    } else {
      slot = it.value();
    }
  }
}

void applySet(nlohmann::json& config, const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    fail(assignment, "--set expects KEY=VALUE, got '" + assignment + "'");
  }
  std::string key = assignment.substr(0, eq);
  std::string text = assignment.substr(eq + 1);
  json value = parseJson(text, false);
  if (value.is_discarded()) value = text;  // not JSON: take it as a string

  // Walk the dotted path through the defaults so unknown keys are reported with their full name.
  json patch = value;
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) patch = json{{*it, patch}};
  const json* node = &config;
  std::string path;
  for (size_t i = 0; i < parts.size(); ++i) {
    path = join(path, parts[i]);
    if (parts[i].empty() || !node->is_object() || !node->contains(parts[i]))
      fail(key, "unknown config key " + key);
    node = &(*node)[parts[i]];
  }
  if (node->is_object()) {
    if (!value.is_object())
      fail(key, key + " is a section; set one of its keys, e.g. " + key + "." +
                    node->begin().key() + "=...");
  }
  mergeConfigJson(config, patch);
}

TrainConfig configFromJson(const nlohmann::json& in) {
  // Start from the defaults so partial input works and unknown keys are found.
  json j = defaultConfigJson();
  mergeConfigJson(j, in);
  TrainConfig c = config_keys::read(j);  // JSON types
  validate(c);                           // ranges and choices
  return c;
}

nlohmann::json configToJson(const TrainConfig& c) { return config_keys::write(c); }

nlohmann::json readConfigFile(const std::filesystem::path& path) {
  if (auto problem = notRegularFileProblem(path))
    throw Error(ErrorCode::Config, path.string(),
                "config file " + (path.empty() ? std::string("\"\"") : path.string()) + ": " +
                    *problem + (*problem == "it is a directory, not a file"
                                    ? std::string(" (a JSON file is expected)")
                                    : std::string()));
  std::ifstream in(path);
  if (!in)
    throw Error(ErrorCode::Config, path.string(), "cannot read config file " + path.string());
  std::stringstream buffer;
  buffer << in.rdbuf();
  json j;
  try {
    j = parseJson(buffer.str());
  } catch (const json::parse_error& e) {
    throw Error(ErrorCode::Config, path.string(),
                "config file " + path.string() + " is not valid JSON: " + e.what());
  }
  if (!j.is_object())
    throw Error(ErrorCode::Config, path.string(),
                "config file " + path.string() + " must contain a JSON object");
  return j;
}

bool isConfigPathKey(const std::string& name) {
  return name == "path" || (name.size() > 5 && name.compare(name.size() - 5, 5, "_path") == 0);
}

namespace {

/// Rewrites every relative path of a config file's JSON (a string under a key named "path" or
/// ending in "_path", at any depth: data.csv.path, data.npy.y_path, model.torchscript.path ...)
/// against `folder`, the file's own folder: a config names its data as CMake and Docker
/// Compose files do, relative to itself, whatever the working directory.
void resolveRelativePaths(json& j, const std::filesystem::path& folder) {
  for (auto it = j.begin(); j.is_object() && it != j.end(); ++it) {
    const std::string& key = it.key();
    const bool path_key = isConfigPathKey(key);
    if (it->is_object()) {
      resolveRelativePaths(*it, folder);
    } else if (path_key && it->is_string() && !it->get<std::string>().empty()) {
      const std::filesystem::path p = it->get<std::string>();
      if (p.is_relative()) *it = (folder / p).lexically_normal().string();
    }
  }
}

/// configFileJson; `check` false leaves the checks to the caller (who applies --set first).
json configFileJsonChecked(const std::filesystem::path& config_file, const std::string& preset,
                           bool check) {
  json file = readConfigFile(config_file);
  {
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(config_file, ec);
    if (!ec) resolveRelativePaths(file, absolute.parent_path());
  }
  const std::string path = config_file.string();
  std::string base = preset;
  if (auto it = file.find(kConfigPresetKey); it != file.end()) {
    if (!it->is_string() || it->get<std::string>().empty())
      throw Error(ErrorCode::Config, kConfigPresetKey,
                  path +
                      ": \"preset\" must be the name of a preset (see `trainscope-cli "
                      "presets`), got " +
                      show(*it));
    const std::string named = it->get<std::string>();
    if (!preset.empty() && named != preset)
      throw Error(ErrorCode::Config, kConfigPresetKey,
                  "--preset " + preset + " and " + path + "'s \"preset\": \"" + named +
                      "\" name different bases; give only one (drop --preset, or the file's "
                      "\"preset\" key)");
    base = named;
    file.erase(it);
  }
  json j = defaultConfigJson();
  if (base == preset) {
    if (!base.empty()) mergeConfigJson(j, presetJson(base));  // --preset's own error
  } else {
    try {
      mergeConfigJson(j, presetJson(base));
    } catch (const Error& e) {  // the file's "preset"
      throw Error(ErrorCode::Config, e.subject(), path + ": " + e.what());
    }
  }
  try {
    mergeConfigJson(j, file);
    // Named by the file, else by --preset when one was given, else after the file.
    if (!file.contains("name") && preset.empty()) j["name"] = config_file.stem().string();
    if (check) configFromJson(j);  // report the file's own errors with its name
  } catch (const Error& e) {
    throw Error(ErrorCode::Config, e.subject(), path + ": " + e.what());
  }
  return j;
}

}  // namespace

nlohmann::json configFileJson(const std::filesystem::path& config_file, const std::string& preset) {
  return configFileJsonChecked(config_file, preset, true);
}

TrainConfig resolveConfig(const std::string& preset, const std::filesystem::path& config_file,
                          const std::vector<std::string>& sets) {
  json j;
  if (!config_file.empty()) {
    // With --set the file is checked after the overrides: a template file may leave a key
    // (data.csv.path) for --set to fill in.
    j = configFileJsonChecked(config_file, preset, sets.empty());
  } else {
    j = defaultConfigJson();
    mergeConfigJson(j, presetJson(preset.empty() ? defaultPresetName() : preset));
  }
  for (const auto& s : sets) applySet(j, s);
  try {
    return configFromJson(j);
  } catch (const Error& e) {
    // The file's own problem (not a key --set gave): named with the file, as without --set.
    const bool from_set = std::any_of(sets.begin(), sets.end(), [&](const std::string& s) {
      return s.compare(0, e.subject().size() + 1, e.subject() + "=") == 0;
    });
    if (config_file.empty() || from_set || e.code() != ErrorCode::Config) throw;
    throw Error(ErrorCode::Config, e.subject(), config_file.string() + ": " + e.what());
  }
}

void saveConfigFile(const std::filesystem::path& path, const TrainConfig& config) {
  writeFileAtomic(path, configToJson(config).dump(2) + "\n");
}

const nlohmann::json* configAt(const nlohmann::json& config, const std::string& key) {
  const nlohmann::json* node = &config;
  size_t start = 0;
  while (start <= key.size()) {
    size_t dot = key.find('.', start);
    if (dot == std::string::npos) dot = key.size();
    if (!node->is_object()) return nullptr;
    auto it = node->find(key.substr(start, dot - start));
    if (it == node->end()) return nullptr;
    node = &*it;
    start = dot + 1;
  }
  return node;
}

}  // namespace trainscope

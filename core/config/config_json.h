#pragma once
/// The JSON form of TrainConfig (ARCHITECTURE §6): defaults, presets, merging, `--set`,
/// reading and writing config files. Precedence: defaults < preset < file < --set.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"

namespace trainscope {

/// The built-in defaults as a complete JSON object (every key present; nullable keys are
/// null): configToJson(TrainConfig{}).
nlohmann::json defaultConfigJson();

/// The partial JSON of a preset. Throws Error(Config, "preset") naming the unknown preset.
nlohmann::json presetJson(const std::string& name);

/// Merges `patch` into `target` key by key (objects recursively, everything else replaced).
/// Throws Error(Config, key) for a key that does not exist in the defaults.
void mergeConfigJson(nlohmann::json& target, const nlohmann::json& patch,
                     const std::string& where = "");

/// Applies one `KEY=VALUE` override: VALUE is parsed as JSON where it parses, else taken as a
/// string. Throws Error(Config, key) for a malformed assignment or unknown key.
void applySet(nlohmann::json& config, const std::string& assignment);

/// Converts a (possibly partial) JSON config, merged over the defaults, and validates it
/// (validate()). Throws Error(Config, key) naming the key and the bad value
/// ("training.batch_size must be >= 1, got 0").
TrainConfig configFromJson(const nlohmann::json& config);
/// The complete JSON form of a config (round-trips through configFromJson).
nlohmann::json configToJson(const TrainConfig& config);
/// True for a key that names a file or folder: "path" or ending in "_path" (data.csv.path,
/// data.npy.y_path, model.torchscript.path ...; `name` is the last part of the key).
bool isConfigPathKey(const std::string& name);

/// A config's node at a dotted key ("optimizer.lr" -> config["optimizer"]["lr"]); nullptr when
/// absent. Any JSON object walks alike (config.json, a sweep's base config).
const nlohmann::json* configAt(const nlohmann::json& config, const std::string& key);

/// Reads a (possibly partial) config file and returns its JSON. Throws Error(Config, path) when
/// the file cannot be read or is not a JSON object.
nlohmann::json readConfigFile(const std::filesystem::path& path);

/// defaults < preset (none and no file: the default preset) < file (configFileJson in
/// config_file.h: it may name its base "preset") < sets, validated. Throws Error(Config, ...).
TrainConfig resolveConfig(const std::string& preset, const std::filesystem::path& config_file,
                          const std::vector<std::string>& sets);

/// Writes the config as pretty JSON atomically (temp file + rename). Throws Error(Io, path).
void saveConfigFile(const std::filesystem::path& path, const TrainConfig& config);

}  // namespace trainscope

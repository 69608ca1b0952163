#pragma once
/// What a config file may hold and how one is read: the key reference (every key with its type,
/// default, allowed values and help, from the key table in core/config/config_keys.cpp; for
/// `trainscope-cli config --keys` and docs/config-keys.md) and a file over its base preset.
/// The rest of the JSON form is core/config/config_json.h.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

/// One config key as the key table declares it.
struct ConfigKeyInfo {
  std::string key;   ///< dotted name: "training.clip.max_norm"
  std::string type;  ///< "string", "string or null", "integer", "integer or \"auto\"", "number",
                     ///< "boolean", "list of integers", "list of 2 numbers"
  nlohmann::json default_value;    ///< the built-in default, as config.json writes it
  std::optional<double> min, max;  ///< bounds of a number (of each element of a list)
  bool min_exclusive = false, max_exclusive = false;
  std::vector<std::string> choices;  ///< the allowed strings, when the key has a fixed set
  std::string rule;     ///< a string's format rule ("must be auto, cpu, cuda or cuda:N"), else ""
  std::string allowed;  ///< the allowed values in words: "0 < x < 1", "sgd, adam, adamw", ...
  std::string help;     ///< one line, English
  /// A live setting: it changes while a run goes on (Trainer::setLearningRate, setClipping,
  /// setAmp), marked `.live()` in the key table.
  bool live = false;
};

/// Every config key, section by section in the key table's order (name, data.*, model.*, ...).
std::vector<ConfigKeyInfo> configKeyInfos();

/// Whether config key `key` (dotted, e.g. "data.noise") takes effect in a run of `config` (a
/// config's JSON: its data.source, model.kind and optimizer.name; `task` "classification" or
/// "regression" where the data is known, else ""): another source's or model kind's section,
/// data.noise / data.n_samples of files, data.path / data.limit of generated data, data.seq_len
/// of non-sequences, data.target_scale of classes, data.stratify of regression, model.hidden
/// outside the MLP (a CNN's widths are model.cnn.hidden), model.activation of an RNN or a
/// TorchScript module, model.dropout of TorchScript, optimizer.momentum of Adam and
/// optimizer.betas of SGD do not (the report leaves them out; config.json keeps every key).
/// Unknown names count as applying.
bool configKeyApplies(const std::string& key, const nlohmann::json& config,
                      const std::string& task = "");

/// The key of a config file that names its base preset: `{"preset": "moons", ...}`. It is not
/// a config key: config.json (fully resolved) never holds it.
inline constexpr const char* kConfigPresetKey = "preset";

/// The complete JSON that a config file describes: defaults < its base preset < its keys. The
/// base is the file's "preset" key, else `preset` (--preset); a file naming another preset than
/// a non-empty `preset` is refused (Error(Config, "preset") naming both), as is an unknown one
/// (Error(Config, "preset") naming it and the file). Without a base the file lies over the
/// defaults. The run is named by the file's "name", else by `preset` when given, else by the
/// file's stem. Relative paths in the file (keys "path" and "*_path") resolve against the
/// file's folder, not the working directory. Errors of the file's own keys name the
/// file (Error(Config, key)). Validated (configFromJson accepts it).
nlohmann::json configFileJson(const std::filesystem::path& config_file,
                              const std::string& preset = "");

}  // namespace trainscope

#pragma once
/// TrainConfig: the whole configuration of one run (ARCHITECTURE §6), its JSON form, defaults,
/// built-in presets and validation. Torch-free.
#include <array>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

/// `data.*`: where samples come from and how they are split and standardised.
struct DataConfig {
  std::string source = "sine";      ///< sine | moons | fashion-mnist
  std::optional<std::string> path;  ///< folder of IDX .gz files (fashion-mnist); null = default
  int64_t seed = 0;                 ///< generates synthetic data, draws limit and split
  int64_t n_samples = 200;          ///< synthetic sources only
  double noise = 0.1;               ///< synthetic sources: std of the Gaussian noise
  double val_fraction = 0.2;        ///< fraction of the training pool held out for validation
  std::optional<int64_t> limit;  ///< take N samples of the pool (seeded shuffle) before the split
  bool standardize = true;       ///< per-feature (tabular) / per-channel (images) z-scoring
};

/// `model.*`: an MLP built as torch::nn::Sequential.
struct ModelConfig {
  std::string kind = "mlp";
  std::vector<int64_t> hidden{128, 128};  ///< hidden layer widths
  std::string activation = "relu";        ///< relu | tanh | gelu | sigmoid
  double dropout = 0.0;                   ///< torch::nn::Dropout p after each hidden activation
};

/// `optimizer.*`: same names and meanings as torch.optim.SGD / Adam / AdamW.
struct OptimizerConfig {
  std::string name = "adam";  ///< sgd | adam | adamw
  double lr = 1e-3;
  double momentum = 0.0;  ///< sgd only
  double weight_decay = 0.0;
  std::array<double, 2> betas{0.9, 0.999};  ///< adam / adamw
};

/// `training.clip.*`: gradient clipping by total L2 norm (torch.nn.utils.clip_grad_norm_).
struct ClipConfig {
  bool enabled = false;
  double max_norm = 1.0;
};

/// `training.*`
struct TrainingConfig {
  int64_t epochs = 10;
  int64_t batch_size = 32;
  std::optional<int64_t> seed;  ///< 0..2^31-1; null = draw one and record it
  ClipConfig clip;
  std::string device = "auto";            ///< auto | cpu | cuda | cuda:N
  std::optional<int64_t> num_threads;     ///< null = all cores (OMP_NUM_THREADS wins when set)
  std::optional<std::string> non_finite;  ///< pause | stop | skip; null = the front end's default
};

/// The resolved configuration of one run.
struct TrainConfig {
  std::string name = "run";  ///< used to name the run directory
  DataConfig data;
  ModelConfig model;
  OptimizerConfig optimizer;
  TrainingConfig training;
};

/// A built-in preset: a named partial config with a fixed seed.
struct PresetInfo {
  std::string name;
  std::string description;  ///< one line, English
};

/// The built-in defaults as a complete JSON object (every key present; nullable keys are null).
nlohmann::json defaultConfigJson();

/// The built-in presets, the default (`overfit-sine`) first.
std::vector<PresetInfo> presets();
/// Name of the preset used when none is given.
std::string defaultPresetName();
/// The partial JSON of a preset. Throws Error(Config, "preset") naming the unknown preset.
nlohmann::json presetJson(const std::string& name);

/// Merges `patch` into `target` key by key (objects recursively, everything else replaced).
/// Throws Error(Config, key) for a key that does not exist in the defaults.
void mergeConfigJson(nlohmann::json& target, const nlohmann::json& patch,
                     const std::string& where = "");

/// Applies one `KEY=VALUE` override: VALUE is parsed as JSON where it parses, else taken as a
/// string. Throws Error(Config, key) for a malformed assignment or unknown key.
void applySet(nlohmann::json& config, const std::string& assignment);

/// Validates a complete JSON config and converts it. Throws Error(Config, key) naming the key
/// and the bad value ("training.batch_size must be > 0, got 0").
TrainConfig configFromJson(const nlohmann::json& full);
/// The complete JSON form of a config (round-trips through configFromJson).
nlohmann::json configToJson(const TrainConfig& config);

/// Reads a (possibly partial) config file and returns its JSON. Throws Error(Config, path) when
/// the file cannot be read or is not a JSON object.
nlohmann::json readConfigFile(const std::filesystem::path& path);

/// defaults < preset < file < sets, validated. `preset` empty means no preset (defaults only
/// when no file either: then the default preset is used). Throws Error(Config, ...).
TrainConfig resolveConfig(const std::string& preset, const std::filesystem::path& config_file,
                          const std::vector<std::string>& sets);

/// Writes the config as pretty JSON atomically (temp file + rename). Throws Error(Io, path).
void saveConfigFile(const std::filesystem::path& path, const TrainConfig& config);

}  // namespace trainscope

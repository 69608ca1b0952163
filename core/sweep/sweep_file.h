#pragma once
/// A sweep file (README "Sweeps"): the base run, the parameters to vary, the method, the
/// objective, the budget and the executor, read and checked before anything runs. Torch-free.
///
///   {"name": "lr-width",
///    "base": {"preset": "moons", "set": {"training.epochs": 3}},
///    "parameters": {"optimizer.lr": {"log_uniform": [1e-4, 1e-1]},
///                   "model.hidden": {"choices": [[16], [64], [16, 16]]}},
///    "method": "random", "seed": 1, "max_trials": 8, "concurrent": 2,
///    "objective": {"metric": "best_val_loss", "goal": "minimize"},
///    "pruner": {"kind": "none"}, "executor": {"kind": "local"}}
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

/// One varied config key and its space (W&B's and Optuna's names: choices = categorical,
/// uniform, log_uniform, int_uniform; both bounds inclusive for integers).
struct SweepParameter {
  enum class Kind { Choices, Uniform, LogUniform, IntUniform };
  std::string key;  ///< a config key the key table declares ("optimizer.lr")
  Kind kind = Kind::Choices;
  std::vector<nlohmann::json> choices;  ///< Choices: the values, as JSON
  double low = 0, high = 0;             ///< the ranges' bounds
  /// Discrete: Choices and IntUniform (the grid and sampling without replacement use them).
  bool discrete() const { return kind == Kind::Choices || kind == Kind::IntUniform; }
  /// The number of values of a discrete parameter (0 for a continuous one).
  int64_t size() const;
};

/// A trial's values: key -> value, in key order (std::map order, as nlohmann::json keeps).
using TrialValues = nlohmann::json;

/// The slurm executor's settings (sweep file "executor"), passed to sbatch for each trial.
struct SlurmSettings {
  std::string partition;   ///< --partition; empty: the cluster's default
  std::string time_limit;  ///< --time (minutes or "[D-]HH:MM:SS"); empty: the partition's
  int cpus_per_trial = 1;  ///< --cpus-per-task, and the trial's training.num_threads
  std::vector<std::string> sbatch_args;  ///< more sbatch options, one per item ("--mem=4G")
};

/// A sweep file, checked.
struct SweepSpec {
  std::string name;
  /// The base: a preset, or a config file (absolute), and KEY=VALUE assignments over it.
  std::string preset;
  std::filesystem::path config_file;
  std::vector<std::string> sets;
  /// The base config, resolved (defaults < preset or file < sets): what every trial starts from.
  nlohmann::json base_config;
  std::vector<SweepParameter> parameters;  ///< in key order
  std::string method = "random";           ///< grid | random | tpe (optuna_tpe.h)
  uint64_t seed = 0;
  bool seed_given = false;  ///< false: drawn when the sweep starts (sweep.json records it)
  /// The trial budget; 0 in the file is refused; absent: the grid's size (grid), else 10.
  int64_t max_trials = 0;
  int concurrent = 1;  ///< trials at once
  std::string metric = "best_val_loss";  ///< a run-table column (core/run/run_table.h)
  bool maximize = false;
  /// Each configuration trained with this many training seeds (S, S+1, ...: S the base's
  /// training.seed, 0 when the base draws one); the table ranks configurations by the mean.
  int seeds = 1;
  bool seeds_data = false;  ///< the seeds also set data.seed (base data.seed + k): other splits
  /// "none" or "median" (Optuna's MedianPruner): a running trial whose best objective so far
  /// at epoch e is worse than the median of the completed trials' values at epoch e is stopped
  /// (StopReason::Pruned), from epoch `warmup_epochs` on and once `startup_trials` trials
  /// completed.
  /// "successive_halving" (Optuna's asynchronous SuccessiveHalvingPruner): rung k at epoch
  /// min_epochs x reduction_factor^k; a trial reaching a rung goes on only when its value there
  /// is in the best 1 / reduction_factor of the values every trial had there (the best one
  /// while fewer than reduction_factor trials reached it).
  std::string pruner = "none";
  int64_t warmup_epochs = 0;
  int64_t startup_trials = 5;
  int64_t min_epochs = 1;
  int64_t reduction_factor = 3;
  std::string executor = "local";  ///< local | slurm (slurm_executor.h)
  SlurmSettings slurm;              ///< executor slurm: its settings
  nlohmann::json source;  ///< the file as given
};

/// The numeric run-table columns an objective may name (best_val_loss, best_val_accuracy, ...).
const std::vector<std::string>& sweepObjectiveMetrics();

/// The metrics.csv column that gives objective `metric` epoch by epoch ("best_val_loss" ->
/// "val_loss"), or "" when it has none (test_loss, duration_s): such an objective cannot prune.
std::string epochColumnOf(const std::string& metric);

/// The largest grid a sweep runs (more is refused: a typo in a range, not a plan).
inline constexpr int64_t kMaxGridTrials = 100000;

/// Checks the sweep JSON `j` read from `file` (for messages) and resolves its base. Throws
/// Error(Config, "<key>") naming the file, the key and the problem: an unknown key, a key that
/// is a section and not a value, an empty choice list or range, a log range with a bound
/// <= 0, a budget of 0, a grid of more than kMaxGridTrials points, a value the key refuses
/// (each choice and each bound is tried on the base config). `base_config` given (a sweep
/// resumed from its sweep.json): the base resolved when the sweep started, not again.
SweepSpec parseSweep(const nlohmann::json& j, const std::filesystem::path& file,
                     const nlohmann::json* base_config = nullptr);

/// parseSweep of the file. Throws Error(Config, file) for a file that cannot be read (a folder,
/// a FIFO, missing) or is not a JSON object.
SweepSpec readSweepFile(const std::filesystem::path& file);

/// The config of a trial: the base with `values` set. Throws Error(Config, key) for a value
/// the config refuses.
nlohmann::json trialConfig(const SweepSpec& spec, const TrialValues& values);

}  // namespace trainscope

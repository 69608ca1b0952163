#pragma once
/// A sweep folder as the dashboard's Sweeps window and `sweep --json` show it: its parameters
/// (with how an axis draws them), its trials' current states, each parameter's importance
/// (Spearman's rank correlation with the objective) and the best trial. Reads what the
/// orchestrator wrote and never writes. Torch-free.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/sweep/orchestrator.h"
#include "core/sweep/sweep_file.h"
#include "core/sweep/trials_log.h"

namespace trainscope {

/// One varied parameter of a sweep folder, as an axis.
struct SweepAxis {
  std::string key;
  SweepParameter::Kind kind = SweepParameter::Kind::Choices;
  /// log_uniform, or choices that are all numbers > 0 spanning a factor of 100 or more
  /// (learning rates): drawn on a log axis.
  bool log = false;
  /// Choices that are not all numbers ([16, 16], "adam"): drawn and ranked by their index in
  /// `choices`, labelled by their text.
  bool categorical = false;
  std::vector<nlohmann::json> choices;
  double low = 0, high = 0;  ///< the range (uniform kinds) or the numeric choices' extent
};

/// A sweep folder, read.
struct SweepView {
  std::filesystem::path dir;  ///< absolute
  std::string name;
  std::string method;
  std::string metric = "best_val_loss";
  bool maximize = false;
  std::string executor = "local";
  int concurrent = 1;
  int64_t max_trials = 0;
  int seeds = 1;            ///< each configuration trained with this many seeds
  bool seeds_data = false;  ///< the seeds also set data.seed
  std::vector<SweepAxis> axes;               ///< the varied keys, in key order
  std::vector<TrialLine> trials;             ///< each trial's current state, by number
};

/// Reads `dir`/sweep.json and `dir`/trials.jsonl. Throws Error(Config, dir) when the folder
/// holds no TrainScope sweep. The parameters are read as the file gives them, without checking
/// them against the config again (a data file moved since still shows).
SweepView readSweepView(const std::filesystem::path& dir);

/// The number an axis puts trial value `v` at: the number itself (true/false as 1/0), or for a
/// categorical axis its index in the choices; nullopt when there is none.
std::optional<double> axisValue(const SweepAxis& axis, const nlohmann::json& v);

/// Spearman's rank correlation coefficient of x and y, as scipy.stats.spearmanr computes it:
/// Pearson's r of the ranks, tied values sharing their mean rank. nullopt for fewer than 3
/// pairs, sizes that differ, or x or y constant.
std::optional<double> spearmanRho(const std::vector<double>& x, const std::vector<double>& y);

/// One parameter's importance: Spearman's rho of its values (axisValue) with the objective
/// over the trials that have both; |rho| ranks them. Choices that are not numbers have no
/// order to rank by: no rho.
struct ParameterImportance {
  std::string key;
  std::optional<double> rho;
  int64_t n = 0;  ///< the trials counted
  /// Why there is no rho: "choices without an order" (lists, strings: their listed order is
  /// arbitrary, so a rank correlation with it would be too), "too few trials", "constant".
  std::string none_because;
};

/// Each axis's importance, largest |rho| first (none last).
std::vector<ParameterImportance> parameterImportance(const SweepView& view);

/// The configurations of a sweep over seeds, best mean first (rankConfigs, orchestrator.h:
/// mean and sample standard deviation of each configuration's objectives).
std::vector<ConfigResult> configResults(const SweepView& view);

/// The best trial with an objective (ties: the lowest number), or nullptr.
const TrialLine* bestTrial(const SweepView& view);

}  // namespace trainscope

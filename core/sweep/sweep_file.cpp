#include "core/sweep/sweep_file.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/system/number_format.h"
#include "core/sweep/optuna_tpe.h"

namespace trainscope {
namespace {

using json = nlohmann::json;

/// Error(Config, key) whose message names the sweep file and the key.
[[noreturn]] void bad(const std::filesystem::path& file, const std::string& key,
                      const std::string& problem) {
  throw Error(ErrorCode::Config, key, file.string() + ": " + key + ": " + problem);
}

const ConfigKeyInfo* keyInfo(const std::string& key) {
  static const std::vector<ConfigKeyInfo> infos = configKeyInfos();
  for (const ConfigKeyInfo& k : infos)
    if (k.key == key) return &k;
  return nullptr;
}

bool isSection(const std::string& key) {
  for (const ConfigKeyInfo& k : configKeyInfos())
    if (k.key.rfind(key + ".", 0) == 0) return true;
  return false;
}

/// `config` with the dotted `key` set to `value` (the key exists in a complete config).
void setKey(json& config, const std::string& key, const json& value) {
  json* at = &config;
  size_t start = 0;
  for (size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1)
    at = &(*at)[key.substr(start, dot - start)];
  (*at)[key.substr(start)] = value;
}

double number(const std::filesystem::path& file, const std::string& key, const json& v) {
  if (!v.is_number()) bad(file, key, "expected a number, got " + v.dump());
  const double d = v.get<double>();
  if (!std::isfinite(d)) bad(file, key, "expected a finite number, got " + v.dump());
  return d;
}

/// A relative file name `v` (a string) made absolute against the sweep file's folder, as a
/// config file's own paths are; anything else as it is.
json besideFile(const std::filesystem::path& file, const json& v) {
  if (!v.is_string() || v.get<std::string>().empty() ||
      std::filesystem::path(v.get<std::string>()).is_absolute())
    return v;
  return (std::filesystem::absolute(file).parent_path() / v.get<std::string>())
      .lexically_normal()
      .string();
}

SweepParameter parseParameter(const std::filesystem::path& file, const std::string& key,
                              const json& space) {
  const std::string where = "parameters." + key;
  const ConfigKeyInfo* info = keyInfo(key);
  if (!info) {
    if (isSection(key))
      bad(file, where, "'" + key + "' is a section of the config, not a value: name one of its "
                       "keys (trainscope-cli config --keys lists them)");
    bad(file, where, "'" + key + "' is not a config key (trainscope-cli config --keys lists them)");
  }
  if (!space.is_object() || space.size() != 1)
    bad(file, where,
        "expected one of {\"choices\": [...]}, {\"uniform\": [low, high]}, "
        "{\"log_uniform\": [low, high]} or {\"int_uniform\": [low, high]}, got " + space.dump());
  SweepParameter p;
  p.key = key;
  const std::string kind = space.begin().key();
  const json& arg = space.begin().value();
  if (kind == "choices") {
    if (!arg.is_array() || arg.empty())
      bad(file, where + ".choices", "expected a non-empty list of values, got " + arg.dump());
    std::set<std::string> seen;
    const bool path = isConfigPathKey(key.substr(key.rfind('.') + 1));
    for (json c : arg) {
      // A file named relative to the sweep file, as a config file's paths: stored absolute, so
      // a trial (and a resumed sweep) finds it from any working directory.
      if (path) c = besideFile(file, c);
      if (!seen.insert(c.dump()).second)
        bad(file, where + ".choices", c.dump() + " is listed twice (a trial would run twice)");
      p.choices.push_back(c);
    }
    return p;
  }
  const bool is_int = kind == "int_uniform";
  if (kind == "uniform") p.kind = SweepParameter::Kind::Uniform;
  else if (kind == "log_uniform") p.kind = SweepParameter::Kind::LogUniform;
  else if (is_int) p.kind = SweepParameter::Kind::IntUniform;
  else
    bad(file, where, "unknown space '" + kind +
                         "': expected choices, uniform, log_uniform or int_uniform");
  const std::string at = where + "." + kind;
  if (!arg.is_array() || arg.size() != 2) bad(file, at, "expected [low, high], got " + arg.dump());
  p.low = number(file, at, arg[0]);
  p.high = number(file, at, arg[1]);
  const bool int_key = info->type.rfind("integer", 0) == 0;
  const bool number_key = info->type.rfind("number", 0) == 0;
  if (is_int && !int_key)
    bad(file, at, "int_uniform needs an integer key; " + key + " is a " + info->type);
  if (!is_int && !number_key)
    bad(file, at, kind + " needs a number key; " + key + " is a " + info->type +
                      (int_key ? " (int_uniform samples integers)" : " (use choices)"));
  if (is_int && (p.low != std::floor(p.low) || p.high != std::floor(p.high)))
    bad(file, at, "int_uniform's bounds must be integers, got " + arg.dump());
  if (p.low > p.high || (!is_int && p.low == p.high))
    bad(file, at, "the range is empty: low " + formatNumber(p.low) + " must be below high " +
                      formatNumber(p.high));
  if (p.kind == SweepParameter::Kind::LogUniform && p.low <= 0)
    bad(file, at, "a log range needs bounds > 0, got low " + formatNumber(p.low));
  return p;
}

/// The values each parameter is tried with before anything runs: every choice, both bounds.
std::vector<json> probeValues(const SweepParameter& p) {
  if (p.kind == SweepParameter::Kind::Choices) return p.choices;
  if (p.kind == SweepParameter::Kind::IntUniform)
    return {json(static_cast<int64_t>(p.low)), json(static_cast<int64_t>(p.high))};
  return {json(p.low), json(p.high)};
}

/// The string `key` of `object`, `fallback` when absent.
std::string text(const std::filesystem::path& file, const json& object, const std::string& key,
                 const std::string& where, const std::string& fallback) {
  if (!object.contains(key)) return fallback;
  if (!object[key].is_string()) bad(file, where, "expected a string, got " + object[key].dump());
  return object[key].get<std::string>();
}

void refuseUnknownKeys(const std::filesystem::path& file, const json& object,
                       const std::string& prefix, const std::vector<std::string>& known) {
  for (const auto& [k, v] : object.items())
    if (std::find(known.begin(), known.end(), k) == known.end()) {
      std::string list;
      for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
      bad(file, prefix + k, "unknown key (expected " + list + ")");
    }
}

}  // namespace

int64_t SweepParameter::size() const {
  if (kind == Kind::Choices) return static_cast<int64_t>(choices.size());
  if (kind == Kind::IntUniform) return static_cast<int64_t>(high - low) + 1;
  return 0;
}

const std::vector<std::string>& sweepObjectiveMetrics() {
  static const std::vector<std::string> metrics = {
      "best_val_loss", "final_val_loss", "final_train_loss", "best_val_accuracy",
      "final_val_accuracy", "best_val_r2", "final_val_r2", "final_val_mae", "final_val_rmse",
      "test_loss", "test_accuracy", "duration_s"};
  return metrics;
}

std::string epochColumnOf(const std::string& metric) {
  for (const char* prefix : {"best_", "final_"})
    if (metric.rfind(prefix, 0) == 0) return metric.substr(std::string(prefix).size());
  return "";
}

nlohmann::json trialConfig(const SweepSpec& spec, const TrialValues& values) {
  json config = spec.base_config;
  for (const auto& [key, value] : values.items()) setKey(config, key, value);
  return configToJson(configFromJson(config));  // validated: Error(Config, key)
}

namespace {

/// "executor": {"kind": "local"} or {"kind": "slurm", "partition", "time_limit",
/// "cpus_per_trial", "sbatch_args"}.
void parseExecutor(const std::filesystem::path& file, const json& executor, SweepSpec& s) {
  if (!executor.is_object() || !executor.value("kind", json()).is_string())
    bad(file, "executor.kind", "expected {\"kind\": \"local\"} or {\"kind\": \"slurm\", ...}");
  s.executor = executor["kind"].get<std::string>();
  if (s.executor != "local" && s.executor != "slurm")
    bad(file, "executor.kind", "expected local or slurm, got '" + s.executor + "'");
  if (s.executor == "local") {
    refuseUnknownKeys(file, executor, "executor.", {"kind"});
    return;
  }
  refuseUnknownKeys(file, executor, "executor.",
                    {"kind", "partition", "time_limit", "cpus_per_trial", "sbatch_args"});
  SlurmSettings& slurm = s.slurm;
  if (executor.contains("partition")) {
    const json& v = executor["partition"];
    if (!v.is_string() || v.get<std::string>().empty() ||
        v.get<std::string>().find_first_of(" \t\n") != std::string::npos)
      bad(file, "executor.partition", "expected a partition name, got " + v.dump());
    slurm.partition = v.get<std::string>();
  }
  if (executor.contains("time_limit")) {
    // sbatch --time: minutes, or "[D-]HH:MM:SS", "MM:SS", "D-HH[:MM]"; Slurm checks the rest.
    const json& v = executor["time_limit"];
    if (v.is_number_integer() && v.get<int64_t>() > 0) {
      slurm.time_limit = std::to_string(v.get<int64_t>());
    } else if (v.is_string() && !v.get<std::string>().empty() &&
               v.get<std::string>().find_first_not_of("0123456789:-") == std::string::npos) {
      slurm.time_limit = v.get<std::string>();
    } else {
      bad(file, "executor.time_limit",
          "expected minutes (an integer > 0) or sbatch's \"[D-]HH:MM:SS\", got " + v.dump());
    }
  }
  if (executor.contains("cpus_per_trial")) {
    const json& v = executor["cpus_per_trial"];
    if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > 1024)
      bad(file, "executor.cpus_per_trial", "expected an integer from 1 to 1024, got " + v.dump());
    slurm.cpus_per_trial = v.get<int>();
  }
  if (executor.contains("sbatch_args")) {
    const json& v = executor["sbatch_args"];
    bool ok = v.is_array();
    if (ok)
      for (const json& a : v) ok = ok && a.is_string() && !a.get<std::string>().empty();
    if (!ok)
      bad(file, "executor.sbatch_args",
          "expected a list of sbatch options, one per item (e.g. [\"--mem=4G\", "
          "\"--qos=short\"]), got " + v.dump());
    for (const json& a : v) {
      const std::string arg = a.get<std::string>();
      for (const char* own : {"--array", "-a", "--output", "-o", "--error", "-e", "--parsable",
                              "--job-name", "-J", "--chdir", "-D", "--wrap"})
        if (arg == own || arg.rfind(std::string(own) + "=", 0) == 0 ||
            (own[1] != '-' && arg.rfind(own, 0) == 0 && arg.size() > 2))
          bad(file, "executor.sbatch_args",
              "'" + arg + "': the sweep sets " + own + " itself (one job per trial, output in "
              "the trial's .log)");
      slurm.sbatch_args.push_back(arg);
    }
  }
}

}  // namespace

SweepSpec parseSweep(const nlohmann::json& j, const std::filesystem::path& file,
                     const nlohmann::json* base_config) {
  if (!j.is_object()) bad(file, "(file)", "a sweep file is a JSON object, got " + j.dump());
  refuseUnknownKeys(file, j, "",
                    {"name", "base", "parameters", "method", "seed", "max_trials", "concurrent",
                     "objective", "pruner", "executor", "seeds", "seeds_data"});
  SweepSpec s;
  s.source = j;
  s.name = file.stem().string();
  if (j.contains("name")) {
    if (!j["name"].is_string() || j["name"].get<std::string>().empty())
      bad(file, "name", "expected a non-empty string, got " + j["name"].dump());
    s.name = j["name"].get<std::string>();
  }
  if (s.name.find('/') != std::string::npos || s.name == "." || s.name == "..")
    bad(file, "name", "'" + s.name + "' names the sweep's folder: it may not hold '/'");

  // ---- the base ----
  const json base = j.value("base", json::object());
  if (!base.is_object()) bad(file, "base", "expected an object, got " + base.dump());
  refuseUnknownKeys(file, base, "base.", {"preset", "config", "set"});
  if (base.contains("preset") && base.contains("config"))
    bad(file, "base", "give preset or config, not both");
  if (base.contains("preset")) {
    if (!base["preset"].is_string()) bad(file, "base.preset", "expected a preset name");
    s.preset = base["preset"].get<std::string>();
  }
  if (base.contains("config")) {
    if (!base["config"].is_string() || base["config"].get<std::string>().empty())
      bad(file, "base.config", "expected the path of a config file");
    std::filesystem::path c = base["config"].get<std::string>();
    // As a config file's own paths: relative to the sweep file's folder.
    if (c.is_relative()) c = std::filesystem::absolute(file).parent_path() / c;
    s.config_file = c.lexically_normal();
  }
  if (base.contains("set")) {
    if (!base["set"].is_object()) bad(file, "base.set", "expected {\"key\": value, ...}");
    for (const auto& [k, v] : base["set"].items()) {
      // A file relative to the sweep file, as the choices of a path key.
      const bool path = isConfigPathKey(k.substr(k.rfind('.') + 1));
      s.sets.push_back(k + "=" + (path ? besideFile(file, v) : v).dump());
    }
  }
  try {
    s.base_config = base_config ? configToJson(configFromJson(*base_config))
                                : configToJson(resolveConfig(s.preset, s.config_file, s.sets));
  } catch (const Error& e) {
    bad(file, "base" + (e.subject().empty() ? std::string() : " (" + e.subject() + ")"), e.what());
  }

  // ---- the parameters ----
  if (!j.contains("parameters") || !j["parameters"].is_object() || j["parameters"].empty())
    bad(file, "parameters", "expected {\"config.key\": {\"choices\": [...]}, ...} with at least "
                            "one key");
  for (const auto& [key, space] : j["parameters"].items()) {
    s.parameters.push_back(parseParameter(file, key, space));
    for (const json& v : probeValues(s.parameters.back())) {
      try {
        trialConfig(s, json{{key, v}});
      } catch (const Error& e) {
        bad(file, "parameters." + key, "the value " + v.dump() + " is refused: " + e.what());
      }
    }
  }

  // ---- method, budget, objective ----
  s.method = text(file, j, "method", "method", "random");
  if (s.method != "grid" && s.method != "random" && s.method != "tpe")
    bad(file, "method", "expected grid, random or tpe, got '" + s.method + "'");
  if (s.method == "tpe" && !findOptuna())
    bad(file, "method",
        "tpe runs Optuna's TPE sampler through its command line (optuna ask / tell), and "
        "`optuna` is not installed: install Debian's python3-optuna, or use grid or random");
  if (j.contains("seed")) {
    if (!j["seed"].is_number_unsigned())
      bad(file, "seed", "expected an integer >= 0, got " + j["seed"].dump());
    s.seed = j["seed"].get<uint64_t>();
    s.seed_given = true;
  }
  int64_t grid = 1;  // the discrete space's size, capped
  bool discrete = true;
  for (const SweepParameter& p : s.parameters) {
    if (!p.discrete()) {
      discrete = false;
      continue;
    }
    grid = std::min<int64_t>(grid * std::min<int64_t>(p.size(), kMaxGridTrials + 1),
                             kMaxGridTrials + 1);
  }
  if (s.method == "grid") {
    for (const SweepParameter& p : s.parameters)
      if (!p.discrete())
        bad(file, "parameters." + p.key,
            "a grid needs choices or int_uniform; a continuous range has no grid (use random, "
            "or list the values as choices)");
    if (grid > kMaxGridTrials)
      bad(file, "parameters", "the grid has more than " + std::to_string(kMaxGridTrials) +
                                  " points; narrow the ranges or use random with max_trials");
  }
  if (j.contains("max_trials")) {
    if (!j["max_trials"].is_number_integer() || j["max_trials"].get<int64_t>() < 1 ||
        j["max_trials"].get<int64_t>() > kMaxGridTrials)
      bad(file, "max_trials", "expected an integer from 1 to " + std::to_string(kMaxGridTrials) +
                                  ", got " + j["max_trials"].dump());
    s.max_trials = j["max_trials"].get<int64_t>();
    if (s.method == "tpe" && discrete) s.max_trials = std::min(s.max_trials, grid);
  } else {
    s.max_trials = s.method == "grid" || (s.method != "grid" && discrete && grid <= 10) ? grid : 10;
  }
  if (j.contains("concurrent")) {
    if (!j["concurrent"].is_number_integer() || j["concurrent"].get<int64_t>() < 1 ||
        j["concurrent"].get<int64_t>() > 64)
      bad(file, "concurrent", "expected an integer from 1 to 64, got " + j["concurrent"].dump());
    s.concurrent = j["concurrent"].get<int>();
  }
  const json objective = j.value("objective", json::object());
  if (!objective.is_object()) bad(file, "objective", "expected {\"metric\": ..., \"goal\": ...}");
  refuseUnknownKeys(file, objective, "objective.", {"metric", "goal"});
  s.metric = text(file, objective, "metric", "objective.metric", "best_val_loss");
  const auto& metrics = sweepObjectiveMetrics();
  if (std::find(metrics.begin(), metrics.end(), s.metric) == metrics.end()) {
    std::string list;
    for (const auto& m : metrics) list += (list.empty() ? "" : ", ") + m;
    bad(file, "objective.metric", "'" + s.metric + "' is not a run-table number (expected " +
                                      list + ")");
  }
  const bool higher = s.metric.find("accuracy") != std::string::npos ||
                      s.metric.find("r2") != std::string::npos;
  const std::string goal =
      text(file, objective, "goal", "objective.goal", higher ? "maximize" : "minimize");
  if (goal != "minimize" && goal != "maximize")
    bad(file, "objective.goal", "expected minimize or maximize, got '" + goal + "'");
  s.maximize = goal == "maximize";

  // ---- what this version does not run yet: refused by name, never ignored ----
  const json pruner = j.value("pruner", json{{"kind", "none"}});
  if (!pruner.is_object() || !pruner.value("kind", json()).is_string())
    bad(file, "pruner.kind",
        "expected {\"kind\": \"none\"}, {\"kind\": \"median\"} or "
        "{\"kind\": \"successive_halving\"}");
  s.pruner = pruner["kind"].get<std::string>();
  if (s.pruner != "none" && s.pruner != "median" && s.pruner != "successive_halving")
    bad(file, "pruner.kind",
        "expected none, median or successive_halving, got '" + s.pruner + "'");
  refuseUnknownKeys(file, pruner, "pruner.",
                    s.pruner == "median" ? std::vector<std::string>{"kind", "warmup_epochs",
                                                                    "startup_trials"}
                    : s.pruner == "successive_halving"
                        ? std::vector<std::string>{"kind", "min_epochs", "reduction_factor"}
                        : std::vector<std::string>{"kind"});
  const std::pair<const char*, int64_t*> counts[] = {{"warmup_epochs", &s.warmup_epochs},
                                                     {"startup_trials", &s.startup_trials},
                                                     {"min_epochs", &s.min_epochs},
                                                     {"reduction_factor", &s.reduction_factor}};
  for (const auto& [key, field] : counts) {
    if (!pruner.contains(key)) continue;
    const int64_t lowest = std::string(key) == "min_epochs" ? 1
                           : std::string(key) == "reduction_factor" ? 2 : 0;
    if (!pruner[key].is_number_integer() || pruner[key].get<int64_t>() < lowest)
      bad(file, std::string("pruner.") + key,
          "expected an integer >= " + std::to_string(lowest) + ", got " + pruner[key].dump());
    *field = pruner[key].get<int64_t>();
  }
  if (s.pruner != "none" && epochColumnOf(s.metric).empty())
    bad(file, "pruner.kind", "the objective " + s.metric +
                                 " has no value per epoch (metrics.csv) to prune by");
  parseExecutor(file, j.value("executor", json{{"kind", "local"}}), s);
  if (j.contains("seeds")) {
    if (!j["seeds"].is_number_integer() || j["seeds"].get<int64_t>() < 1 ||
        j["seeds"].get<int64_t>() > 100)
      bad(file, "seeds", "expected an integer from 1 to 100, got " + j["seeds"].dump());
    s.seeds = j["seeds"].get<int>();
  }
  if (j.contains("seeds_data")) {
    if (!j["seeds_data"].is_boolean())
      bad(file, "seeds_data", "expected true or false, got " + j["seeds_data"].dump());
    s.seeds_data = j["seeds_data"].get<bool>();
  }
  if (s.seeds > 1 && s.method == "tpe")
    bad(file, "seeds", "tpe asks for one trial at a time: repeat over seeds with grid or random");
  for (const SweepParameter& p : s.parameters)
    if (s.seeds > 1 && (p.key == "training.seed" || (s.seeds_data && p.key == "data.seed")))
      bad(file, "parameters." + p.key,
          p.key + " is set by \"seeds\": vary it or repeat over seeds, not both");
  return s;
}

SweepSpec readSweepFile(const std::filesystem::path& file) {
  json j;
  try {
    j = parseJson(readRegularFile(file));
  } catch (const Error& e) {
    throw Error(ErrorCode::Config, file.string(), std::string("sweep file: ") + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCode::Config, file.string(),
                "sweep file " + std::filesystem::absolute(file).string() +
                    " is not valid JSON: " + e.what());
  }
  return parseSweep(j, std::filesystem::absolute(file));
}

}  // namespace trainscope

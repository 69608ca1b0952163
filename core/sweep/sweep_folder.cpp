// The sweep folder's pieces (sweep_folder.h), split from orchestrator.cpp (the run loop).
#include "core/sweep/sweep_folder.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/errors.h"
#include "core/io/tfevents_writer.h"
#include "core/run/tensorboard_hparams.h"
#include "core/system/number_format.h"

namespace trainscope {

namespace fs = std::filesystem;
using json = nlohmann::json;

int affinityCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

/// A value as a folder name's part: numbers with 4 significant digits, lists joined by "-".
std::string shortValue(const json& v) {
  if (v.is_number_float()) return formatHuman(v.get<double>());
  if (v.is_string()) return fs::path(v.get<std::string>()).filename().string();  // a file: its name
  if (v.is_array()) {
    std::string out;
    for (const json& e : v) out += (out.empty() ? "" : "-") + shortValue(e);
    return out.empty() ? "none" : out;
  }
  return v.dump();
}

/// "NNN-key=value,key=value": the last part of each key, characters a shell and a file
/// manager take as they are, at most 80 characters.
std::string trialFolderName(int64_t trial, const TrialValues& values) {
  char number[16];
  std::snprintf(number, sizeof number, "%03lld", static_cast<long long>(trial));
  std::string name = number;
  std::string sep = "-";
  auto last = [](const std::string& key) { return key.substr(key.rfind('.') + 1); };
  for (const auto& [key, value] : values.items()) {
    // The last part of the key, unless another key ends the same (data.seed, training.seed).
    int same = 0;
    for (const auto& [other, v] : values.items()) same += last(other) == last(key) ? 1 : 0;
    name += sep + (same > 1 ? key : last(key)) + "=" + shortValue(value);
    sep = ",";
  }
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '=' && c != ',' &&
        c != '.' && c != '_' && c != '+')
      c = '_';
  if (name.size() > 80) name.resize(80);
  return name;
}

/// `base`, or `base-2`, `base-3`, ... : the first name not taken in `dir`.
std::string freeName(const fs::path& dir, const std::string& base) {
  std::error_code ec;
  if (!fs::exists(dir / base, ec)) return base;
  for (int k = 2;; ++k) {
    const std::string name = base + "-" + std::to_string(k);
    if (!fs::exists(dir / name, ec)) return name;
  }
}

/// The run-table column `metric` of a finished trial's run, when it is a finite number.
std::optional<double> objectiveOf(const RunRow& row, const std::string& metric) {
  const auto it = row.values.find(metric);
  if (it == row.values.end() || !it->is_number() || !std::isfinite(it->get<double>()))
    return std::nullopt;
  return it->get<double>();
}

/// The last line of `log` that says "error" (what a failed trial printed), trimmed.
std::string lastError(const fs::path& log) {
  std::ifstream in(log);
  std::string line, found;
  while (std::getline(in, line))
    if (line.find("error:") != std::string::npos || line.rfind("Error", 0) == 0) found = line;
  if (found.size() > 400) found = found.substr(0, 400) + "...";
  return found;
}


/// The files a trial's config names (the keys "path" and "*_path" that apply to its data source
/// and model kind) exist: a missing data file fails every trial twice, so it is said first.
void checkTrialFiles(const json& config, const TrialValues& values) {
  static const std::vector<ConfigKeyInfo> keys = configKeyInfos();
  for (const ConfigKeyInfo& k : keys) {
    if (!isConfigPathKey(k.key.substr(k.key.rfind('.') + 1)) || !configKeyApplies(k.key, config))
      continue;
    const json* at = configAt(config, k.key);
    if (!at || !at->is_string()) continue;
    const std::string file = at->get<std::string>();
    std::error_code ec;
    const std::string where = values.contains(k.key) ? "a value of the sweep's parameters"
                                                     : "the sweep's base config";
    if (file.empty()) continue;
    if (!fs::exists(file, ec))
      throw Error(ErrorCode::Config, k.key,
                  k.key + ": " + file + " does not exist (" + where +
                      "); every trial naming it would fail");
    // an image folder is a folder; data.path names either; the other paths name files
    const bool folder_key = k.key.find("image_folder") != std::string::npos;
    if (folder_key && !fs::is_directory(file, ec))
      throw Error(ErrorCode::Config, k.key,
                  k.key + ": " + file + " is not a folder (" + where +
                      "); every trial naming it would fail");
    if (!folder_key && k.key != "data.path" && !fs::is_regular_file(file, ec))
      throw Error(ErrorCode::Config, k.key,
                  k.key + ": " + file + " is " +
                      (fs::is_directory(file, ec) ? "a folder" : "not a regular file") +
                      ", not a file (" + where + "); every trial naming it would fail");
  }
}

/// TensorBoard's HParams experiment (the varied keys and their domains, the objective's
/// tag) in the sweep folder's own event file, when the base config writes TensorBoard files.
void writeExperiment(const SweepSpec& spec, const fs::path& dir) {
  const json tb =
      spec.base_config.value("logging", json::object()).value("tensorboard", json(true));
  if (tb.is_boolean() && !tb.get<bool>()) return;
  std::vector<hparams::HParamSpec> specs;
  for (const SweepParameter& p : spec.parameters) {
    hparams::HParamSpec h;
    h.name = p.key;
    if (p.kind == SweepParameter::Kind::Choices)
      h.values = p.choices;
    else
      h.interval = std::make_pair(p.low, p.high);
    specs.push_back(std::move(h));
  }
  std::vector<std::string> tags;
  if (const std::string tag = hparams::epochTag(epochColumnOf(spec.metric)); !tag.empty())
    tags.push_back(tag);
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  TensorBoardWriter writer(dir);
  writer.addPluginSummary(hparams::kExperimentTag, hparams::kPlugin,
                          hparams::experimentContent(specs, tags, now), 0, now);
}

bool emptyOrMissing(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return true;
  if (!fs::is_directory(dir, ec)) return false;
  return fs::directory_iterator(dir, ec) == fs::directory_iterator();
}


}  // namespace trainscope

// Config JSON: defaults, merging, --set parsing, validation (ARCHITECTURE §6).
#include "core/config/train_config.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "core/io/atomic_file.h"

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

int64_t getInt(const json& v, const std::string& key, int64_t lo, int64_t hi) {
  bool integral = v.is_number_integer() || (v.is_number_float() && std::isfinite(v.get<double>()) &&
                                            std::floor(v.get<double>()) == v.get<double>());
  if (!integral) fail(key, key + " must be an integer, got " + show(v));
  int64_t x = v.is_number_float() ? static_cast<int64_t>(v.get<double>()) : v.get<int64_t>();
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) x = INT64_MAX;
  if (x < lo) fail(key, key + " must be >= " + std::to_string(lo) + ", got " + show(v));
  if (x > hi) fail(key, key + " must be <= " + std::to_string(hi) + ", got " + show(v));
  return x;
}

double getNumber(const json& v, const std::string& key) {
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    fail(key, key + " must be a finite number, got " + show(v));
  return v.get<double>();
}

double getPositive(const json& v, const std::string& key) {
  double x = getNumber(v, key);
  if (!(x > 0)) fail(key, key + " must be > 0, got " + show(v));
  return x;
}

double getNonNegative(const json& v, const std::string& key) {
  double x = getNumber(v, key);
  if (x < 0) fail(key, key + " must be >= 0, got " + show(v));
  return x;
}

bool getBool(const json& v, const std::string& key) {
  if (!v.is_boolean()) fail(key, key + " must be true or false, got " + show(v));
  return v.get<bool>();
}

std::string getChoice(const json& v, const std::string& key,
                      const std::vector<std::string>& choices) {
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : "|") + c;
  if (!v.is_string()) fail(key, key + " must be one of " + list + ", got " + show(v));
  std::string s = v.get<std::string>();
  for (const auto& c : choices)
    if (s == c) return s;
  fail(key, key + " must be one of " + list + ", got " + show(v));
}

std::string getString(const json& v, const std::string& key) {
  if (!v.is_string()) fail(key, key + " must be a string, got " + show(v));
  return v.get<std::string>();
}

}  // namespace

nlohmann::json defaultConfigJson() {
  return json{
      {"name", "run"},
      {"data",
       {{"source", "sine"},
        {"path", nullptr},
        {"seed", 0},
        {"n_samples", 200},
        {"noise", 0.1},
        {"val_fraction", 0.2},
        {"limit", nullptr},
        {"standardize", true}}},
      {"model",
       {{"kind", "mlp"}, {"hidden", {128, 128}}, {"activation", "relu"}, {"dropout", 0.0}}},
      {"optimizer",
       {{"name", "adam"},
        {"lr", 1e-3},
        {"momentum", 0.0},
        {"weight_decay", 0.0},
        {"betas", {0.9, 0.999}}}},
      {"training",
       {{"epochs", 10},
        {"batch_size", 32},
        {"seed", nullptr},
        {"clip", {{"enabled", false}, {"max_norm", 1.0}}},
        {"device", "auto"},
        {"num_threads", nullptr},
        {"non_finite", nullptr}}},
  };
}

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
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
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
  TrainConfig c;
  c.name = getString(j.at("name"), "name");
  // The name becomes a folder name: no separators, no control characters, not "." or "..".
  bool name_ok = !c.name.empty() && c.name != "." && c.name != ".." && c.name.size() <= 100;
  for (unsigned char ch : c.name) name_ok = name_ok && ch >= 0x20 && ch != 0x7f && ch != '/';
  if (!name_ok)
    fail("name",
         "name must be 1-100 characters without '/' or control characters (it names the run "
         "folder), got " + show(j.at("name")));

  const json& d = j.at("data");
  c.data.source = getChoice(d.at("source"), "data.source", {"sine", "moons", "fashion-mnist"});
  if (!d.at("path").is_null()) c.data.path = getString(d.at("path"), "data.path");
  c.data.seed = getInt(d.at("seed"), "data.seed", 0, (int64_t{1} << 31) - 1);
  c.data.n_samples = getInt(d.at("n_samples"), "data.n_samples", 2, 10'000'000);
  c.data.noise = getNonNegative(d.at("noise"), "data.noise");
  c.data.val_fraction = getNumber(d.at("val_fraction"), "data.val_fraction");
  if (!(c.data.val_fraction > 0 && c.data.val_fraction < 1))
    fail("data.val_fraction",
         "data.val_fraction must be > 0 and < 1, got " + show(d.at("val_fraction")));
  if (!d.at("limit").is_null())
    c.data.limit = getInt(d.at("limit"), "data.limit", 2, int64_t{1} << 40);
  c.data.standardize = getBool(d.at("standardize"), "data.standardize");

  const json& m = j.at("model");
  c.model.kind = getChoice(m.at("kind"), "model.kind", {"mlp"});
  const json& hidden = m.at("hidden");
  if (!hidden.is_array())
    fail("model.hidden", "model.hidden must be a list of layer widths, got " + show(hidden));
  c.model.hidden.clear();
  for (const auto& h : hidden) c.model.hidden.push_back(getInt(h, "model.hidden", 1, 65536));
  c.model.activation =
      getChoice(m.at("activation"), "model.activation", {"relu", "tanh", "gelu", "sigmoid"});
  c.model.dropout = getNonNegative(m.at("dropout"), "model.dropout");
  if (c.model.dropout >= 1)
    fail("model.dropout", "model.dropout must be in [0, 1), got " + show(m.at("dropout")));

  const json& o = j.at("optimizer");
  c.optimizer.name = getChoice(o.at("name"), "optimizer.name", {"sgd", "adam", "adamw"});
  c.optimizer.lr = getPositive(o.at("lr"), "optimizer.lr");
  c.optimizer.momentum = getNonNegative(o.at("momentum"), "optimizer.momentum");
  c.optimizer.weight_decay = getNonNegative(o.at("weight_decay"), "optimizer.weight_decay");
  const json& betas = o.at("betas");
  if (!betas.is_array() || betas.size() != 2)
    fail("optimizer.betas", "optimizer.betas must be a list of two numbers, got " + show(betas));
  for (int i = 0; i < 2; ++i) {
    double b = getNumber(betas[i], "optimizer.betas");
    if (b < 0 || b >= 1)
      fail("optimizer.betas", "optimizer.betas must be in [0, 1), got " + show(betas));
    c.optimizer.betas[i] = b;
  }

  const json& t = j.at("training");
  c.training.epochs = getInt(t.at("epochs"), "training.epochs", 1, 1'000'000);
  c.training.batch_size = getInt(t.at("batch_size"), "training.batch_size", 1, 1 << 24);
  if (!t.at("seed").is_null())
    c.training.seed = getInt(t.at("seed"), "training.seed", 0, (int64_t{1} << 31) - 1);
  c.training.clip.enabled = getBool(t.at("clip").at("enabled"), "training.clip.enabled");
  c.training.clip.max_norm = getPositive(t.at("clip").at("max_norm"), "training.clip.max_norm");
  c.training.device = getString(t.at("device"), "training.device");
  {
    const std::string& dev = c.training.device;
    bool ok = dev == "auto" || dev == "cpu" || dev == "cuda";
    if (!ok && dev.rfind("cuda:", 0) == 0 && dev.size() > 5) {
      ok = dev.find_first_not_of("0123456789", 5) == std::string::npos;
    }
    if (!ok)
      fail("training.device",
           "training.device must be auto, cpu, cuda or cuda:N, got " + show(t.at("device")));
  }
  if (!t.at("num_threads").is_null())
    c.training.num_threads = getInt(t.at("num_threads"), "training.num_threads", 1, 1024);
  if (!t.at("non_finite").is_null())
    c.training.non_finite =
        getChoice(t.at("non_finite"), "training.non_finite", {"pause", "stop", "skip"});
  return c;
}

nlohmann::json configToJson(const TrainConfig& c) {
  json j = defaultConfigJson();
  j["name"] = c.name;
  j["data"]["source"] = c.data.source;
  j["data"]["path"] = c.data.path ? json(*c.data.path) : json(nullptr);
  j["data"]["seed"] = c.data.seed;
  j["data"]["n_samples"] = c.data.n_samples;
  j["data"]["noise"] = c.data.noise;
  j["data"]["val_fraction"] = c.data.val_fraction;
  j["data"]["limit"] = c.data.limit ? json(*c.data.limit) : json(nullptr);
  j["data"]["standardize"] = c.data.standardize;
  j["model"]["kind"] = c.model.kind;
  j["model"]["hidden"] = c.model.hidden;
  j["model"]["activation"] = c.model.activation;
  j["model"]["dropout"] = c.model.dropout;
  j["optimizer"]["name"] = c.optimizer.name;
  j["optimizer"]["lr"] = c.optimizer.lr;
  j["optimizer"]["momentum"] = c.optimizer.momentum;
  j["optimizer"]["weight_decay"] = c.optimizer.weight_decay;
  j["optimizer"]["betas"] = {c.optimizer.betas[0], c.optimizer.betas[1]};
  j["training"]["epochs"] = c.training.epochs;
  j["training"]["batch_size"] = c.training.batch_size;
  j["training"]["seed"] = c.training.seed ? json(*c.training.seed) : json(nullptr);
  j["training"]["clip"]["enabled"] = c.training.clip.enabled;
  j["training"]["clip"]["max_norm"] = c.training.clip.max_norm;
  j["training"]["device"] = c.training.device;
  j["training"]["num_threads"] =
      c.training.num_threads ? json(*c.training.num_threads) : json(nullptr);
  j["training"]["non_finite"] =
      c.training.non_finite ? json(*c.training.non_finite) : json(nullptr);
  return j;
}

nlohmann::json readConfigFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(ErrorCode::Config, path.string(),
                "config file " + path.string() + " is a directory, not a JSON file");
  std::ifstream in(path);
  if (!in)
    throw Error(ErrorCode::Config, path.string(), "cannot read config file " + path.string());
  std::stringstream buffer;
  buffer << in.rdbuf();
  json j;
  try {
    j = json::parse(buffer.str());
  } catch (const json::parse_error& e) {
    throw Error(ErrorCode::Config, path.string(),
                "config file " + path.string() + " is not valid JSON: " + e.what());
  }
  if (!j.is_object())
    throw Error(ErrorCode::Config, path.string(),
                "config file " + path.string() + " must contain a JSON object");
  return j;
}

TrainConfig resolveConfig(const std::string& preset, const std::filesystem::path& config_file,
                          const std::vector<std::string>& sets) {
  json j = defaultConfigJson();
  std::string chosen = preset;
  if (chosen.empty() && config_file.empty()) chosen = defaultPresetName();
  if (!chosen.empty()) mergeConfigJson(j, presetJson(chosen));
  if (!config_file.empty()) {
    json file = readConfigFile(config_file);
    try {
      mergeConfigJson(j, file);
      // The run is named after the preset when one was given, else after the file.
      if (!file.contains("name") && chosen.empty()) j["name"] = config_file.stem().string();
      configFromJson(j);  // report the file's own errors with its name
    } catch (const Error& e) {
      throw Error(ErrorCode::Config, e.subject(), config_file.string() + ": " + e.what());
    }
  }
  for (const auto& s : sets) applySet(j, s);
  return configFromJson(j);
}

void saveConfigFile(const std::filesystem::path& path, const TrainConfig& config) {
  writeFileAtomic(path, configToJson(config).dump(2) + "\n");
}

}  // namespace trainscope

#include "core/config/live_settings.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/errors.h"
#include "core/io/json_parse.h"

namespace trainscope {
namespace {

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

/// `key` is `section` or a key inside it.
bool within(const std::string& key, const std::string& section) {
  return key == section || startsWith(key, section + ".");
}

}  // namespace

bool isLiveSetting(const std::string& key) {
  static const std::vector<std::string> live = [] {
    std::vector<std::string> keys;
    for (const ConfigKeyInfo& k : configKeyInfos())
      if (k.live) keys.push_back(k.key);
    return keys;
  }();
  return std::find(live.begin(), live.end(), key) != live.end();
}

bool changeableOnResume(const std::string& key) {
  return isLiveSetting(key) || key == "training.epochs" ||
         startsWith(key, "training.early_stopping.") || startsWith(key, "checkpoint.");
}

ResumeSettings resumeSettings(const TrainConfig& saved, const std::vector<std::string>& sets) {
  nlohmann::json j = configToJson(saved);
  std::vector<std::string> named;  // the keys the --set options name
  for (const std::string& s : sets) {
    applySet(j, s);  // Error(Config, key) for a malformed assignment or an unknown key
    named.push_back(s.substr(0, s.find('=')));
  }
  const TrainConfig wanted = configFromJson(j);  // Error(Config, key) for a bad value
  for (const ConfigChange& c : configChanges(saved, wanted))
    if (!changeableOnResume(c.key))
      throw Error(ErrorCode::Config, c.key,
                  "--resume cannot change " + c.key + " (from " + c.before + " to " + c.after +
                      "): a resumed run continues the checkpoint's run; only optimizer.lr, "
                      "training.clip.enabled, training.clip.max_norm, training.amp, "
                      "training.epochs, training.early_stopping.* and checkpoint.* may change "
                      "(start a new run to change " +
                      c.key + ")");
  ResumeSettings r;
  r.config = wanted;
  r.config.optimizer.lr = saved.optimizer.lr;  // live: through the command queue
  r.config.training.clip = saved.training.clip;
  r.config.training.amp = saved.training.amp;
  r.changes = configChanges(saved, r.config);
  for (const std::string& key : named) {
    if (within(key, "optimizer.lr")) r.lr = wanted.optimizer.lr;
    if (within(key, "training.clip.enabled") || within(key, "training.clip.max_norm") ||
        key == "training.clip")
      r.clip = wanted.training.clip;
    if (within(key, "training.amp")) r.amp = wanted.training.amp;
  }
  return r;
}

std::optional<double> configEventValue(const std::string& json_text) {
  const nlohmann::json v = parseJson(json_text, false);
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (v.is_number()) return v.get<double>();
  return std::nullopt;
}

}  // namespace trainscope

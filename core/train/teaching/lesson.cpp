#include "core/train/teaching/lesson.h"

#include <fstream>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"

namespace trainscope {
namespace {

using nlohmann::json;

const std::vector<std::string> kLanguages = {"en", "zh_CN"};

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

bool contains(const std::vector<std::string>& words, const std::string& w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

/// Reads the lesson section with messages that name the file and the place in it.
class Reader {
 public:
  explicit Reader(std::filesystem::path file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw Error(ErrorCode::Config, file_.string(),
                file_.string() + ": " + where + ": " + problem);
  }

  void onlyKeys(const json& j, const std::string& where, const std::vector<std::string>& keys) const {
    for (const auto& [key, value] : j.items())
      if (!contains(keys, key))
        fail(where, "unknown key \"" + key + "\" (expected " + joined(keys) + ")");
  }

  LessonText text(const json& j, const std::string& where) const {
    LessonText t;
    if (j.is_string()) {
      if (j.get_ref<const std::string&>().size() > kMaxLessonTextBytes)
        fail(where, "is " + std::to_string(j.get_ref<const std::string&>().size()) +
                        " bytes; a lesson text is read aloud and shown in a panel: at most " +
                        std::to_string(kMaxLessonTextBytes) + " bytes");
      t.by_language["en"] = j.get<std::string>();
    } else if (j.is_object()) {
      for (const auto& [lang, value] : j.items()) {
        if (!contains(kLanguages, lang))
          fail(where, "unknown language \"" + lang + "\" (expected " + joined(kLanguages) + ")");
        if (!value.is_string() || value.get<std::string>().empty())
          fail(where + "." + lang, "must be a non-empty string");
        if (value.get_ref<const std::string&>().size() > kMaxLessonTextBytes)
          fail(where + "." + lang, "is " + std::to_string(value.get_ref<const std::string&>().size()) +
                                       " bytes; a lesson text is read aloud and shown in a panel: at "
                                       "most " + std::to_string(kMaxLessonTextBytes) + " bytes");
        t.by_language[lang] = value.get<std::string>();
      }
    } else {
      fail(where, "must be a text: a string, or {\"en\": \"...\", \"zh_CN\": \"...\"}");
    }
    if (t.empty()) fail(where, "is empty");
    return t;
  }

  std::vector<std::string> names(const json& j, const std::string& where,
                                 const std::vector<std::string>& allowed) const {
    if (!j.is_array()) fail(where, "must be a list of names (" + joined(allowed) + ")");
    std::vector<std::string> out;
    for (size_t i = 0; i < j.size(); ++i) {
      const std::string at = where + "[" + std::to_string(i) + "]";
      if (!j[i].is_string() || !contains(allowed, j[i].get<std::string>()))
        fail(at, "unknown name " + j[i].dump() + " (expected " + joined(allowed) + ")");
      out.push_back(j[i].get<std::string>());
    }
    return out;
  }

  /// One action; `config` is the lesson's config as the steps so far leave it (a Set is checked
  /// against it and applied).
  LessonAction action(const json& j, const std::string& where, json& config) const {
    using K = LessonAction::Kind;
    static const std::map<std::string, K> kWords = {
        {"start", K::Start},         {"pause", K::Pause},           {"resume", K::Resume},
        {"stop", K::Stop},           {"step_batch", K::StepBatch},  {"step_epoch", K::StepEpoch},
        {"clear_ghost", K::ClearGhost}};
    LessonAction a;
    if (j.is_string()) {
      const auto it = kWords.find(j.get<std::string>());
      if (it == kWords.end())
        fail(where, "unknown action " + j.dump() + " (expected " + joined(lessonActionNames()) +
                        "; set, run_until_epoch, open_view and sweep take a value: {\"set\": {...}})");
      a.kind = it->second;
      return a;
    }
    if (!j.is_object() || j.size() != 1)
      fail(where, "must be an action word (\"start\") or an object with one key "
                  "({\"run_until_epoch\": 50})");
    const auto& [word, value] = *j.items().begin();
    if (word == "set") {
      a.kind = K::Set;
      if (!value.is_object() || value.empty())
        fail(where + ".set", "must be an object of config keys and values "
                             "({\"optimizer.lr\": 0.1})");
      for (const auto& [key, v] : value.items()) {
        try {
          applySet(config, key + "=" + v.dump());
          (void)configFromJson(config);  // the value must be one the key accepts
        } catch (const Error& e) {
          fail(where + ".set." + key, e.what());
        }
      }
      a.settings = value;
    } else if (word == "run_until_epoch") {
      a.kind = K::RunUntilEpoch;
      if (!value.is_number_integer() || value.get<long long>() < 1)
        fail(where + ".run_until_epoch", "must be a whole number of at least 1, got " + value.dump());
      a.epoch = value.get<long long>();
      const long long planned = config["training"]["epochs"].get<long long>();
      if (a.epoch > planned)
        fail(where + ".run_until_epoch",
             std::to_string(a.epoch) + " is past the run's last epoch (training.epochs is " +
                 std::to_string(planned) + " at this step)");
    } else if (word == "open_view") {
      a.kind = K::OpenView;
      if (!value.is_string() || !contains(lessonViewNames(), value.get<std::string>()))
        fail(where + ".open_view",
             "unknown view " + value.dump() + " (expected " + joined(lessonViewNames()) + ")");
      a.view = value.get<std::string>();
    } else if (word == "sweep") {
      // A sweep of the lesson's settings at this step (the dashboard checks it as
      // `trainscope-cli sweep` does when it starts: core/sweep is above this layer).
      a.kind = K::Sweep;
      if (!value.is_object() || !value.contains("parameters") || !value["parameters"].is_object() ||
          value["parameters"].empty())
        fail(where + ".sweep", "must be an object with \"parameters\" (a sweep file's fields "
                               "without base: {\"parameters\": {\"optimizer.lr\": {\"choices\": "
                               "[0.001, 0.1]}}, \"method\": \"grid\"})");
      onlyKeys(value, where + ".sweep",
               {"name", "parameters", "method", "seed", "max_trials", "concurrent", "objective",
                "pruner", "seeds", "seeds_data"});
      a.settings = value;
    } else if (kWords.count(word)) {
      fail(where, "\"" + word + "\" takes no value: write it as the string \"" + word + "\"");
    } else {
      fail(where, "unknown action \"" + word + "\" (expected " + joined(lessonActionNames()) + ")");
    }
    return a;
  }

  LessonStep step(const json& j, const std::string& where, json& config) const {
    if (!j.is_object()) fail(where, "must be an object with at least \"text\"");
    onlyKeys(j, where, {"text", "look_at", "actions", "question", "hide", "lock"});
    LessonStep s;
    if (!j.contains("text")) fail(where, "has no \"text\"");
    s.text = text(j["text"], where + ".text");
    if (j.contains("look_at")) {
      if (!j["look_at"].is_string() || !contains(lessonViewNames(), j["look_at"].get<std::string>()))
        fail(where + ".look_at", "unknown view " + j["look_at"].dump() + " (expected " +
                                     joined(lessonViewNames()) + ")");
      s.look_at = j["look_at"].get<std::string>();
    }
    if (j.contains("actions")) {
      if (!j["actions"].is_array()) fail(where + ".actions", "must be a list of actions");
      for (size_t i = 0; i < j["actions"].size(); ++i)
        s.actions.push_back(
            action(j["actions"][i], where + ".actions[" + std::to_string(i) + "]", config));
    }
    if (j.contains("question")) s.question = text(j["question"], where + ".question");
    if (j.contains("hide")) s.hide = names(j["hide"], where + ".hide", lessonPartNames());
    if (j.contains("lock")) s.lock = names(j["lock"], where + ".lock", lessonPartNames());
    return s;
  }

 private:
  std::filesystem::path file_;
};

}  // namespace

std::string LessonText::in(const std::string& language) const {
  for (const std::string& lang : {language, std::string("en"), std::string("zh_CN")})
    if (auto it = by_language.find(lang); it != by_language.end()) return it->second;
  return {};
}

const std::vector<std::string>& lessonViewNames() {
  static const std::vector<std::string> names = {
      "loss",       "gradient", "model",  "accuracy", "evaluation",   "diagnosis", "lr",
      "layers",     "loss_scale", "events", "settings", "run_controls", "status",
      "embedding",  "system", "distributions"};
  return names;
}

const std::vector<std::string>& lessonPartNames() {
  static const std::vector<std::string> names = {"settings", "events", "run_controls",
                                                 "bottom_plots", "side_views"};
  return names;
}

const std::vector<std::string>& lessonActionNames() {
  static const std::vector<std::string> names = {
      "set", "start", "pause", "resume", "stop", "step_batch", "step_epoch",
      "run_until_epoch", "open_view", "clear_ghost", "sweep"};
  return names;
}

Lesson lessonFromJson(const json& j, const std::filesystem::path& file) {
  const Reader r(file);
  if (!j.is_object()) r.fail("the file", "is not a JSON object");
  if (!j.contains("lesson")) r.fail("the file", "has no \"lesson\" section (see docs/lessons.md)");
  const json& l = j["lesson"];
  if (!l.is_object()) r.fail("lesson", "must be an object with \"title\" and \"steps\"");
  r.onlyKeys(l, "lesson", {"title", "steps"});
  Lesson lesson;
  lesson.file = file;
  if (!l.contains("title")) r.fail("lesson", "has no \"title\"");
  lesson.title = r.text(l["title"], "lesson.title");
  // The base config: the rest of the file, as a config file reads it.
  json base = j;
  base.erase("lesson");
  json config = defaultConfigJson();
  try {
    if (base.contains(kConfigPresetKey)) {
      if (!base[kConfigPresetKey].is_string())
        r.fail(kConfigPresetKey, "must be the name of a preset");
      mergeConfigJson(config, presetJson(base[kConfigPresetKey].get<std::string>()));
      base.erase(kConfigPresetKey);
    }
    mergeConfigJson(config, base);
    config = configToJson(configFromJson(config));
  } catch (const Error& e) {
    r.fail("the base config", e.what());
  }
  lesson.config = config;
  if (!l.contains("steps") || !l["steps"].is_array() || l["steps"].empty())
    r.fail("lesson.steps", "must be a non-empty list of steps");
  json as_played = config;  // each step's settings apply over the ones before
  if (l["steps"].size() > kMaxLessonSteps)
    r.fail("lesson.steps", "has " + std::to_string(l["steps"].size()) + " steps; a lesson has at most " +
                               std::to_string(kMaxLessonSteps));
  for (size_t i = 0; i < l["steps"].size(); ++i)
    lesson.steps.push_back(
        r.step(l["steps"][i], "lesson.steps[" + std::to_string(i) + "]", as_played));
  return lesson;
}

Lesson readLesson(const std::filesystem::path& path) {
  const std::filesystem::path file = std::filesystem::absolute(path);
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw Error(ErrorCode::Config, file.string(),
                file.string() + " is a folder, not a lesson file (.tslesson or .json)");
  if (!std::filesystem::exists(file, ec))
    throw Error(ErrorCode::Config, file.string(),
                "the lesson file " + file.string() + " does not exist");
  // A FIFO or device would block the open (the dashboard's GUI thread: issue 44 item 6); a
  // file of megabytes is no lesson (its texts are limited far below).
  if (const auto problem = notRegularFileProblem(file))
    throw Error(ErrorCode::Config, file.string(), "the lesson file " + file.string() + " " + *problem);
  if (std::filesystem::file_size(file, ec) > kMaxLessonFileBytes)
    throw Error(ErrorCode::Config, file.string(),
                file.string() + " is larger than " + std::to_string(kMaxLessonFileBytes >> 20) +
                    " MiB: not a lesson file");
  std::ifstream in(file);
  if (!in)
    throw Error(ErrorCode::Config, file.string(), "cannot open the lesson file " + file.string());
  json j;
  try {
    j = parseJson(in);
  } catch (const json::exception& e) {
    throw Error(ErrorCode::Config, file.string(),
                file.string() + ": not JSON (" + e.what() + ")");
  }
  return lessonFromJson(j, file);
}

json lessonToJson(const Lesson& lesson) {
  auto text = [](const LessonText& t) {
    json o = json::object();
    for (const auto& [lang, s] : t.by_language) o[lang] = s;
    return o;
  };
  auto actionJson = [](const LessonAction& a) -> json {
    using K = LessonAction::Kind;
    switch (a.kind) {
      case K::Set: return {{"set", a.settings}};
      case K::Start: return "start";
      case K::Pause: return "pause";
      case K::Resume: return "resume";
      case K::Stop: return "stop";
      case K::StepBatch: return "step_batch";
      case K::StepEpoch: return "step_epoch";
      case K::RunUntilEpoch: return {{"run_until_epoch", a.epoch}};
      case K::OpenView: return {{"open_view", a.view}};
      case K::ClearGhost: return "clear_ghost";
      case K::Sweep: return {{"sweep", a.settings}};
    }
    return nullptr;
  };
  json steps = json::array();
  for (const LessonStep& s : lesson.steps) {
    json o = {{"text", text(s.text)}};
    if (!s.look_at.empty()) o["look_at"] = s.look_at;
    if (!s.actions.empty()) {
      o["actions"] = json::array();
      for (const auto& a : s.actions) o["actions"].push_back(actionJson(a));
    }
    if (!s.question.empty()) o["question"] = text(s.question);
    if (!s.hide.empty()) o["hide"] = s.hide;
    if (!s.lock.empty()) o["lock"] = s.lock;
    steps.push_back(o);
  }
  json out = lesson.config;
  out["lesson"] = {{"title", text(lesson.title)}, {"steps", steps}};
  return out;
}

}  // namespace trainscope

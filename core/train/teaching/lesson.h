#pragma once
/// A lesson: a config to start from and a sequence of steps a teacher walks
/// through in the dashboard, each with a short text in Chinese and English, what to look at, what
/// the app does when the step opens, a question for the class, and which controls are hidden or
/// locked. A lesson file is a config file (a base "preset" and any config keys) with a "lesson"
/// section; `.tslesson` and `.json` files read alike. The format: docs/lessons.md. Torch-free
/// and Qt-free: the dashboard plays it (gui/teaching/lesson_player.h).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

/// Limits of a lesson file (a 10 MB step text froze the dashboard): a text of
/// one language (a title, a step, a question) in bytes of UTF-8, the steps, the file.
inline constexpr std::size_t kMaxLessonTextBytes = 4000;
inline constexpr std::size_t kMaxLessonSteps = 100;
inline constexpr std::uintmax_t kMaxLessonFileBytes = std::uintmax_t{1} << 20;

/// A text in the languages given: "en" and/or "zh_CN".
struct LessonText {
  std::map<std::string, std::string> by_language;
  /// The text in `language` ("en" or "zh_CN"), else in English, else in the other language;
  /// empty when there is none.
  std::string in(const std::string& language) const;
  bool empty() const { return by_language.empty(); }
};

/// What the app does when a step opens, in the order listed.
struct LessonAction {
  enum class Kind {
    Set,           ///< change settings: `settings` (config key -> value), live where the run allows
    Start,         ///< start a new run with the settings (a run still going is stopped first)
    Pause,         ///< pause the run
    Resume,        ///< resume a paused run
    Stop,          ///< end the run
    StepBatch,     ///< one batch, then pause (from idle: a new run, paused after its first step)
    StepEpoch,     ///< to the end of the epoch, then pause
    RunUntilEpoch, ///< start or resume and pause at the end of epoch `epoch`
    OpenView,      ///< bring the view `view` to the front
    ClearGhost,    ///< remove the previous run's dashed curves
    /// start a sweep of the settings as they are (`settings`: a sweep file's fields without
    /// "base", README "Sweeps") and show it in the Sweeps window
    Sweep,
  };
  Kind kind = Kind::Start;
  /// Set: {"optimizer.lr": 0.1, ...}; Sweep: {"parameters": {...}, "method": "grid", ...}
  nlohmann::json settings = nlohmann::json::object();
  long long epoch = 0;                                 ///< RunUntilEpoch
  std::string view;                                    ///< OpenView: one of lessonViewNames()
};

/// One step of a lesson.
struct LessonStep {
  LessonText text;      ///< what the teacher says / the students read (required)
  std::string look_at;  ///< a view or panel to highlight (lessonViewNames), or empty
  std::vector<LessonAction> actions;
  LessonText question;  ///< an optional question for the class
  std::vector<std::string> hide;  ///< parts hidden during the step (lessonPartNames)
  std::vector<std::string> lock;  ///< parts shown but not usable (lessonPartNames)
};

/// A lesson read from a file.
struct Lesson {
  std::filesystem::path file;  ///< absolute
  LessonText title;
  std::vector<LessonStep> steps;
  /// The complete config the lesson starts from: defaults < base preset < the file's keys,
  /// validated (configFromJson accepts it).
  nlohmann::json config;
};

/// The views and panels a step can look at or open: "loss", "gradient", "model", "accuracy",
/// "evaluation", "diagnosis", "lr", "layers", "loss_scale", "events", "settings",
/// "run_controls", "status".
const std::vector<std::string>& lessonViewNames();
/// The parts a step can hide or lock: "settings", "events", "run_controls", "bottom_plots",
/// "side_views".
const std::vector<std::string>& lessonPartNames();
/// The action words ("set", "start", "pause", "resume", "stop", "step_batch", "step_epoch",
/// "run_until_epoch", "open_view", "clear_ghost").
const std::vector<std::string>& lessonActionNames();

/// Reads a lesson file. Throws Error(Config, subject) with a message naming the file and the
/// place in it ("lesson.steps[2].actions[0]: unknown action \"strat\" (start, pause, ...)"):
/// a file that cannot be read or is no JSON object, no "lesson" section, a missing title or
/// step text, an empty step list, an unknown key, view, part, action or language, a "set" of
/// an unknown config key or a value the key does not accept, a bad base config.
Lesson readLesson(const std::filesystem::path& file);
/// The same from JSON already read (`file` names it in messages; it may be a resource path).
Lesson lessonFromJson(const nlohmann::json& json, const std::filesystem::path& file);
/// The JSON of a lesson file: `config` (complete) with a "lesson" section holding `title` and
/// `steps` (as written by the dashboard's Save as lesson). Round-trips through lessonFromJson.
nlohmann::json lessonToJson(const Lesson& lesson);

}  // namespace trainscope

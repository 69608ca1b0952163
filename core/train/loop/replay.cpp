#include "core/train/loop/replay.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/config/config_json.h"
#include "core/config/live_settings.h"
#include "core/data/data_fingerprint.h"
#include "core/errors.h"
#include "core/io/json_parse.h"
#include "core/run/run_reader.h"

namespace trainscope {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(const fs::path& path, const std::string& problem) {
  throw Error(ErrorCode::Config, path.string(), "cannot replay " + path.string() + ": " + problem);
}

/// The JSON object in `file`, or nullopt when the file does not exist. Refuses a file that
/// exists but does not hold a JSON object.
std::optional<nlohmann::json> readObject(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  std::ifstream in(file);
  const nlohmann::json j = parseJson(in, false);
  if (!j.is_object()) refuse(file, "not a JSON object");
  return j;
}

double numberAt(const nlohmann::json& e, const char* key, const fs::path& file, int line) {
  auto it = e.find(key);
  if (it == e.end() || !it->is_number())
    refuse(file, "line " + std::to_string(line) + " has no number '" + key + "'");
  return it->get<double>();
}

}  // namespace

ReplayPlan planReplay(const fs::path& run_dir) {
  std::error_code ec;
  if (!fs::exists(run_dir, ec)) refuse(run_dir, "no such run directory");
  if (!fs::is_directory(run_dir, ec)) refuse(run_dir, "a file, not a run directory");
  const fs::path config_file = run_dir / "config.json", events_file = run_dir / "events.jsonl";
  for (const fs::path& f : {config_file, events_file})
    if (!fs::is_regular_file(f, ec))
      refuse(run_dir, "not a TrainScope run directory (it has no " + f.filename().string() + ")");

  ReplayPlan plan;
  plan.run_dir = run_dir;
  try {
    plan.config = configFromJson(readConfigFile(config_file));
  } catch (const Error& e) {
    refuse(config_file, e.what());
  }
  if (plan.config.training.non_finite == std::optional<std::string>("pause"))
    plan.config.training.non_finite = "skip";

  std::optional<int64_t> resumed_step;
  if (auto run = readObject(run_dir / "run.json")) {
    const auto& r = *run;
    if (r.contains("resumed_from") && r["resumed_from"].is_object()) {
      plan.resume_from = r["resumed_from"].value("file", "");
      resumed_step = r["resumed_from"].value("step", int64_t{0});
    }
    if (r.contains("init_weights") && r["init_weights"].is_object())
      plan.init_weights = r["init_weights"].value("file", "");
    // The data files the run read: the replay must read the same.
    if (r.contains("data") && r["data"].is_object() && r["data"].contains("files")) {
      try {
        plan.data_files = r["data"]["files"].get<std::vector<DataFile>>();
      } catch (const nlohmann::json::exception& e) {
        throw Error(ErrorCode::Config, (run_dir / "run.json").string(),
                    (run_dir / "run.json").string() + ": data.files is malformed (" + e.what() + ")");
      }
    }
  }

  std::vector<StepRecord> steps;
  try {
    steps = readStepsCsvRows(run_dir / "steps.csv");  // the raw rows: roll-backs show
  } catch (const Error&) {
    // no steps.csv: the run ended before its first step
  }
  // Where the roll-backs happened: after the last step before steps.csv's steps go back (the
  // rolled_back event carries the snapshot's step). A resumed run's first rows are its source
  // run's, roll-backs included: only drops after the resume step count.
  std::vector<int64_t> rollback_at;
  for (size_t i = 1; i < steps.size(); ++i)
    if (steps[i].step <= steps[i - 1].step && steps[i - 1].step > resumed_step.value_or(0))
      rollback_at.push_back(steps[i - 1].step);

  std::ifstream in(events_file);
  if (!in) refuse(events_file, "cannot be read");
  std::string text;
  size_t rollbacks = 0;
  // The roll-back whose own config_changed events (lr x factor, clipping on) follow it.
  constexpr size_t kNone = static_cast<size_t>(-1);
  size_t folding = kNone;  // index in plan.commands
  int64_t folding_step = 0;
  bool folded_lr = false, folded_clip = false;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty()) continue;
    const nlohmann::json e = parseJson(text, false);
    if (!e.is_object()) refuse(events_file, "line " + std::to_string(line) + " is not JSON");
    const std::string kind = e.value("kind", "");
    const std::string what = e.value("what", "");
    if (kind == "rolled_back") {
      folding = kNone;
      if (what == "failed") continue;  // nothing was restored
      // After the last roll-back nothing may have been trained again: nothing to repeat.
      if (rollbacks >= rollback_at.size()) continue;
      const auto to = static_cast<int64_t>(numberAt(e, "value", events_file, line));
      command::RollBack c;
      c.before_step = to + 1;  // the newest snapshot before step to + 1: `to`
      plan.commands.push_back({rollback_at[rollbacks++], c});
      folding = plan.commands.size() - 1;
      folding_step = to;
      folded_lr = folded_clip = false;
      ++plan.changes;
      continue;
    }
    if (kind != "config_changed") continue;
    const auto step = static_cast<int64_t>(numberAt(e, "step", events_file, line));
    if (folding != kNone && step == folding_step &&
        ((what == "optimizer.lr" && !folded_lr) ||
         (what == "training.clip.max_norm" && !folded_clip))) {
      auto& c = std::get<command::RollBack>(plan.commands[folding].command);
      if (what == "optimizer.lr") {
        c.lr = numberAt(e, "value", events_file, line);
        folded_lr = true;
      } else {
        c.enable_clipping = true;
        folded_clip = true;
      }
      continue;
    }
    folding = kNone;
    if (what == "training.non_finite") {
      // The policy changed live (the dashboard's "keep going, skip bad steps" or its settings
      // row): the message names it, "non-finite policy <word> from step N". "pause" becomes
      // "skip" as at the start (a replay has nobody to resume it).
      const std::string prefix = "non-finite policy ", message = e.value("message", "");
      std::string policy =
          message.compare(0, prefix.size(), prefix) == 0
              ? message.substr(prefix.size(), message.find(' ', prefix.size()) - prefix.size())
              : std::string();
      if (policy != "pause" && policy != "stop" && policy != "skip")
        refuse(events_file, "line " + std::to_string(line) +
                                " changes training.non_finite but names no policy (pause, stop "
                                "or skip)");
      plan.commands.push_back(
          {step, command::SetNonFinitePolicy{policy == "pause" ? "skip" : policy}});
      ++plan.changes;
      continue;
    }
    if (!isLiveSetting(what)) {
      // A resumed run's non-live changes at the resume are in its config.json already.
      if (resumed_step && step == *resumed_step && changeableOnResume(what)) continue;
      refuse(events_file, "line " + std::to_string(line) + " changes " + what + " at step " +
                              std::to_string(step) + ", which a replay cannot apply");
    }
    const double value = numberAt(e, "value", events_file, line);
    Command c = command::SetLearningRate{value};
    if (what == "training.amp") {
      c = command::SetAmp{value != 0};
    } else if (what == "training.clip.max_norm" || what == "training.clip.enabled") {
      // The event names max_norm when it turned clipping on; its value is max_norm either way.
      c = command::SetClip{what == "training.clip.max_norm", value};
    }
    plan.commands.push_back({step, c});
    ++plan.changes;
  }

  if (auto summary = readObject(run_dir / "summary.json")) {
    plan.stop_reason = summary->value("stop_reason", "");
    if (plan.stop_reason == "stopped" || plan.stop_reason == "interrupted" ||
        plan.stop_reason == "error")
      plan.stop_step = summary->value("global_step", int64_t{0});
  } else {
    plan.stop_step = steps.empty() ? resumed_step.value_or(0) : steps.back().step;
  }
  if (plan.stop_step) plan.commands.push_back({*plan.stop_step, command::Stop{}});
  return plan;
}

}  // namespace trainscope

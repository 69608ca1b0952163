#pragma once
/// trials.jsonl: one JSON line per change of a trial's state, written by the sweep's
/// orchestrator alone, whole lines only (core/io/line_file.h). The last line of a trial is its
/// current state. Torch-free.
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/sweep/sweep_file.h"

namespace trainscope {

/// The states of a trial (README "Sweeps"): queued, running, completed, pruned, failed, crashed.
namespace trial_state {
inline constexpr const char* kQueued = "queued";
inline constexpr const char* kRunning = "running";
inline constexpr const char* kCompleted = "completed";
inline constexpr const char* kPruned = "pruned";
inline constexpr const char* kFailed = "failed";
inline constexpr const char* kCrashed = "crashed";
}  // namespace trial_state

/// One line of trials.jsonl.
struct TrialLine {
  int64_t trial = 0;         ///< from 0
  std::string state;         ///< trial_state::k*
  TrialValues values;        ///< key -> value
  std::string run;           ///< the trial's run folder, relative to the sweep folder
  int64_t config = 0;        ///< its configuration (SweepPlan::configs): seeds share one
  int attempt = 1;           ///< 2 for the retry of a failed or crashed trial
  std::optional<double> objective;  ///< once known (the run-table column the sweep names)
  std::string run_status;    ///< the run table's status of the finished run ("diverged", ...)
  std::optional<int> exit_code;     ///< the trial process's (128 + N: killed by signal N)
  std::string error;         ///< why it failed or crashed, in words
  std::string reason;        ///< why it was pruned: the rule and its numbers
  std::optional<int64_t> pruned_epoch;  ///< the epoch at which the pruner decided
  /// A trial stopped with its sweep: the checkpoint it goes on from (relative to the sweep
  /// folder) when the sweep is resumed.
  std::string resume_from;
  std::optional<int64_t> pid;       ///< the trial process while running (local)
  std::string slurm_job_id;  ///< its Slurm job ("123", an array task "123_4"), once submitted
  double seconds = 0;        ///< wall time of the attempt, once it ended
  std::string time;          ///< when the line was written (ISO 8601, UTC)
};

nlohmann::json toJson(const TrialLine& t);
/// Throws nlohmann::json::exception for a line that is not a trial line.
TrialLine trialLineFromJson(const nlohmann::json& j);

/// The current state of every trial in `file` (its last whole line), by trial number. A line
/// that does not parse (a torn last line of a disk that filled up) is skipped. Throws
/// Error(Io, file) when the file cannot be read.
std::map<int64_t, TrialLine> readTrialsLog(const std::filesystem::path& file);

}  // namespace trainscope

#pragma once
/// Following a run that another process is writing: polls the run folder's files
/// and returns what was appended since the last poll. Read-only (files opened for reading, never
/// locked), so the writer is never blocked. Torch-free, Qt-free: the CLI's `follow` and the
/// dashboard's live view of a foreign run use it alike.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/run/records.h"

namespace trainscope {

/// The complete lines appended to one file since the last poll. A last line without its
/// newline (the writer is in the middle of it) is kept back until it is complete. A file that
/// was replaced (another inode: a run restarted with --overwrite) or truncated (shorter than
/// what was read) is read again from its first line, and the poll says so.
class LineTail {
 public:
  explicit LineTail(std::filesystem::path file);

  struct Poll {
    std::vector<std::string> lines;  ///< new complete lines, without their newlines
    bool reset = false;              ///< the file was replaced or truncated: lines start at line 1
    int64_t first_line = 1;          ///< 1-based line number of lines[0]
  };
  /// Never throws: a file that does not exist (yet) gives no lines.
  Poll poll();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  uint64_t offset_ = 0;         ///< bytes consumed (complete lines and the kept partial line)
  uint64_t ino_ = 0, dev_ = 0;  ///< identity of the file read; 0 before it exists
  std::string partial_;         ///< an unfinished last line
  int64_t lines_read_ = 0;
};

/// What a followed run is doing.
enum class FollowState {
  Waiting,  ///< no run.json yet
  Running,  ///< a process holds the folder and appends
  Stalled,  ///< a process holds the folder but nothing was appended for stall_seconds
  Crashed,  ///< no process holds it and there is no summary.json
  Finished  ///< summary.json is there (FollowStatus::run_status says how it ended)
};

/// The state's word, as `trainscope-cli follow` prints it: "waiting", "running", "stalled",
/// "crashed", "finished".
const char* followStateName(FollowState state);

struct FollowStatus {
  FollowState state = FollowState::Waiting;
  /// Once Finished: the final status of run_table.h (completed, stopped, interrupted, diverged,
  /// failed); empty before.
  std::string run_status;
  std::string detail;          ///< English: why stalled / crashed, the holder of the folder
  double idle_seconds = 0;     ///< since the last appended line of any file
  bool finished() const { return state == FollowState::Finished || state == FollowState::Crashed; }
};

class RunFollower {
 public:
  /// Follows `dir` (need not exist yet). `stall_seconds`: how long without an appended line
  /// before a run whose process is alive reads as "stalled" (a paused run, a long validation,
  /// a hung process look alike from outside; the detail says so).
  explicit RunFollower(std::filesystem::path dir, double stall_seconds = 60);

  /// What was appended since the last poll.
  struct Update {
    /// The files were replaced or truncated: forget what came before; the records below start
    /// from the first line again.
    bool reset = false;
    std::optional<RunInfo> info;  ///< once, when run.json and config.json can be read
    std::vector<StepRecord> steps;
    std::vector<EpochRecord> epochs;
    std::vector<Event> events;
    std::optional<RunSummary> summary;  ///< once, when summary.json appears
    FollowStatus status;
  };
  /// Reads what is new. A row that does not parse throws Error(Io, file) naming its line
  /// (the file is not a TrainScope run file); a missing file is simply not there yet.
  Update poll();
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  double stall_seconds_;
  LineTail steps_, metrics_, events_;
  std::string steps_header_, metrics_header_;
  bool info_sent_ = false, summary_sent_ = false;
  double last_change_ = 0;  ///< steady-clock seconds of the last appended line
};

/// The table's status for a finished run's stop reason: completed (also early_stop), stopped,
/// interrupted, diverged (non_finite, diverged) or failed (error).
std::string runStatusOf(StopReason reason);

}  // namespace trainscope

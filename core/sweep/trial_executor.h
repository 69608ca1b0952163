#pragma once
/// Where a sweep's trials run: the orchestrator hands each trial's `train` command to an
/// executor and reads back when it started and how it ended. `local`: child processes on this
/// machine; `slurm`: Slurm jobs (slurm_executor.h). Torch-free.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/sweep/sweep_file.h"

namespace trainscope {

/// One trial to run: the engine's arguments, its environment, where its output goes.
struct TrialLaunch {
  int64_t trial = 0;
  std::string run;                ///< its run folder, relative to the sweep folder
  std::vector<std::string> args;  ///< the engine's arguments ("train", "--config", ...)
  std::vector<std::pair<std::string, std::string>> env;  ///< set for the trial
  std::filesystem::path output;   ///< its stdout and stderr, appended
};

/// What happened to a trial since the last look.
struct TrialEvent {
  enum class Kind {
    Submitted,  ///< waiting in the scheduler's queue (slurm): `job` known
    Started,    ///< running: `pid` (local) or `job` (slurm)
    Ended,      ///< its process ended: `exit_code`, `killed`, `how`
  };
  Kind kind = Kind::Started;
  int64_t trial = 0;
  std::optional<int64_t> pid;  ///< local: the trial process
  std::string job;             ///< slurm: its job id ("123" or an array task "123_4")
  int exit_code = 0;  ///< the shell's: the process's code, 128 + N when killed by signal N
  /// Ended without an exit code of its own: killed by a signal (local), or cancelled, out of
  /// time or lost by the scheduler (slurm).
  bool killed = false;
  std::string how;  ///< "exited with code 2", "ended as TIMEOUT in Slurm", ...
  /// Ended: the trial process's wall time when the executor measured it where it ran (slurm's
  /// trial script); else the orchestrator's time from Started to Ended.
  std::optional<double> seconds;
};

/// Runs trials somewhere. Used by the orchestrator's thread alone.
class TrialExecutor {
 public:
  virtual ~TrialExecutor() = default;
  /// "local" or "slurm".
  virtual std::string kind() const = 0;
  /// How many trials the orchestrator may hand over now with `in_flight` handed over and not
  /// ended, `concurrent` at a time. local: concurrent - in_flight. slurm: when nothing is in
  /// flight and the queue is fixed (grid, random), every queued trial at once as one array job
  /// (Slurm keeps `concurrent` of them running, the %concurrent limit); else up to
  /// `concurrent`.
  virtual size_t room(size_t in_flight, int concurrent, bool fixed_queue) const = 0;
  /// The torch threads each trial gets (its training.num_threads).
  virtual int threadsPerTrial(int concurrent) const = 0;
  /// Hands `launches` over: what happened at once (Started for local, Submitted for slurm).
  /// Throws Error(Config, "executor") when the scheduler refuses them (sbatch's message).
  virtual std::vector<TrialEvent> submit(const std::vector<TrialLaunch>& launches) = 0;
  /// What happened since the last call (cheap to call often: slurm asks squeue at most once a
  /// second).
  virtual std::vector<TrialEvent> poll() = 0;
  /// Sends `sig` to a running trial's process (SIGINT for a pruned trial).
  virtual void signal(int64_t trial, int sig) = 0;
  /// The sweep stops: trials still waiting in a queue are withdrawn (returned: they never
  /// started), running ones get `sig` and end by themselves (poll says when).
  virtual std::vector<int64_t> stop(int sig) = 0;
  /// A resumed sweep takes over a trial whose scheduler job (`job`, from trials.jsonl) still
  /// waits or runs (`run`: its run folder): true when it does (poll then reports it), false
  /// when it is gone.
  virtual bool adopt(int64_t trial, const std::string& run, const std::string& job) = 0;
};

/// The local executor: `engine` children on this machine, each in its own process group with
/// SIGTERM on the orchestrator's death; `cores` shared (max(1, cores / concurrent) threads each).
std::unique_ptr<TrialExecutor> makeLocalExecutor(std::filesystem::path engine, int cores);

/// The executor a sweep names: local, or slurm (makeSlurmExecutor, slurm_executor.h) with the
/// trial scripts in `dir`/slurm. Throws Error(Config, "executor.kind") when Slurm's commands
/// are missing.
std::unique_ptr<TrialExecutor> makeExecutor(const SweepSpec& spec, const std::filesystem::path& dir,
                                            const std::filesystem::path& engine, int cores);

}  // namespace trainscope

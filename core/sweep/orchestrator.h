#pragma once
/// The sweep's orchestrator: the one writer of the sweep folder, running its trials as
/// `trainscope-cli train` processes on this machine (the local executor), `concurrent` at a time.
/// Torch-free.
///
/// The sweep folder: sweep.json (the file as given, the resolved seed and base config, the
/// plan), base.json (the base config every trial starts from), trials.jsonl (trials_log.h), and
/// per trial a run folder "NNN-key=value,..." with its output in "NNN-....log" beside it.
#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/sweep/sweep_file.h"
#include "core/sweep/trials_log.h"

namespace trainscope {

/// How a sweep runs.
struct SweepRunOptions {
  std::filesystem::path dir;     ///< the sweep folder
  std::filesystem::path engine;  ///< the program whose `train` runs a trial
  int cores = 0;                 ///< CPU cores to share (0: this process's affinity)
  /// Set by the caller (a signal watcher) to SIGINT or SIGTERM: the trials are passed the signal
  /// (they stop, saving last.pt), the sweep ends with 128 + signal and resumes later.
  const std::atomic<int>* stop_signal = nullptr;
  std::function<void(const std::string&)> say;   ///< a line per finished trial (stdout)
  std::function<void(const std::string&)> warn;  ///< warnings (stderr)
};

/// How a sweep ended.
struct SweepOutcome {
  int exit_code = 0;  ///< 0: every trial ended; 128 + N: stopped by signal N
  SweepSpec spec;
  std::vector<TrialLine> trials;  ///< each trial's last state, by number
  std::string note;               ///< the plan's note (a capped budget)
};

/// Starts the sweep `spec` in options.dir: refused (Error(Config, dir)) when the folder exists
/// and is not empty, or another process holds it; writes sweep.json, base.json and the queued
/// trials (planTrials), then runs them.
SweepOutcome startSweep(const SweepSpec& spec, const SweepRunOptions& options);

/// Continues the sweep in options.dir (after an interrupt, kill -9 or a reboot): finished trials
/// are never rerun; a trial that was running is rerun from its last.pt when it has one (in a
/// new run folder), from the start otherwise; a failed or crashed trial is retried once, then
/// left failed with its error. Throws Error(Config, dir) when the folder holds no sweep or
/// another process holds it.
SweepOutcome resumeSweep(const SweepRunOptions& options);

/// The trials best first by objective (those without one last, then by number).
std::vector<TrialLine> rankTrials(const SweepOutcome& outcome);

/// One configuration of a sweep over seeds ("seeds": N): its values without the seeds and the
/// objectives of its trials.
struct ConfigResult {
  int64_t config = 0;
  TrialValues values;           ///< the first trial's, training.seed and data.seed left out
  std::vector<int64_t> trials;  ///< its trials, by number
  int64_t n = 0;                ///< trials with an objective
  std::optional<double> mean;   ///< of those objectives
  /// Their sample standard deviation (n - 1 in the denominator, numpy's std(ddof=1)); none
  /// below two values.
  std::optional<double> std;
};

/// The configurations best first by mean objective (those without one last, then by number).
std::vector<ConfigResult> rankConfigs(const SweepOutcome& outcome);

}  // namespace trainscope

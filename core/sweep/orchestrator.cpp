#include "core/sweep/orchestrator.h"

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/io/line_file.h"
#include "core/io/tfevents_writer.h"
#include "core/run/run_dir.h"
#include "core/run/run_lock.h"
#include "core/run/run_reader.h"
#include "core/run/run_table.h"
#include "core/run/tensorboard_hparams.h"
#include "core/sweep/optuna_tpe.h"
#include "core/sweep/pruners.h"
#include "core/sweep/samplers.h"
#include "core/sweep/slurm_executor.h"
#include "core/sweep/sweep_folder.h"
#include "core/sweep/trial_executor.h"
#include "core/system/child_process.h"
#include "core/system/clock.h"
#include "core/system/device_info.h"
#include "core/system/number_format.h"

namespace trainscope {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
constexpr auto kPrunePoll = std::chrono::milliseconds(50);  ///< how often running trials are read

constexpr const char* kSweepFile = kSweepRecordFile;
constexpr const char* kBaseFile = "base.json";
constexpr const char* kTrialsFile = "trials.jsonl";

/// One sweep folder being run. The orchestrator is the only writer of trials.jsonl.
class Sweep {
 public:
  Sweep(const SweepRunOptions& options, SweepSpec spec)
      : options_(options), spec_(std::move(spec)), lock_(options.dir),
        trials_file_(options.dir / kTrialsFile),
        pruner_(makePruner(spec_, {&trials, [this](int64_t n) -> const TrialCurve& {
                                     return finishedCurve(n);
                                   }})),
        tpe_(spec_.method == "tpe" ? std::make_unique<OptunaTpe>(spec_, options.dir) : nullptr),
        executor_(makeExecutor(spec_, options.dir, options.engine,
                               options.cores > 0 ? options.cores : affinityCores())) {}

  /// The current state of each trial (from trials.jsonl on a resume).
  std::map<int64_t, TrialLine> trials;
  std::string note;

  /// A last line cut short (a full disk, a crash mid-write) ends here, so the next line
  /// starts whole; the torn line stays unread.
  void endTornLine() {
    std::ifstream in(options_.dir / kTrialsFile, std::ios::binary | std::ios::ate);
    const std::streamoff size = in.tellg();
    if (size <= 0) return;
    in.seekg(size - 1);
    if (in.get() != '\n') trials_file_.append("");
  }

  void write(TrialLine& t) {
    t.time = isoTimeNow();
    trials_file_.append(toJson(t).dump());
    trials[t.trial] = t;
  }

  SweepOutcome run(std::vector<int64_t> queue, const std::map<int64_t, fs::path>& resume_from) {
    const int cores = options_.cores > 0 ? options_.cores : affinityCores();
    const int threads = executor_->threadsPerTrial(spec_.concurrent);
    const bool local = executor_->kind() == "local";
    if (local && spec_.concurrent > cores && options_.warn)
      options_.warn(std::to_string(spec_.concurrent) + " trials at once on " +
                    std::to_string(cores) + " cores at 1 thread each: they will share the cores");
    if (options_.say)
      options_.say("sweep " + spec_.name + ": " +
                   (tpe_ ? std::to_string(static_cast<int64_t>(queue.size()) + spec_.max_trials -
                                          std::min(runCount(), spec_.max_trials)) +
                               " trial(s) to run (asked of Optuna's TPE one by one), "
                         : std::to_string(queue.size() + running_.size()) + " trial(s) to run, ") +
                   std::to_string(spec_.concurrent) + " at a time with " +
                   std::to_string(threads) + " thread(s) each" +
                   (local ? "" : " as Slurm jobs") + ", in " + options_.dir.string());
    Clock::time_point last_prune_check{};
    int stop = 0;
    size_t next = 0;
    while ((!stop && (next < queue.size() || (tpe_ && !tpe_done_ && runCount() < spec_.max_trials))) ||
           !running_.empty()) {
      if (!stop && options_.stop_signal && options_.stop_signal->load() != 0) {
        stop = options_.stop_signal->load();
        for (int64_t n : executor_->stop(stop)) {  // never started: queued as they were
          running_.erase(n);
          TrialLine t = trials.at(n);
          t.state = trial_state::kQueued;
          t.slurm_job_id.clear();
          write(t);
        }
      }
      if (!stop) {
        std::vector<TrialLaunch> launches;
        size_t room = executor_->room(running_.size(), spec_.concurrent, !tpe_);
        while (launches.size() < room) {
          if (next == queue.size() && tpe_ && !tpe_done_ && runCount() < spec_.max_trials) {
            if (auto t = askTpe()) {
              write(*t);
              queue.push_back(t->trial);
            } else {
              tpe_done_ = true;  // TPE keeps asking for configurations already run
            }
          }
          if (next == queue.size()) break;
          const int64_t n = queue[next++];
          const auto from = resume_from.find(n);
          launches.push_back(launch(n, threads, from == resume_from.end() ? fs::path() : from->second));
        }
        if (!launches.empty()) handle(executor_->submit(launches), stop != 0, queue);
      }
      if (pruner_ && !stop && Clock::now() - last_prune_check > kPrunePoll) {
        last_prune_check = Clock::now();
        for (auto& [n, r] : running_) {
          if (!r.pruned.empty() || !r.is_running) continue;
          const TrialLine& t = trials.at(n);
          if (auto d = pruner_->look(n, readTrialCurve(spec_.metric, options_.dir / t.run))) {
            r.pruned = d->why;
            r.pruned_epoch = d->epoch;
          }
        }
        for (auto& [n, r] : running_)
          if (!r.pruned.empty() && !r.signalled) {
            writeFileAtomic(pruneFile(trials.at(n).run), r.pruned + "\n");
            executor_->signal(n, SIGINT);
            r.signalled = true;
          }
      }
      const std::vector<TrialEvent> events = executor_->poll();
      if (!events.empty()) {
        handle(events, stop != 0, queue);
        continue;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    bool any_completed = false, any_objective = false;
    for (const auto& [n, t] : trials) {
      any_completed = any_completed || t.state == trial_state::kCompleted;
      any_objective = any_objective || t.objective.has_value();
    }
    const bool all_failed = !trials.empty() && std::all_of(trials.begin(), trials.end(), [](const auto& kv) {
      return kv.second.state == trial_state::kFailed || kv.second.state == trial_state::kCrashed;
    });
    if (all_failed && !stop && options_.warn)
      options_.warn("every trial failed: the last error of each is in trials.jsonl and the "
                    "trial's .log beside its folder");
    if (any_completed && !any_objective && options_.warn)
      options_.warn("no trial has a value for " + spec_.metric +
                    " (an accuracy on regression data, R^2 on classes, or no validation "
                    "split?): the table cannot rank them");
    SweepOutcome out;
    out.exit_code = stop ? 128 + stop : 0;
    out.spec = spec_;
    out.note = note;
    for (const auto& [n, t] : trials) out.trials.push_back(t);
    return out;
  }

 private:
  struct Running {
    bool is_running = false;    ///< started (not waiting in a scheduler's queue)
    Clock::time_point started{};
    std::string pruned;         ///< the pruner stopped it: why
    int64_t pruned_epoch = 0;   ///< at this epoch
    bool signalled = false;     ///< its prune file written and SIGINT sent
  };

  /// A pruned trial's objective as of the epoch it was pruned at (it trains on until it reads
  /// the signal; later epochs would make it incomparable): the best value up to that epoch
  /// for a best_* objective, the value at it for a final_* one.
  std::optional<double> objectiveUpTo(const std::string& run, int64_t epoch) const {
    std::optional<double> out;
    const bool best = spec_.metric.rfind("best_", 0) == 0;
    for (const auto& [e, v] : readTrialCurve(spec_.metric, options_.dir / run)) {
      if (e > epoch || !std::isfinite(v)) continue;
      if (!best || !out || (spec_.maximize ? v > *out : v < *out)) out = v;
    }
    return out;
  }

  fs::path pruneFile(const std::string& run) const { return options_.dir / (run + ".prune"); }

  /// The curve of a finished trial (completed or pruned), read once.
  const TrialCurve& finishedCurve(int64_t n) {
    auto it = finished_curves_.find(n);
    if (it == finished_curves_.end())
      it = finished_curves_
               .emplace(n, readTrialCurve(spec_.metric, options_.dir / trials.at(n).run))
               .first;
    return it->second;
  }

  std::map<int64_t, TrialCurve> finished_curves_;

  /// The trial's `train` command: from the base with its values, or on from a checkpoint.
  /// Its line is written when the executor says it was submitted or started (handle).
  TrialLaunch launch(int64_t n, int threads, const fs::path& resume_from) {
    TrialLine& t = trials.at(n);
    const fs::path dir = options_.dir;
    TrialLaunch l;
    l.trial = n;
    const std::string base = trialFolderName(n, t.values);
    if (!resume_from.empty()) {
      // The run that was interrupted goes on from its last.pt, in a run folder of its own.
      t.run = freeName(dir, base + "-resumed");
      l.args = {"train", "--resume", resume_from.string(), "--set",
                "training.num_threads=" + std::to_string(threads)};
    } else {
      t.run = freeName(dir, t.attempt > 1 ? base + "-attempt" + std::to_string(t.attempt) : base);
      l.args = {"train", "--config", (dir / kBaseFile).string()};
      for (const auto& [key, value] : t.values.items())
        l.args.insert(l.args.end(), {"--set", key + "=" + value.dump()});
      l.args.insert(l.args.end(), {"--set", "training.num_threads=" + std::to_string(threads)});
    }
    l.args.insert(l.args.end(), {"--out", (dir / t.run).string()});
    l.run = t.run;
    l.output = dir / (t.run + ".log");
    if (spec_.pruner != "none") l.env = {{kPruneFileEnv, pruneFile(t.run).string()}};
    t.resume_from.clear();
    t.objective.reset();
    t.exit_code.reset();
    t.error.clear();
    t.run_status.clear();
    t.slurm_job_id.clear();
    t.seconds = 0;
    running_[n] = Running{};
    return l;
  }

  /// What the executor said: submitted (queued with its job id), started (running), ended.
  void handle(const std::vector<TrialEvent>& events, bool stopping, std::vector<int64_t>& queue) {
    for (const TrialEvent& e : events) {
      const auto r = running_.find(e.trial);
      if (r == running_.end()) continue;
      TrialLine t = trials.at(e.trial);
      if (e.kind == TrialEvent::Kind::Submitted) {
        t.state = trial_state::kQueued;
        t.slurm_job_id = e.job;
        write(t);
      } else if (e.kind == TrialEvent::Kind::Started) {
        t.state = trial_state::kRunning;
        t.pid = e.pid;
        if (!e.job.empty()) t.slurm_job_id = e.job;
        r->second.is_running = true;
        r->second.started = Clock::now();
        write(t);
      } else {
        const Running done = r->second;
        running_.erase(r);
        finished(e.trial, done, e, stopping, queue);
      }
    }
  }

  std::map<int64_t, Running> running_;  ///< handed to the executor, not ended: by trial

  void finished(int64_t n, const Running& r, const TrialEvent& e, bool stopping,
                std::vector<int64_t>& queue) {
    TrialLine t = trials.at(n);
    const int code = e.exit_code;
    const bool by_signal = e.killed;
    t.pid.reset();
    if (code >= 0) t.exit_code = code; else t.exit_code.reset();
    if (e.seconds)
      t.seconds = roundTo(*e.seconds, 1e-3);
    else if (r.is_running)
      t.seconds = roundTo(std::chrono::duration<double>(Clock::now() - r.started).count(), 1e-3);
    // Stopped with the sweep (130, 143, or the signal itself): queued again, to go on from its
    // last.pt when the sweep is resumed.
    if (stopping && (code == 130 || code == 143 || by_signal)) {
      t.state = trial_state::kQueued;
      std::error_code ec;
      const fs::path last = fs::path(t.run) / "checkpoints" / "last.pt";
      if (fs::is_regular_file(options_.dir / last, ec)) t.resume_from = last.string();
      write(t);
      return;
    }
    const RunRow row = readRunRow(options_.dir / t.run);
    t.run_status = row.status;
    if (!r.pruned.empty() && row.status != "completed") {  // (a decision too late: completed)
      t.state = trial_state::kPruned;
      t.reason = r.pruned;
      t.pruned_epoch = r.pruned_epoch;
      t.objective = objectiveUpTo(t.run, r.pruned_epoch);
    } else if (code == 0 || code == 3 || row.status == "completed" || row.status == "diverged") {
      // completed, early stopped, diverged: a result (also when a late prune signal arrived
      // after its summary was written)
      t.state = trial_state::kCompleted;
      t.objective = objectiveOf(row, spec_.metric);
    } else {
      t.state = by_signal || code == 130 || code == 143 ? trial_state::kCrashed
                                                        : trial_state::kFailed;
      t.error = "the trial " + e.how;
      const std::string said = lastError(options_.dir / (t.run + ".log"));
      if (!said.empty()) t.error += ": " + said;
    }
    write(t);
    say(t);
    if (t.state == trial_state::kCompleted && !t.objective && !warned_no_objective_ && options_.warn) {
      warned_no_objective_ = true;  // said now, not after every trial ran
      options_.warn("trial " + std::to_string(t.trial) + " completed without a value for " +
                    spec_.metric + " (an accuracy on regression data, R^2 on classes, or no "
                    "validation split?): the sweep cannot rank such trials; stop it (Ctrl-C) "
                    "and choose another objective");
    }
    tellOptuna(t);
    if (t.state != trial_state::kCompleted && t.state != trial_state::kPruned &&
        t.attempt < 2) {  // retried once
      TrialLine again = t;
      again.attempt = t.attempt + 1;
      again.state = trial_state::kQueued;
      again.exit_code.reset();
      again.error.clear();
      again.run_status.clear();
      again.seconds = 0;
      write(again);
      queue.push_back(t.trial);
    }
  }

  void say(const TrialLine& t) {
    if (!options_.say) return;
    std::string values;
    for (const auto& [key, value] : t.values.items())
      values += (values.empty() ? "" : " ") + key + "=" + shortValue(value);
    std::string line = "trial " + std::to_string(t.trial) + " " + t.state;
    if (t.attempt > 1) line += " (attempt " + std::to_string(t.attempt) + ", the retry)";
    if (t.run_status != "completed" && !t.run_status.empty() && t.state == trial_state::kCompleted)
      line += " (" + t.run_status + ")";
    line += ": " + values;
    if (t.objective) line += "  " + spec_.metric + " " + formatHuman(*t.objective);
    if (!t.error.empty()) line += "  " + t.error;
    if (!t.reason.empty()) line += "  (" + t.reason + ")";
    line += "  (" + formatHuman(t.seconds) + " s)";
    options_.say(line);
  }

  SweepRunOptions options_;
  SweepSpec spec_;
  RunDirLock lock_;  ///< the sweep folder's: a second orchestrator is refused
  LineFile trials_file_;
  std::unique_ptr<Pruner> pruner_;  ///< null without pruning
  std::unique_ptr<OptunaTpe> tpe_;  ///< method tpe: asks for trials, is told their results
  std::unique_ptr<TrialExecutor> executor_;  ///< where the trials run
  bool tpe_done_ = false;           ///< TPE asked only configurations already run, many times
  bool warned_no_objective_ = false;  ///< a completed trial without the objective was said
  int64_t next_ask_ = 0;            ///< the number Optuna gives the next trial asked

  /// The next TPE trial, a configuration not run yet: over a discrete space TPE may propose one
  /// again, which is told its known result (as Optuna's docs advise for repeats) and asked
  /// past, up to 50 times; none when every proposal was a repeat.
  std::optional<TrialLine> askTpe() {
    next_ask_ = std::max(next_ask_, asked());
    for (int tries = 0; tries < 50; ++tries) {
      auto [n, values] = tpe_->ask(next_ask_);
      next_ask_ = n + 1;
      const TrialLine* same = nullptr;
      for (const auto& [m, other] : trials)
        if (other.values == values) same = &other;
      if (same) {
        if (same->objective)
          tpe_->tell(n, "complete", same->objective);
        else
          tpe_->tell(n, "fail", std::nullopt);
        continue;
      }
      TrialLine t;
      t.trial = n;
      t.state = trial_state::kQueued;
      t.values = std::move(values);
      t.config = n;
      t.run = trialFolderName(n, t.values);
      return t;
    }
    return std::nullopt;
  }

 public:
  /// Trials asked of Optuna so far (their numbers run from 0).
  int64_t asked() const { return trials.empty() ? 0 : trials.rbegin()->first + 1; }
  /// Trials of the sweep (tpe: those asked and not skipped as repeats): what max_trials counts.
  int64_t runCount() const { return static_cast<int64_t>(trials.size()); }
  /// Follows a trial whose scheduler job (slurm) outlived a killed sweep: true when its job
  /// still waits or runs.
  bool adopt(const TrialLine& t) {
    if (t.slurm_job_id.empty() || !executor_->adopt(t.trial, t.run, t.slurm_job_id)) return false;
    Running& r = running_[t.trial];
    r.is_running = t.state == trial_state::kRunning;
    r.started = Clock::now();
    if (options_.say)
      options_.say("trial " + std::to_string(t.trial) + "'s Slurm job " + t.slurm_job_id +
                   " is still " + (r.is_running ? "running" : "queued") + ": followed");
    return true;
  }
  /// Tells Optuna a finished trial's result (tpe only; again on a resume: skipped when known).
  void tellOptuna(const TrialLine& t) {
    if (!tpe_) return;
    if (t.state == trial_state::kCompleted && t.objective)
      tpe_->tell(t.trial, "complete", t.objective);
    else if (t.state == trial_state::kPruned)
      tpe_->tell(t.trial, "pruned", std::nullopt);  // Optuna takes no value with "pruned"
    else if (t.state == trial_state::kCompleted ||
             ((t.state == trial_state::kFailed || t.state == trial_state::kCrashed) &&
              t.attempt >= 2))
      tpe_->tell(t.trial, "fail", std::nullopt);
  }
};

}  // namespace

SweepOutcome startSweep(const SweepSpec& given, const SweepRunOptions& options) {
  const fs::path dir = options.dir;
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw Error(ErrorCode::Config, dir.string(),
                "--out " + dir.string() + " exists and is not a folder");
  if (fs::exists(dir / kSweepFile, ec)) {
    if (const auto holder = RunDirLock::holder(dir))
      throw Error(ErrorCode::Config, dir.string(),
                  dir.string() + " holds a sweep that is running now (" + *holder +
                      "); choose another --out");
    throw Error(ErrorCode::Config, dir.string(),
                dir.string() + " already holds a sweep: continue it with `sweep --resume " +
                    dir.string() + "`, or choose another --out");
  }
  if (!emptyOrMissing(dir))
    throw Error(ErrorCode::Config, dir.string(),
                "--out " + dir.string() + " is not empty: a sweep starts in a new or empty folder");
  if (given.executor == "slurm") {  // Slurm's commands there, first
    makeExecutor(given, dir, options.engine, 1);
  }
  SweepSpec spec = given;
  if (!spec.seed_given) spec.seed = std::random_device{}() & 0x7fffffff;
  const SweepPlan plan = planTrials(spec);
  for (size_t i = 0; i < plan.trials.size(); ++i)  // each trial valid and its files there, first
    checkTrialFiles(trialConfig(spec, plan.trials[i]), plan.trials[i]);
  if (spec.executor == "slurm")  // the first submission acceptable to Slurm, before the folder
    checkSlurmSubmission(spec, dir, spec.method == "tpe" ? 1 : std::min<size_t>(plan.trials.size(), 1000));
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw Error(ErrorCode::Config, dir.string(),
                "--out " + dir.string() + ": cannot create the sweep folder (" + ec.message() + ")");
  SweepRunOptions opts = options;
  opts.dir = dir;
  Sweep sweep(opts, spec);  // takes the folder's lock
  json record = {{"format", kSweepFormat},
                 {"format_version", 1},
                 {"name", spec.name},
                 {"sweep", spec.source},
                 {"seed", spec.seed},
                 {"base_config", spec.base_config},
                 {"trials_planned", plan.trials.size()},
                 {"note", plan.note},
                 {"created", isoTimeNow()},
                 {"trainscope_version", trainscopeVersion()}};
  writeFileAtomic(dir / kSweepFile, record.dump(2) + "\n");
  writeFileAtomic(dir / kBaseFile, spec.base_config.dump(2) + "\n");
  writeExperiment(spec, dir);
  sweep.note = plan.note;
  std::vector<int64_t> queue;
  for (size_t i = 0; i < plan.trials.size(); ++i) {
    TrialLine t;
    t.trial = static_cast<int64_t>(i);
    t.state = trial_state::kQueued;
    t.values = plan.trials[i];
    t.config = plan.configs[i];
    t.run = trialFolderName(t.trial, t.values);
    sweep.write(t);
    queue.push_back(t.trial);
  }
  return sweep.run(queue, {});
}

SweepOutcome resumeSweep(const SweepRunOptions& options) {
  const fs::path dir = options.dir;
  json record;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw Error(ErrorCode::Config, dir.string(),
                "--resume " + dir.string() +
                    (fs::exists(dir, ec) ? ": not a folder (give the sweep folder to continue)"
                                         : ": no such folder (the sweep folder to continue)"));
  try {
    record = parseJson(readRegularFile(dir / kSweepFile));
  } catch (const std::exception& e) {
    throw Error(ErrorCode::Config, dir.string(),
                dir.string() + " holds no sweep to resume (" + kSweepFile + ": " + e.what() + ")");
  }
  if (!record.is_object() || record.value("format", "") != kSweepFormat)
    throw Error(ErrorCode::Config, dir.string(),
                (dir / kSweepFile).string() + " is not a TrainScope sweep record");
  SweepSpec spec = parseSweep(record.at("sweep"), dir / kSweepFile, &record.at("base_config"));
  spec.seed = record.value("seed", spec.seed);
  spec.seed_given = true;
  Sweep sweep(options, spec);  // the lock first: nobody else runs it now
  sweep.endTornLine();
  // base.json again from the record (deleted or edited, the trials would fail or differ).
  writeFileAtomic(dir / kBaseFile, spec.base_config.dump(2) + "\n");
  sweep.trials = readTrialsLog(dir / kTrialsFile);
  sweep.note = record.value("note", "");
  std::vector<int64_t> queue;
  std::map<int64_t, fs::path> resume_from;
  for (auto& [n, t] : sweep.trials) {
    if (t.state == trial_state::kCompleted || t.state == trial_state::kPruned) {
      sweep.tellOptuna(t);  // the sweep may have died between the line and the tell
      continue;
    }
    if ((t.state == trial_state::kFailed || t.state == trial_state::kCrashed) && t.attempt >= 2)
      continue;  // retried once already: left with its error
    if (t.state == trial_state::kQueued && !t.resume_from.empty()) {
      std::error_code ec;  // stopped with its sweep: on from its last.pt
      if (fs::is_regular_file(dir / t.resume_from, ec)) resume_from[n] = dir / t.resume_from;
    } else if (sweep.adopt(t)) {
      continue;  // its Slurm job still waits or runs: followed, not submitted again
    } else if (t.state == trial_state::kRunning) {
      // A trial process of a sweep killed with kill -9 got SIGTERM and is saving; one that
      // outlived its sweep is let finish: its run folder's lock tells.
      for (bool told = false; RunDirLock::holder(dir / t.run);) {
        if (!told && options.warn)
          options.warn("waiting for trial " + std::to_string(n) + "'s process (" +
                       RunDirLock::holder(dir / t.run).value_or("") + ") to end");
        told = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
      const RunRow row = readRunRow(dir / t.run);
      if (row.status == "completed" || row.status == "diverged") {  // it finished meanwhile
        TrialLine done = t;
        done.state = trial_state::kCompleted;
        done.pid.reset();
        done.run_status = row.status;
        done.objective = objectiveOf(row, spec.metric);
        sweep.write(done);
        continue;
      }
      // Interrupted with the sweep (or the sweep was killed): on from its last.pt.
      const fs::path last = dir / t.run / "checkpoints" / "last.pt";
      std::error_code ec;
      if (fs::is_regular_file(last, ec)) resume_from[n] = last;
    } else if (t.state != trial_state::kQueued) {
      TrialLine again = t;  // failed or crashed on its first attempt: once more
      again.attempt = t.attempt + 1;
      again.state = trial_state::kQueued;
      sweep.write(again);
    }
    queue.push_back(n);
  }
  return sweep.run(queue, resume_from);
}

}  // namespace trainscope

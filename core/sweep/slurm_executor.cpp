#include "core/sweep/slurm_executor.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/io/file_read.h"
#include "core/run/run_dir.h"
#include "core/system/child_process.h"

namespace trainscope {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr auto kPollEvery = std::chrono::seconds(1);  ///< squeue at most this often
/// A job that left the queue (or ended) with no exit file yet: the file system of the node
/// that ran it may show the file a little later (NFS); after this long it ended without one.
constexpr auto kExitFileGrace = std::chrono::seconds(5);
constexpr size_t kMaxArray = 1000;  ///< Slurm's default MaxArraySize is 1001 (indices 0-1000)

/// The states in which a job's processes run (squeue %T).
bool runningState(const std::string& s) {
  return s == "RUNNING" || s == "COMPLETING" || s == "CONFIGURING" || s == "SUSPENDED" ||
         s == "STOPPED" || s == "SIGNALING" || s == "STAGE_OUT" || s == "RESIZING";
}
/// Pending reasons (squeue %r) that Slurm never resolves by itself: the request exceeds what
/// the partition, the account or the QOS allows.
bool neverRuns(const std::string& reason) {
  for (const char* r : {"PartitionConfig", "PartitionNodeLimit", "PartitionTimeLimit",
                        "BadConstraints", "InvalidAccount", "InvalidQOS",
                        "DependencyNeverSatisfied"})
    if (reason == r) return true;
  return false;
}

bool waitingState(const std::string& s) {
  return s == "PENDING" || s == "REQUEUED" || s == "REQUEUE_HOLD" || s == "REQUEUE_FED" ||
         s == "RESV_DEL_HOLD" || s == "SPECIAL_EXIT";
}

/// `s` without the line ends and spaces a command's output ends with.
std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string jobName(const SweepSpec& spec) {
  std::string name = "trainscope-" + spec.name;
  for (char& c : name)
    if (c == ' ' || c == '\t' || c == '\n' || c == ',') c = '_';
  return name;
}

class SlurmExecutor : public TrialExecutor {
 public:
  SlurmExecutor(const SweepSpec& spec, fs::path dir, fs::path engine)
      : spec_(spec), dir_(std::move(dir)), engine_(std::move(engine)), name_(jobName(spec)) {
    for (const char* program : {"sbatch", "squeue", "scancel"}) {
      fs::path exe = findProgram(program);
      if (exe.empty())
        throw Error(ErrorCode::Config, "executor.kind",
                    std::string("the slurm executor submits trials with sbatch and follows them "
                                "with squeue and scancel, and `") +
                        program +
                        "` is not on PATH: run the sweep on a machine with Slurm's commands "
                        "(Debian: slurm-client), or use \"executor\": {\"kind\": \"local\"}");
      programs_[program] = exe;
    }
  }

  std::string kind() const override { return "slurm"; }

  size_t room(size_t in_flight, int concurrent, bool fixed_queue) const override {
    if (in_flight == 0 && fixed_queue) return kMaxArray;
    return in_flight >= static_cast<size_t>(concurrent) ? 0 : concurrent - in_flight;
  }

  int threadsPerTrial(int) const override { return spec_.slurm.cpus_per_trial; }

  std::vector<TrialEvent> submit(const std::vector<TrialLaunch>& launches) override {
    if (launches.empty()) return {};
    const fs::path scripts = dir_ / kSweepSlurmFolder;
    fs::create_directories(scripts);
    std::vector<std::string> trial_scripts;
    for (const TrialLaunch& l : launches) trial_scripts.push_back(writeTrialScript(l).string());
    std::string script = trial_scripts.front();
    if (launches.size() > 1) {  // an array job: task i runs launches[i]
      std::string text = "#!/bin/bash\n# TrainScope sweep " + spec_.name +
                         ": an array job of trials, written by the sweep.\ncase \"$SLURM_ARRAY_TASK_ID\" in\n";
      for (size_t i = 0; i < launches.size(); ++i)
        text += "  " + std::to_string(i) + ") exec /bin/bash " + joinCommandLine({trial_scripts[i]}) +
                " ;;\n";
      text += "esac\necho \"no trial for array task $SLURM_ARRAY_TASK_ID\" >&2\nexit 2\n";
      script = (scripts / ("array-" + std::to_string(launches.front().trial) + ".sh")).string();
      writeFileAtomic(script, text);
    }
    std::vector<std::string> args = sbatchOptions(spec_, dir_, launches.size());
    args.push_back(script);
    const ProgramResult r = run("sbatch", args);
    std::string id;
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);)
      if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0])))
        id = line.substr(0, line.find(';'));  // --parsable: "ID" or "ID;CLUSTER"
    if (r.exit_code != 0 || id.empty())
      throw Error(ErrorCode::Config, "executor",
                  "sbatch " + (r.exit_code != 0 ? r.how : std::string("gave no job id")) + ": " +
                      trimmed(r.output) + " (sbatch " + joinCommandLine(args) + ")");
    std::vector<TrialEvent> events;
    for (size_t i = 0; i < launches.size(); ++i) {
      const std::string job = launches.size() > 1 ? id + "_" + std::to_string(i) : id;
      jobs_[job] = Job{launches[i].trial, launches[i].run};
      TrialEvent e;
      e.kind = TrialEvent::Kind::Submitted;
      e.trial = launches[i].trial;
      e.job = job;
      events.push_back(e);
    }
    last_poll_ = {};  // look soon
    return events;
  }

  std::vector<TrialEvent> poll() override {
    std::vector<TrialEvent> events;
    if (jobs_.empty() || Clock::now() - last_poll_ < kPollEvery) return events;
    last_poll_ = Clock::now();
    std::map<std::string, std::string> states;  // job -> squeue's state
    if (!queue(states)) return events;           // squeue failed: look again later
    for (auto it = jobs_.begin(); it != jobs_.end();) {
      Job& job = it->second;
      const auto s = states.find(it->first);
      const std::string state = s == states.end() ? "" : s->second;
      if (waitingState(state)) {
        const auto why = reasons_.find(it->first);
        if (why != reasons_.end() && neverRuns(why->second)) {
          std::vector<std::string> all;
          for (const auto& [id, job] : jobs_) all.push_back(id);
          run("scancel", all);
          const std::string job = it->first, reason = why->second;
          jobs_.clear();
          throw Error(ErrorCode::Config, "executor",
                      "Slurm will never start job " + job + " (squeue's reason: " + reason +
                          "): the request exceeds what the partition, account or QOS allows "
                          "(executor.cpus_per_trial " + std::to_string(spec_.slurm.cpus_per_trial) +
                          (spec_.slurm.time_limit.empty() ? "" : ", time_limit " + spec_.slurm.time_limit) +
                          (spec_.slurm.partition.empty() ? "" : ", partition " + spec_.slurm.partition) +
                          "; `sinfo -o \"%P %c %l\"` lists each partition's CPUs and time limit). "
                          "The sweep's jobs were cancelled; its trials stay queued");
        }
        ++it;
        continue;
      }
      if (runningState(state)) {
        if (!job.started) events.push_back(started(it->first, job));
        ++it;
        continue;
      }
      // Ended (a final state) or gone from the queue: its exit file says how.
      if (!job.started) events.push_back(started(it->first, job));
      TrialEvent e;
      e.kind = TrialEvent::Kind::Ended;
      e.trial = job.trial;
      e.job = it->first;
      if (const auto code = exitCode(job.run)) {
        e.exit_code = code->first;
        e.seconds = code->second;
        e.how = "exited with code " + std::to_string(code->first);
      } else {
        if (job.gone_since == Clock::time_point{}) job.gone_since = Clock::now();
        if (Clock::now() - job.gone_since < kExitFileGrace) {
          ++it;
          continue;
        }
        e.killed = true;
        e.exit_code = -1;
        e.how = state.empty() ? "left Slurm's queue (job " + it->first + ") without an exit code"
                              : "ended as " + state + " in Slurm (job " + it->first +
                                    ") without an exit code";
      }
      events.push_back(e);
      it = jobs_.erase(it);
    }
    return events;
  }

  void signal(int64_t trial, int sig) override {
    for (const auto& [id, job] : jobs_)
      if (job.trial == trial) {
        // --full: the batch script and the trial under it (the script waits for the trial).
        run("scancel", {"--full", "--signal=" + std::to_string(sig), id});
      }
  }

  std::vector<int64_t> stop(int sig) override {
    std::map<std::string, std::string> states;
    queue(states);
    std::vector<std::string> waiting;
    std::vector<int64_t> withdrawn;
    for (auto it = jobs_.begin(); it != jobs_.end();) {
      const auto s = states.find(it->first);
      if (!it->second.started && s != states.end() && waitingState(s->second)) {
        waiting.push_back(it->first);
        withdrawn.push_back(it->second.trial);
        it = jobs_.erase(it);
      } else {
        ++it;
      }
    }
    if (!waiting.empty()) run("scancel", waiting);
    for (const auto& [id, job] : jobs_)
      run("scancel", {"--full", "--signal=" + std::to_string(sig), id});
    return withdrawn;
  }

  bool adopt(int64_t trial, const std::string& run_name, const std::string& job) override {
    if (job.empty()) return false;
    std::map<std::string, std::string> states;
    if (!queue(states)) return false;
    const auto s = states.find(job);
    if (s == states.end() || (!waitingState(s->second) && !runningState(s->second)))
      return false;
    jobs_[job] = Job{trial, run_name};
    last_poll_ = {};
    return true;
  }

 private:
  struct Job {
    int64_t trial = 0;
    std::string run;
    bool started = false;
    Clock::time_point gone_since{};
  };

  ProgramResult run(const std::string& program, const std::vector<std::string>& args) {
    ChildSpec child;
    child.exe = programs_.at(program).string();
    child.args = args;
    return runProgram(child);
  }

  /// squeue's state of each of this sweep's jobs (array tasks one per line). False, with a
  /// warning on stderr once a minute, when squeue fails (the controller is restarting).
  bool queue(std::map<std::string, std::string>& states) {
    const ProgramResult r =
        run("squeue", {"-h", "-r", "-t", "all", "-n", name_, "-o", "%i|%T|%r"});
    if (r.exit_code != 0) {
      if (Clock::now() - last_warning_ > std::chrono::minutes(1)) {
        last_warning_ = Clock::now();
        std::fprintf(stderr, "trainscope: squeue %s: %s (asking again)\n", r.how.c_str(),
                     trimmed(r.output).c_str());
      }
      return false;
    }
    std::istringstream lines(r.output);
    reasons_.clear();
    for (std::string line; std::getline(lines, line);) {
      const size_t bar = line.find('|');
      if (bar == std::string::npos) continue;
      const size_t bar2 = line.find('|', bar + 1);
      const std::string id = line.substr(0, bar);
      states[id] = trimmed(line.substr(bar + 1, bar2 == std::string::npos ? std::string::npos
                                                                          : bar2 - bar - 1));
      if (bar2 != std::string::npos) reasons_[id] = trimmed(line.substr(bar2 + 1));
    }
    return true;
  }

  TrialEvent started(const std::string& id, Job& job) {
    job.started = true;
    TrialEvent e;
    e.kind = TrialEvent::Kind::Started;
    e.trial = job.trial;
    e.job = id;
    return e;
  }

  fs::path exitFile(const std::string& run_name) const {
    return dir_ / kSweepSlurmFolder / (run_name + ".exit");
  }

  /// The trial's exit code and wall seconds from its .exit file ("CODE SECONDS").
  std::optional<std::pair<int, double>> exitCode(const std::string& run_name) const {
    try {
      std::istringstream text(readRegularFile(exitFile(run_name)));
      int code = 0;
      double start = 0, end = 0;
      if (!(text >> code)) return std::nullopt;
      text >> start >> end;
      return std::make_pair(code, end >= start ? end - start : 0.0);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  /// The trial's script: its command with its output appended to its .log, then its exit code
  /// into its .exit file (atomically). The script ignores nothing: a trapped signal (`:`) lets
  /// it wait for the trial, which gets scancel's signal itself and stops, saving last.pt.
  fs::path writeTrialScript(const TrialLaunch& l) const {
    const fs::path script = dir_ / kSweepSlurmFolder / (l.run + ".sh");
    const fs::path exit_file = exitFile(l.run);
    std::vector<std::string> command = {engine_.string()};
    command.insert(command.end(), l.args.begin(), l.args.end());
    std::string text = "#!/bin/bash\n# TrainScope sweep " + spec_.name + ", trial " +
                       std::to_string(l.trial) + ": written by the sweep.\n" +
                       "trap : INT TERM\ncd " + joinCommandLine({dir_.string()}) + " || exit 1\n";
    for (const auto& [name, value] : l.env)
      text += "export " + name + "=" + joinCommandLine({value}) + "\n";
    text += "echo \"trial " + std::to_string(l.trial) + " on $(hostname) as Slurm job " +
            "${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}${SLURM_ARRAY_TASK_ID:+_$SLURM_ARRAY_TASK_ID}\" >> " +
            joinCommandLine({l.output.string()}) + "\n";
    text += "start=$(date +%s.%N)\n";
    text += joinCommandLine(command) + " >> " + joinCommandLine({l.output.string()}) + " 2>&1\n";
    text += "code=$?\nprintf '%s %s %s\\n' \"$code\" \"$start\" \"$(date +%s.%N)\" > " +
            joinCommandLine({exit_file.string() + ".tmp"}) + " && mv -f " +
            joinCommandLine({exit_file.string() + ".tmp"}) + " " +
            joinCommandLine({exit_file.string()}) + "\nexit \"$code\"\n";
    writeFileAtomic(script, text);
    return script;
  }

  SweepSpec spec_;
  fs::path dir_;
  fs::path engine_;
  std::string name_;  ///< the jobs' name: squeue -n finds this sweep's jobs
  std::map<std::string, fs::path> programs_;
  std::map<std::string, Job> jobs_;  ///< submitted, not ended: by job id
  std::map<std::string, std::string> reasons_;  ///< squeue's pending reason, by job id
  Clock::time_point last_poll_{};
  Clock::time_point last_warning_{};
};

}  // namespace

std::vector<std::string> sbatchOptions(const SweepSpec& spec, const fs::path& dir, size_t count) {
  std::vector<std::string> args = {"--parsable", "--job-name=" + jobName(spec),
                                   "--chdir=" + dir.string(),
                                   "--cpus-per-task=" + std::to_string(spec.slurm.cpus_per_trial)};
  if (count > 1) {
    args.push_back("--array=0-" + std::to_string(count - 1) + "%" +
                   std::to_string(spec.concurrent));
    args.push_back("--output=" + (dir / kSweepSlurmFolder / "slurm-%A_%a.out").string());
  } else {
    args.push_back("--output=" + (dir / kSweepSlurmFolder / "slurm-%j.out").string());
  }
  if (!spec.slurm.partition.empty()) args.push_back("--partition=" + spec.slurm.partition);
  if (!spec.slurm.time_limit.empty()) args.push_back("--time=" + spec.slurm.time_limit);
  args.insert(args.end(), spec.slurm.sbatch_args.begin(), spec.slurm.sbatch_args.end());
  return args;
}

void checkSlurmSubmission(const SweepSpec& spec, const fs::path& dir, size_t count) {
  char script[] = "/tmp/trainscope-sbatch-check-XXXXXX";
  const int fd = mkstemp(script);
  if (fd < 0) return;  // no temporary file: the first submission says it instead
  const std::string text = "#!/bin/bash\ntrue\n";
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  std::vector<std::string> args = sbatchOptions(spec, dir, std::max<size_t>(count, 1));
  args.insert(args.begin(), "--test-only");
  args.push_back(script);
  ChildSpec child;
  child.exe = findProgram("sbatch").string();
  child.args = args;
  const ProgramResult r = written ? runProgram(child) : ProgramResult{};
  unlink(script);
  if (r.exit_code != 0) {
    const std::string said = trimmed(r.output);
    throw Error(ErrorCode::Config, "executor",
                "Slurm refuses the sweep's jobs (sbatch --test-only " + r.how + "): " + said +
                    " (the executor's partition, time_limit, cpus_per_trial and sbatch_args; "
                    "`sinfo -o \"%P %c %l\"` lists each partition's CPUs and time limit)");
  }
}

std::unique_ptr<TrialExecutor> makeSlurmExecutor(const SweepSpec& spec, const fs::path& dir,
                                                 const fs::path& engine) {
  return std::make_unique<SlurmExecutor>(spec, dir, engine);
}

}  // namespace trainscope

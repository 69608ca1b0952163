#include "core/sweep/trial_executor.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <map>

#include "core/sweep/slurm_executor.h"
#include "core/system/child_process.h"

namespace trainscope {
namespace {

/// Trials as child processes of the orchestrator.
class LocalExecutor : public TrialExecutor {
 public:
  LocalExecutor(std::filesystem::path engine, int cores)
      : engine_(std::move(engine)), cores_(std::max(1, cores)) {}

  std::string kind() const override { return "local"; }

  size_t room(size_t in_flight, int concurrent, bool) const override {
    return in_flight >= static_cast<size_t>(concurrent) ? 0 : concurrent - in_flight;
  }

  int threadsPerTrial(int concurrent) const override {
    return std::max(1, cores_ / std::max(1, concurrent));
  }

  std::vector<TrialEvent> submit(const std::vector<TrialLaunch>& launches) override {
    std::vector<TrialEvent> events;
    for (const TrialLaunch& l : launches) {
      ChildSpec child;
      child.exe = engine_.string();
      child.args = l.args;
      child.env = l.env;
      child.output = l.output;
      child.term_with_parent = true;  // kill -9 of the sweep: the trial saves and stops
      child.stop_signals_pending = true;  // a stop sent while it starts is not lost
      const pid_t pid = startChild(child);
      pids_[pid] = l.trial;
      TrialEvent e;
      e.kind = TrialEvent::Kind::Started;
      e.trial = l.trial;
      e.pid = pid;
      events.push_back(e);
    }
    return events;
  }

  std::vector<TrialEvent> poll() override {
    std::vector<TrialEvent> events;
    for (;;) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      const auto it = pids_.find(pid);
      if (it == pids_.end()) continue;  // not a trial (optuna's children are waited for)
      TrialEvent e;
      e.kind = TrialEvent::Kind::Ended;
      e.trial = it->second;
      e.exit_code = childExitCode(status);
      e.killed = WIFSIGNALED(status);
      e.how = describeChildStatus(status);
      pids_.erase(it);
      events.push_back(e);
    }
    return events;
  }

  void signal(int64_t trial, int sig) override {
    for (const auto& [pid, t] : pids_)
      if (t == trial) kill(pid, sig);
  }

  std::vector<int64_t> stop(int sig) override {
    for (const auto& [pid, t] : pids_) kill(pid, sig);  // each stops, saving last.pt
    return {};
  }

  bool adopt(int64_t, const std::string&, const std::string&) override { return false; }

 private:
  std::filesystem::path engine_;
  int cores_;
  std::map<pid_t, int64_t> pids_;  ///< running trials
};

}  // namespace

std::unique_ptr<TrialExecutor> makeLocalExecutor(std::filesystem::path engine, int cores) {
  return std::make_unique<LocalExecutor>(std::move(engine), cores);
}

std::unique_ptr<TrialExecutor> makeExecutor(const SweepSpec& spec, const std::filesystem::path& dir,
                                            const std::filesystem::path& engine, int cores) {
  if (spec.executor == "slurm") return makeSlurmExecutor(spec, dir, engine);
  return makeLocalExecutor(engine, cores);
}

}  // namespace trainscope

// `trainscope-cli launch`: starts and supervises the ranks of a data-parallel run on this machine,
// with the environment torchrun (torch.distributed.run) sets, so that `train` joins the group.
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "cli/signal_watcher.h"
#include "core/distributed/dist_env.h"
#include "core/errors.h"
#include "core/system/child_process.h"

namespace trainscope::cli {

namespace {
/// Whether `pid` is stopped (state T in /proc/<pid>/stat: SIGSTOP, job control, a tracer).
bool isStopped(pid_t pid) {
  std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
  if (!f) return false;
  char buf[512] = {0};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  const char* close = std::strrchr(buf, ')');  // after "pid (comm)"
  return n > 0 && close && close[1] == ' ' && (close[2] == 'T' || close[2] == 't');
}

using Clock = std::chrono::steady_clock;

/// One started rank.
struct Child {
  pid_t pid = -1;
  int rank = 0;
  bool running = true;
};

/// The exit code a shell would show for a wait status: the code, or 128 + the signal number.
}  // namespace

LaunchCommand::LaunchCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "launch",
          "Start and supervise the ranks of a data-parallel run on this machine: `launch "
          "--nproc-per-node N -- train ...` (the environment torchrun sets: MASTER_ADDR, "
          "MASTER_PORT, RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE)")) {
  sub_->add_option("--nproc-per-node", nproc_per_node_, "Ranks to start on this machine")
      ->required()
      ->check(CLI::Range(1, 1024));
  sub_->add_option("--nnodes", nnodes_, "Machines taking part (default 1)")
      ->check(CLI::Range(1, 65536));
  sub_->add_option("--node-rank", node_rank_,
                   "This machine's index, 0 .. nnodes-1 (node 0 hosts rank 0 and the store)")
      ->check(CLI::Range(0, 65535));
  sub_->add_option("--master-addr", master_addr_,
                   "Address of node 0, reachable from every machine (default 127.0.0.1)");
  sub_->add_option("--master-port", master_port_,
                   "Free TCP port on node 0 for the rendezvous store (default 29500)")
      ->check(CLI::Range(1, 65535));
  sub_->add_option("--grace-seconds", grace_seconds_,
                   "After a rank fails, how long the others may take to stop by themselves "
                   "before they are terminated (SIGTERM, then SIGKILL 5 s later; default 5)")
      ->check(CLI::Range(0.0, 86400.0));
  sub_->add_option("command", command_, "After --: the trainscope-cli command each rank runs")
      ->required();
}

bool LaunchCommand::parsed() const { return sub_->parsed(); }

int LaunchCommand::run() const {
  if (command_.empty() || command_.front() != "train") {
    printError("launch runs `train` in every rank: write `launch --nproc-per-node N -- train ...`");
    return kExitUsage;
  }
  if (node_rank_ >= nnodes_) {
    printError("--node-rank " + std::to_string(node_rank_) + " must be below --nnodes " +
               std::to_string(nnodes_));
    return kExitUsage;
  }
  if (!distributedAvailable()) {
    printError(distributedUnavailableReason());
    return kExitUsage;
  }
  std::error_code ec;
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) {
    printError("launch: cannot find its own executable (/proc/self/exe): " + ec.message());
    return kExitFailure;
  }
  const int world = nproc_per_node_ * nnodes_;

  // Signals: taken by a watcher thread and forwarded once to every rank (each in its own
  // process group, so a terminal's Ctrl-C reaches them only through here).
  SignalWatcher::blockSignals();
  std::vector<Child> children;
  std::atomic<bool> interrupted{false};
  std::vector<pid_t> pids;  // filled before the watcher may read it (started)

  for (int local = 0; local < nproc_per_node_; ++local) {
    const int rank = node_rank_ * nproc_per_node_ + local;
    ChildSpec spec;
    spec.exe = exe;
    spec.args = command_;
    spec.env = {{"MASTER_ADDR", master_addr_},
                {"MASTER_PORT", std::to_string(master_port_)},
                {"WORLD_SIZE", std::to_string(world)},
                {"RANK", std::to_string(rank)},
                {"LOCAL_RANK", std::to_string(local)},
                {"LOCAL_WORLD_SIZE", std::to_string(nproc_per_node_)},
                {"GROUP_RANK", std::to_string(node_rank_)}};
    pid_t pid = -1;
    try {
      pid = startChild(spec);
    } catch (const Error& e) {
      printError(std::string("launch: ") + e.what());
      for (const Child& c : children) kill(c.pid, SIGTERM);
      return kExitFailure;
    }
    children.push_back({pid, rank, true});
    pids.push_back(pid);
  }
  SignalWatcher watcher([&](int sig) {
    interrupted = true;
    std::fprintf(stderr, "\n%s: %s received: passing it on to the %d rank(s)\n", kProgram,
                 strsignal(sig), nproc_per_node_);
    std::fflush(stderr);
    for (pid_t p : pids) kill(p, sig);
  });

  int first_failure = 0;
  std::optional<Clock::time_point> failed_at;
  bool terminated = false, killed = false;
  size_t running = children.size();
  while (running > 0) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      auto it = std::find_if(children.begin(), children.end(),
                             [&](const Child& c) { return c.pid == pid; });
      if (it == children.end() || !it->running) continue;
      it->running = false;
      --running;
      const int code = childExitCode(status);
      if (code != 0 && first_failure == 0 && !interrupted) {
        first_failure = code;
        failed_at = Clock::now();
        std::fprintf(stderr, "%s: launch: rank %d (pid %d) %s; waiting for the other ranks\n",
                     kProgram, it->rank, static_cast<int>(pid), describeChildStatus(status).c_str());
        std::fflush(stderr);
      }
      continue;
    }
    if (pid < 0 && errno != EINTR) break;  // no children left
    if (failed_at) {
      const double waited = std::chrono::duration<double>(Clock::now() - *failed_at).count();
      if (!terminated && waited > grace_seconds_) {
        terminated = true;
        std::fprintf(stderr, "%s: launch: terminating the ranks still running\n", kProgram);
        for (const Child& c : children) {
          if (!c.running) continue;
          if (isStopped(c.pid)) {
            // A stopped rank (SIGSTOP, a debugger) is the one the others declared lost: woken,
            // it would only blame them for the connections they closed.
            std::fprintf(stderr, "%s: launch: rank %d (pid %d) is stopped: killing it\n", kProgram,
                         c.rank, static_cast<int>(c.pid));
            kill(c.pid, SIGKILL);
          } else {
            kill(c.pid, SIGTERM);
          }
        }
      } else if (!killed && waited > grace_seconds_ + 5) {
        killed = true;
        for (const Child& c : children)
          if (c.running) kill(c.pid, SIGKILL);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  watcher.stop();
  if (interrupted) return kExitInterrupted;
  return first_failure;
}

}  // namespace trainscope::cli

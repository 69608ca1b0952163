// `trainscope-cli follow RUN`: a run another process writes, printed as `train` prints its own
// (core/run/run_follower.h).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "cli/progress.h"
#include "cli/signal_watcher.h"
#include "core/errors.h"
#include "core/run/run_follower.h"
#include "core/run/run_lock.h"
#include "core/run/run_table.h"

namespace trainscope::cli {

FollowCommand::FollowCommand(CLI::App& app)
    : sub_(app.add_subcommand("follow",
                              "Print the progress of a run another process is writing, until it ends")) {
  nonEmptyPath(sub_->add_option("run", dir_, "The run folder")->required());
  sub_->add_option("--stall-seconds", stall_seconds_,
                   "Say 'stalled' when nothing was appended for this long (default 60)")
      ->check(CLI::Range(1.0, 86400.0).description("seconds from 1 to 86400"));
  sub_->add_flag("--json", json_,
                 "One JSON object per epoch on stdout, then the summary (\"type\": \"summary\"); "
                 "{\"type\": \"restart\"} when the run's files were replaced by a new run's, "
                 "{\"type\": \"crashed\"} when its process ended without a summary");
}

bool FollowCommand::parsed() const { return sub_->parsed(); }

int FollowCommand::run() const {
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::absolute(dir_, ec);
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw Error(ErrorCode::Config, dir_, dir_ + " is not a directory");
  if (!std::filesystem::exists(dir.parent_path(), ec))
    throw Error(ErrorCode::Config, dir_, dir.parent_path().string() + " does not exist");
  // A folder that holds files but no run can never become one (train --out refuses a
  // non-empty folder): refused, as is a run whose files are corrupt. A missing or empty folder
  // is waited for: a run may be about to start there; so is a folder a run has claimed
  // (its lock held) while it loads its data, before it writes config.json.
  if (std::filesystem::is_directory(dir, ec) && !std::filesystem::is_empty(dir, ec) &&
      !RunDirLock::holder(dir)) {
    const RunRow row = readRunRow(dir);
    if (row.status == "not a run" || row.status == "incomplete")
      throw Error(ErrorCode::Config, dir_, dir.string() + " is " + row.status + ": " + row.reason);
  }
  SignalWatcher::blockSignals();
  SignalWatcher watcher([](int) {});
  ProgressOptions options;
  options.style = detectProgressStyle(2);
  options.json = json_;
  auto printer = std::make_unique<ProgressPrinter>(options);
  RunFollower follower(dir, stall_seconds_);
  std::optional<FollowState> last_state;  // none before the first poll
  int64_t epochs_seen = 0;
  while (!watcher.interrupted()) {
    RunFollower::Update u = follower.poll();
    if (u.reset) {
      printer->clearBar();
      // --json: an explicit record, so a script reading the stream knows the epoch objects
      // after it belong to another run, not to the one before.
      if (json_) {
        nlohmann::json j = {{"type", "restart"},
                            {"detail", "the run's files were replaced (a new run in " +
                                           dir.string() + "): the records that follow are the "
                                           "new run's"},
                            {"epochs_before", epochs_seen}};
        std::printf("%s\n", j.dump().c_str());
        std::fflush(stdout);
      }
      std::fprintf(stderr, "follow: the run's files were replaced (a new run in %s): starting over\n",
                   dir.string().c_str());
      printer = std::make_unique<ProgressPrinter>(options);
      epochs_seen = 0;
    }
    if (u.info) printer->onRunStarted(*u.info);
    for (const auto& st : u.steps) printer->onStep(st);
    // Epoch lines and events in step order, an epoch's line before the events at its end (as
    // train prints them). The events train does not print are left out: automatic checkpoint
    // saves and the loss doctor's readings (the summary prints its last one).
    std::vector<std::pair<int64_t, const Event*>> events;
    for (const auto& e : u.events)
      if (!(e.kind == EventKind::CheckpointSaved && e.what == "automatic") &&
          e.kind != EventKind::Diagnosis)
        events.emplace_back(e.step, &e);
    size_t next_event = 0;
    for (const auto& e : u.epochs) {
      while (next_event < events.size() && events[next_event].first < e.step)
        printer->onEvent(*events[next_event++].second);
      printer->onEpoch(e);
      ++epochs_seen;
    }
    while (next_event < events.size()) printer->onEvent(*events[next_event++].second);
    if (u.summary) {
      printer->onRunFinished(*u.summary);
      std::fprintf(stderr, "%s\n", summaryLine(*u.summary, dir.string()).c_str());
      if (u.summary->diagnosis) std::fprintf(stderr, "%s", diagnosisText(*u.summary->diagnosis).c_str());
      return exitCodeFor(u.summary->stop_reason);
    }
    if (u.status.state != last_state) {
      if (u.status.state == FollowState::Stalled || u.status.state == FollowState::Waiting ||
          (u.status.state == FollowState::Running && last_state == FollowState::Stalled)) {
        printer->clearBar();
        std::fprintf(stderr, "follow: %s: %s\n", followStateName(u.status.state),
                     u.status.detail.c_str());
      }
      last_state = u.status.state;
    }
    if (u.status.state == FollowState::Crashed) {
      printer->clearBar();
      if (json_) {
        nlohmann::json j = {{"type", "crashed"}, {"detail", u.status.detail},
                            {"epochs_recorded", epochs_seen}};
        std::printf("%s\n", j.dump().c_str());
        std::fflush(stdout);
      }
      std::fprintf(stderr, "follow: crashed: %s (%lld epochs recorded)\n", u.status.detail.c_str(),
                   static_cast<long long>(epochs_seen));
      return kExitFailure;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  printer->clearBar();
  std::fprintf(stderr, "follow: stopped following %s (the run goes on)\n", dir.string().c_str());
  return kExitInterrupted;
}

}  // namespace trainscope::cli

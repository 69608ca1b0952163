// Following a run another process writes (see run_follower.h).
#include "core/run/run_follower.h"

#include <sys/stat.h>

#include <chrono>
#include <fstream>

#include "core/data/batches.h"
#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/run/run_description.h"
#include "core/run/run_lock.h"
#include "core/run/run_reader.h"

namespace trainscope {
namespace {

double steadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string runStatusOf(StopReason reason) {
  switch (reason) {
    case StopReason::Completed:
    case StopReason::EarlyStop: return "completed";
    case StopReason::Stopped: return "stopped";
    case StopReason::Interrupted: return "interrupted";
    case StopReason::NonFinite:
    case StopReason::Diverged: return "diverged";
    case StopReason::Error: return "failed";
    case StopReason::Pruned: return "pruned";
  }
  return "completed";
}

LineTail::LineTail(std::filesystem::path file) : path_(std::move(file)) {}

LineTail::Poll LineTail::poll() {
  Poll out;
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return out;
  const auto ino = static_cast<uint64_t>(st.st_ino), dev = static_cast<uint64_t>(st.st_dev);
  const auto size = static_cast<uint64_t>(st.st_size);
  if ((ino_ != 0 && (ino != ino_ || dev != dev_)) || size < offset_) {
    out.reset = lines_read_ > 0 || !partial_.empty() || offset_ > 0;
    offset_ = 0;
    partial_.clear();
    lines_read_ = 0;
  }
  ino_ = ino;
  dev_ = dev;
  out.first_line = lines_read_ + 1;
  if (size == offset_) return out;
  std::ifstream in(path_, std::ios::binary);
  if (!in) return out;
  in.seekg(static_cast<std::streamoff>(offset_));
  std::string chunk(static_cast<size_t>(size - offset_), '\0');
  in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
  chunk.resize(static_cast<size_t>(in.gcount()));
  offset_ += chunk.size();
  std::string text = partial_ + chunk;
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
    out.lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  partial_ = text.substr(start);
  lines_read_ += static_cast<int64_t>(out.lines.size());
  return out;
}

const char* followStateName(FollowState state) {
  switch (state) {
    case FollowState::Waiting: return "waiting";
    case FollowState::Running: return "running";
    case FollowState::Stalled: return "stalled";
    case FollowState::Crashed: return "crashed";
    case FollowState::Finished: return "finished";
  }
  return "waiting";
}

RunFollower::RunFollower(std::filesystem::path dir, double stall_seconds)
    : dir_(std::move(dir)),
      stall_seconds_(stall_seconds),
      steps_(dir_ / "steps.csv"),
      metrics_(dir_ / "metrics.csv"),
      events_(dir_ / "events.jsonl"),
      last_change_(steadySeconds()) {}

RunFollower::Update RunFollower::poll() {
  Update u;
  std::error_code ec;
  // summary.json is the run's last write: seen before the other files are read, every line of
  // theirs is already there.
  const bool summary_there = !summary_sent_ && std::filesystem::exists(dir_ / "summary.json", ec);
  auto s = steps_.poll(), m = metrics_.poll(), e = events_.poll();
  if (s.reset || m.reset || e.reset) {
    // A new run in the same folder (--overwrite): every file starts again from its top.
    u.reset = true;
    info_sent_ = summary_sent_ = false;
    steps_header_.clear();
    metrics_header_.clear();
    steps_ = LineTail(dir_ / "steps.csv");
    metrics_ = LineTail(dir_ / "metrics.csv");
    events_ = LineTail(dir_ / "events.jsonl");
    s = steps_.poll();
    m = metrics_.poll();
    e = events_.poll();
  }
  const double now = steadySeconds();
  if (!s.lines.empty() || !m.lines.empty() || !e.lines.empty()) last_change_ = now;

  auto rows = [](LineTail::Poll& p, std::string& header) {
    if (header.empty() && !p.lines.empty()) {
      header = p.lines.front();
      p.lines.erase(p.lines.begin());
      ++p.first_line;
    }
  };
  rows(s, steps_header_);
  rows(m, metrics_header_);
  if (!s.lines.empty())
    u.steps = parseStepsCsvRows(steps_.path().string(), steps_header_, s.lines, s.first_line);
  if (!m.lines.empty())
    u.epochs = parseMetricsCsvRows(metrics_.path().string(), metrics_header_, m.lines, m.first_line);
  for (size_t i = 0; i < e.lines.size(); ++i)
    if (auto ev = parseEventLine(events_.path().string(), e.lines[i],
                                 e.first_line + static_cast<int64_t>(i)))
      u.events.push_back(std::move(*ev));

  if (!info_sent_ && std::filesystem::exists(dir_ / "run.json", ec) &&
      std::filesystem::exists(dir_ / "config.json", ec)) {
    try {
      RunInfo info = runInfoFromJson(parseJson(readRegularFile(dir_ / "run.json")),
                                     parseJson(readRegularFile(dir_ / "config.json")));
      info.run_dir = std::filesystem::absolute(dir_, ec).string();
      // Not in run.json: the batches of one epoch, as the trainer counts them.
      info.batches_per_epoch =
          batchesPerEpoch(info.data.n_train, info.batch_size, info.world_size, info.drop_last);
      u.info = std::move(info);
      info_sent_ = true;
    } catch (const nlohmann::json::exception&) {
      // Both files are written atomically; one that does not parse is not a run's: retried.
    } catch (const Error&) {
      // not a regular file (a FIFO is never opened): retried, as a file that does not parse
    }
  }
  u.status.idle_seconds = now - last_change_;
  if (summary_there) {
    RunSummary summary = readSummaryJson(dir_ / "summary.json");
    u.status.state = FollowState::Finished;
    u.status.run_status = runStatusOf(summary.stop_reason);
    u.summary = std::move(summary);
    summary_sent_ = true;
    return u;
  }
  if (summary_sent_) {
    u.status.state = FollowState::Finished;  // callers stop at the update carrying the summary
    u.status.run_status = "completed";
    return u;
  }
  const auto holder = RunDirLock::holder(dir_);
  if (!info_sent_ && !holder) {
    u.status.state = FollowState::Waiting;
    u.status.detail = "no run in " + dir_.string() + " yet";
    return u;
  }
  if (holder) {
    const bool stalled = u.status.idle_seconds >= stall_seconds_;
    u.status.state = stalled ? FollowState::Stalled : FollowState::Running;
    u.status.detail =
        stalled ? "nothing appended for " + std::to_string(static_cast<int64_t>(u.status.idle_seconds)) +
                      " s while " + *holder +
                      " holds the folder: the run is paused, in a long epoch or validation, or hung"
                : "written by " + *holder;
    return u;
  }
  u.status.state = FollowState::Crashed;
  u.status.detail =
      "no process holds " + dir_.string() +
      " and it has no summary.json: the run ended without finishing (killed or crashed)";
  return u;
}

}  // namespace trainscope

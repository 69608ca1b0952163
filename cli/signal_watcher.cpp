#include "cli/signal_watcher.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cli/cli_app.h"
#include "core/system/foreign_code.h"

namespace trainscope::cli {

namespace {
/// Signals this soon after the first count as the same one (see loop()).
constexpr std::chrono::milliseconds kRepeatGrace{300};
/// How long the model's own code may go on after an interrupt before the process ends.
constexpr std::chrono::milliseconds kForeignGrace{500};
}  // namespace

namespace {

sigset_t watchedSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

void SignalWatcher::blockSignals() {
  sigset_t set = watchedSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

SignalWatcher::SignalWatcher(std::function<void(int)> on_first)
    : on_first_(std::move(on_first)), thread_([this] { loop(); }) {}

SignalWatcher::~SignalWatcher() { stop(); }

void SignalWatcher::stop() {
  quit_ = true;
  if (thread_.joinable()) thread_.join();
}

void SignalWatcher::loop() {
  const sigset_t set = watchedSignals();
  const timespec timeout{0, 100 * 1000 * 1000};  // 100 ms: bounds the latency of stop()
  std::chrono::steady_clock::time_point first_at{};
  while (!quit_) {
    siginfo_t info{};
    int sig = sigtimedwait(&set, &info, &timeout);
    const auto now = std::chrono::steady_clock::now();
    // The model's own code (a TorchScript forward or __setstate__) cannot stop at a step: when
    // it is still running half a second after the interrupt, the process ends here, exit 130
    // (TrainScope writes nothing while that code runs; issue 44 item 9: it hung, SIGTERM
    // ignored).
    if (signals_ > 0 && now - first_at >= kForeignGrace) {
      if (const auto f = foreignCodeRunning(); f && f->since <= first_at) {
        std::fprintf(stderr, "\n%s received while the model's own code runs (%s), which does not "
                     "return: exiting now\n", strsignal(first_signal_), f->what.c_str());
        std::fflush(stderr);
        std::_Exit(kExitInterrupted);
      }
    }
    if (sig < 0) continue;  // EAGAIN (timeout) or EINTR
    if (signals_ == 0) {
      ++signals_;
      first_signal_ = sig;
      first_at = now;
      if (on_first_) on_first_(sig);
    } else if (now - first_at < kRepeatGrace) {
      // The same interrupt delivered twice: `timeout -s INT` and a terminal's Ctrl-C signal the
      // process and its process group microseconds apart. Not a request to quit at once.
      continue;
    } else {
      ++signals_;
      std::fprintf(stderr, "\n%s received again: exiting now\n", strsignal(sig));
      std::fflush(stderr);
      std::_Exit(kExitInterrupted);
    }
  }
}

}  // namespace trainscope::cli

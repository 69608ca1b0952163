#include "cli/signal_watcher.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cli/cli_app.h"

namespace trainscope::cli {

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
  while (!quit_) {
    siginfo_t info{};
    int sig = sigtimedwait(&set, &info, &timeout);
    if (sig < 0) continue;  // EAGAIN (timeout) or EINTR
    if (signals_.fetch_add(1) == 0) {
      first_signal_ = sig;
      if (on_first_) on_first_(sig);
    } else {
      std::fprintf(stderr, "\n%s received again: exiting now\n", strsignal(sig));
      std::fflush(stderr);
      std::_Exit(kExitInterrupted);
    }
  }
}

}  // namespace trainscope::cli

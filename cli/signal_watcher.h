#pragma once
/// Ctrl-C / SIGTERM handling for `trainscope-cli train` without async signal handlers: the
/// signals are blocked in every thread and a small watcher thread takes them with
/// sigtimedwait, so the reaction (asking the trainer to stop) runs as ordinary code.
#include <atomic>
#include <functional>
#include <thread>

namespace trainscope::cli {

/// Watches SIGINT and SIGTERM on its own thread.
///
/// Why this design: a signal handler may only call async-signal-safe functions, so it could not
/// call Trainer::stop() (which takes a mutex). With the signals blocked in all threads and
/// collected by sigtimedwait, the first signal calls `on_first` on the watcher thread; a second
/// signal ends the process at once with exit code 130 (for a run that does not stop).
class SignalWatcher {
 public:
  /// Blocks SIGINT and SIGTERM in the calling thread with pthread_sigmask. Threads started
  /// afterwards inherit the mask, so call this before any thread exists (before libtorch
  /// starts its thread pool). The mask is left in place on purpose: unblocking later would
  /// deliver a pending signal with its default action (killed, not exit code 130).
  static void blockSignals();

  /// Starts the watcher thread. blockSignals() must have been called. `on_first` receives the
  /// signal number of the first SIGINT/SIGTERM and runs on the watcher thread.
  explicit SignalWatcher(std::function<void(int)> on_first);
  /// Stops and joins the watcher thread (within about 100 ms).
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  /// True once a signal has been received.
  bool interrupted() const { return signals_ > 0; }
  /// Signal number of the first signal received, 0 when none.
  int firstSignal() const { return first_signal_; }
  /// Stops and joins the watcher thread; idempotent.
  void stop();

 private:
  void loop();

  std::function<void(int)> on_first_;
  std::atomic<bool> quit_{false};
  std::atomic<int> signals_{0};
  std::atomic<int> first_signal_{0};
  std::thread thread_;
};

}  // namespace trainscope::cli

#pragma once
/// Watches each epoch's training rate against the rate measured at the start of the run
/// (training.num_threads "auto") and says when the machine has become much slower (issue 12).
/// Pure logic, torch-free, so tests can script the rates.
#include <optional>
#include <string>

namespace trainscope {

class ThroughputMonitor {
 public:
  /// An epoch slower than baseline / kSlowdownFactor is reported.
  static constexpr double kSlowdownFactor = 3.0;

  /// `baseline_samples_per_second`: the rate measured at the start for the count in use
  /// (<= 0: nothing to compare with, the monitor never fires); `threads`: that count, which
  /// never changes during a run.
  ThroughputMonitor(double baseline_samples_per_second, int threads);

  /// Called once per completed epoch with its training rate (samples/s of the training steps,
  /// paused and paced time excluded). Returns an English event message when this epoch ran at
  /// under a third of the baseline and the previous epoch did not (so a lasting slowdown is
  /// reported once, and again only after the rate has recovered); nullopt otherwise.
  std::optional<std::string> onEpoch(int64_t epoch, double samples_per_second);

  /// The count to use next time while the cores stay busy: 1 (one thread never waits at an
  /// OpenMP barrier for a thread the scheduler has parked).
  int suggestedThreads() const { return 1; }

 private:
  double baseline_;
  int threads_;
  bool slow_ = false;  ///< the previous epoch was slow
};

}  // namespace trainscope

#include "core/train/monitors/throughput_monitor.h"

#include <cmath>

#include "core/run/records.h"  // formatRate

namespace trainscope {

ThroughputMonitor::ThroughputMonitor(double baseline_samples_per_second, int threads)
    : baseline_(baseline_samples_per_second), threads_(threads) {}

std::optional<std::string> ThroughputMonitor::onEpoch(int64_t epoch, double samples_per_second) {
  const bool slow = baseline_ > 0 && std::isfinite(samples_per_second) &&
                    samples_per_second * kSlowdownFactor < baseline_;
  const bool report = slow && !slow_;
  slow_ = slow;
  if (!report) return std::nullopt;
  std::string m = "epoch " + std::to_string(epoch) + " trained at " +
                  formatRate(samples_per_second) + ", under a third of the " +
                  formatRate(baseline_) + " measured at the start with " +
                  std::to_string(threads_) + (threads_ == 1 ? " thread" : " threads") +
                  ": another program is probably using the cores.";
  if (threads_ > suggestedThreads()) {
    m += " The thread count stays fixed during a run (it would change the numbers); next time "
         "use training.num_threads=" +
         std::to_string(suggestedThreads()) + " (or \"auto\", measured when the run starts).";
  } else {
    m += " The run already uses 1 thread; closing the other program is what helps.";
  }
  return m;
}

}  // namespace trainscope

#pragma once
/// Wall-clock helpers: elapsed seconds, a pause-aware timer, and the one place that formats
/// the local time (run.json start_time, run directory names). Torch-free.
#include <chrono>
#include <cmath>
#include <string>

namespace trainscope {

using SteadyClock = std::chrono::steady_clock;

/// Seconds elapsed since `t` (steady clock).
inline double secondsSince(SteadyClock::time_point t) {
  return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

/// `value` rounded to a multiple of `unit` (1e-6: microseconds). Wall-clock values are recorded
/// to the microsecond (and rates to 1e-3): finer digits are noise.
inline double roundTo(double value, double unit) { return std::round(value / unit) / (1.0 / unit); }

/// Measures active time: wall time since restart() minus the time reported with
/// addPaused() (the engine waiting while paused). Not thread-safe: one owner thread.
class PauseAwareTimer {
 public:
  PauseAwareTimer() { restart(); }
  /// Starts measuring from now, forgetting paused time.
  void restart() {
    start_ = SteadyClock::now();
    paused_ = 0;
  }
  /// Excludes `seconds` (spent paused) from activeSeconds().
  void addPaused(double seconds) { paused_ += seconds; }
  /// Seconds since restart(), paused time excluded.
  double activeSeconds() const { return secondsSince(start_) - paused_; }
  /// Seconds since restart(), paused time included.
  double wallSeconds() const { return secondsSince(start_); }

 private:
  SteadyClock::time_point start_;
  double paused_ = 0;
};

/// The current local time formatted with strftime(`format`). Only numeric conversions are
/// meant (%Y %m %d %H %M %S %z): those do not depend on the locale, unlike %c, %a or %b.
std::string formatLocalTimeNow(const char* format);

/// Now as ISO 8601 with offset, e.g. "2026-11-30T13:25:18+0000" (run.json `start_time`).
inline std::string isoTimeNow() { return formatLocalTimeNow("%Y-%m-%dT%H:%M:%S%z"); }

/// Now as "YYYYmmdd-HHMMSS" (run directory names).
inline std::string runDirTimestampNow() { return formatLocalTimeNow("%Y%m%d-%H%M%S"); }

}  // namespace trainscope

#pragma once
/// Clip statistics: the share of clipped steps over the last 100 steps and the whole
/// run, and the two warnings "clipping never fires" and "clipping fires on nearly every step".
/// Pure logic, torch-free: the engine feeds it every step; front ends may run their own copy
/// on the StepRecords they receive (StepRecord::max_norm, ::clipped).
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

namespace trainscope {

class ClipStats {
 public:
  static constexpr int kWindow = 100;            ///< "last 100 steps"
  static constexpr int kNeverSteps = 200;        ///< steps before "never fires" may be said
  static constexpr double kNeverFraction = 0.1;  ///< every norm below max_norm * this
  static constexpr double kAlwaysShare = 0.9;    ///< "fires on nearly every step": share above
  static constexpr double kRearmShare = 0.5;     ///< the "always" warning re-arms below this

  /// A warning to report (EventKind::ClipWarning).
  struct Warning {
    std::string what;     ///< "clip_never_fires" | "clip_always_fires"
    std::string message;  ///< English, with the numbers
    double value = 0;     ///< never: the largest norm seen; always: the share of the last 100
  };

  /// One step. Only steps with clipping enabled and a finite norm count; a step counts as
  /// clipped when clip_grad_norm_'s factor max_norm / (norm + 1e-6) is < 1. A change of
  /// `enabled` or `max_norm` is a new situation: the window and both warnings start afresh
  /// (the run totals keep counting). "never fires": on the 200th counted step since the last
  /// change when every norm seen since is < max_norm / 10 (once per situation). "always fires":
  /// when the last 100 counted steps are full and over 90% of them were clipped (once, again
  /// only after the share has fallen to 50% or less, or after a change).
  std::optional<Warning> onStep(int64_t step, double grad_norm, bool enabled, double max_norm);

  /// Clipped share of the last (up to) 100 counted steps; 0 when none.
  double shareRecent() const;
  /// Clipped share of every counted step of the run; 0 when none.
  double shareRun() const;
  /// How many counted steps shareRecent() is over (at most 100).
  int64_t recentSteps() const { return static_cast<int64_t>(window_.size()); }
  int64_t clippedSteps() const { return clipped_run_; }
  int64_t countedSteps() const { return counted_run_; }

 private:
  bool have_setting_ = false;
  bool enabled_ = false;
  double max_norm_ = 0;
  std::deque<bool> window_;
  int window_clipped_ = 0;
  int64_t since_change_ = 0;
  double max_seen_ = 0;
  bool never_warned_ = false;
  bool always_warned_ = false;
  int64_t clipped_run_ = 0, counted_run_ = 0;
};

}  // namespace trainscope

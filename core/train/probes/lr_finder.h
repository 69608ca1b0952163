#pragma once
/// The learning-rate range test (Smith 2015, "Cyclical Learning Rates"; fastai's lr_find):
/// train a copy of the model with an exponentially growing lr and watch the smoothed loss.
/// Torch-free public API; the torch part is lr_finder_impl.h.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/config/config_fwd.h"

namespace trainscope {

/// How the sweep runs (fastai v1 lr_find defaults: 1e-7 to 10 over 100 steps, stop when the
/// smoothed loss exceeds 4x its minimum, smoothing beta 0.98).
struct LrFinderOptions {
  double start_lr = 1e-7;
  double end_lr = 10.0;
  int64_t steps = 100;
  double beta = 0.98;           ///< EMA of the loss, debiased: avg / (1 - beta^(i+1))
  double diverge_factor = 4.0;  ///< stop when smoothed loss > diverge_factor x its minimum
};

/// One step of the sweep.
struct LrFinderPoint {
  double lr = 0;             ///< the lr this step used: start * (end/start)^(i / (steps - 1))
  double loss = 0;           ///< the batch's loss (train mode)
  double smoothed_loss = 0;  ///< debiased EMA of the losses so far
};

/// The curve and the suggestion.
struct LrFinderResult {
  std::vector<LrFinderPoint> points;
  /// The lr of the steepest descent of the smoothed loss against log(lr) (numpy.gradient's
  /// differences, the diverged last point excluded), over the points left when fastai's
  /// skip_start = 10 first and skip_end = 5 last points are dropped (only when at least 5
  /// remain); 0 when fewer than 2 points.
  double suggested_lr = 0;
  bool stopped_early = false;  ///< smoothed loss > diverge_factor x minimum, or non-finite
};

/// Points fastai v1's Recorder.plot leaves out of the suggestion (skip_start, skip_end).
inline constexpr size_t kLrSuggestSkipStart = 10;
inline constexpr size_t kLrSuggestSkipEnd = 5;

/// The suggestion for a finished curve: see LrFinderResult::suggested_lr.
double suggestLearningRate(const std::vector<LrFinderPoint>& points, bool stopped_early);

/// Runs the range test for `config` from scratch (data, model from training.seed, optimizer as
/// configured) on the calling thread: what `trainscope-cli lr-find` does. Throws Error(Config)
/// for a bad config or options (start_lr must be > 0 and < end_lr, steps >= 2), Error(Data).
LrFinderResult findLearningRate(const TrainConfig& config, const LrFinderOptions& options);

}  // namespace trainscope

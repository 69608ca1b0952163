#pragma once
/// Early stopping of a sweep's trials (pruning): Optuna's MedianPruner and its asynchronous
/// SuccessiveHalvingPruner, on the objective's metrics.csv column epoch by epoch. Torch-free.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/sweep/sweep_file.h"
#include "core/sweep/trials_log.h"

namespace trainscope {

/// A trial's objective column by epoch: (epoch, value; NaN where the row has none).
using TrialCurve = std::vector<std::pair<int64_t, double>>;

/// The objective's metrics.csv column (epochColumnOf) of the run folder `run_dir`; empty when
/// it cannot be read yet (not written, or mid-write).
TrialCurve readTrialCurve(const std::string& metric, const std::filesystem::path& run_dir);

/// What a pruner reads of the sweep: every trial's current line, and the curve of a finished
/// one (read once).
struct PrunerSweep {
  const std::map<int64_t, TrialLine>* trials = nullptr;
  std::function<const TrialCurve&(int64_t trial)> finished_curve;
};

/// A pruner's decision: why, and the epoch the rule names.
struct PruneDecision {
  std::string why;
  int64_t epoch = 0;
};

/// Looks at a running trial's epochs written since its last look, in order.
class Pruner {
 public:
  virtual ~Pruner() = default;
  /// Trial `trial` has the curve `mine` so far: nullopt, or why it stops and at which epoch.
  virtual std::optional<PruneDecision> look(int64_t trial, const TrialCurve& mine) = 0;
};

/// The sweep's pruner: spec.pruner "median" (Optuna's MedianPruner, percentile 50: at each
/// epoch e, the trial's best value up to e against the median of the completed trials' values
/// at e; nothing before warmup_epochs or startup_trials completed trials) or
/// "successive_halving" (Optuna's asynchronous SuccessiveHalvingPruner, min_early_stopping_rate
/// 0, no bootstrap: rung k at epoch min_epochs x reduction_factor^k; a trial's value there
/// joins the values every trial had at that rung, and it goes on only when among the best
/// len / reduction_factor of them, the best one while fewer than reduction_factor reached it);
/// null for "none".
std::unique_ptr<Pruner> makePruner(const SweepSpec& spec, PrunerSweep sweep);

}  // namespace trainscope

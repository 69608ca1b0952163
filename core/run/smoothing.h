#pragma once
/// Smoothing of noisy per-step curves for display. Pure C++ (no torch, no Qt): front ends call
/// these on their own copies of the values.
#include <cstddef>
#include <vector>

namespace trainscope {

/// TensorBoard's scalar smoothing: an exponential moving average with debiasing. For each
/// finite value y_i: last = last * weight + (1 - weight) * y_i, n += 1, out_i = last / (1 -
/// weight^n) (so the start is not pulled towards 0); a non-finite value is passed through and
/// does not enter the average. `weight` in [0, 1): 0 returns the values unchanged; values >= 1
/// are treated as 0.999.
std::vector<double> emaDebiased(const std::vector<double>& values, double weight);

/// Plain trailing moving average: out_i = mean of the finite values among the last `window`
/// values up to i (fewer at the start; NaN when none is finite). `window` <= 1 returns the
/// values unchanged.
std::vector<double> movingAverage(const std::vector<double>& values, std::size_t window);

/// The default EMA weight for a run of `planned_steps` optimizer steps (0.95 averaged
/// about 20 steps, so over a 20-step lesson run the smoothed curve lagged at 1.3 against a raw
/// loss of 0.7): the weight whose time constant 1 / (1 - weight) is 5% of the run, i.e.
/// 1 - 20 / planned_steps, clamped to [0, 0.95] (0 for runs of at most 20 steps: the raw curve
/// and the epoch curve carry the trend; 0.95, TensorBoard-like, from 400 steps on).
double emaWeightForRun(long long planned_steps);

}  // namespace trainscope

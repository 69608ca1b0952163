#pragma once
/// The run's own noise, one estimate for the loss doctor's plateau rule and the
/// overfitting detector's onset rule, the median both take, and the spread of repeated
/// throughput rounds (AMP A/B, the thread choice). Torch-free, header-only.
#include <algorithm>
#include <cmath>
#include <vector>

namespace trainscope {

/// The median of `v` (the upper middle of an even count, as std::nth_element at size / 2);
/// NaN when empty.
template <class T>
double medianOf(std::vector<T> v) {
  if (v.empty()) return std::nan("");
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return static_cast<double>(v[v.size() / 2]);
}

/// The standard deviation of the noise behind `changes`, the differences x[i] - x[i - lag] of
/// a series: the median absolute deviation of the changes from their median, divided by
/// 0.6745 sqrt 2 (for Gaussian noise of deviation sigma a difference of two values has
/// sigma sqrt 2, whose median absolute deviation is 0.6745 of that). A steady trend moves the
/// median of the changes, not their spread, and single spikes do not count. NaN with fewer
/// than 3 changes.
inline double noiseFromChanges(std::vector<double> changes) {
  if (changes.size() < 3) return std::nan("");
  const double centre = medianOf(changes);
  for (double& c : changes) c = std::abs(c - centre);
  return medianOf(std::move(changes)) / (0.6745 * std::sqrt(2.0));
}

/// Repeated measurements of one throughput figure (samples/s, a speed-up), one per round.
struct RateSpread {
  /// A spread above this (20%) means other load disturbed the timing: front ends then show
  /// the range and say the machine was busy instead of a single figure.
  static constexpr double kBusySpread = 0.20;
  int rounds = 0;      ///< finite positive values measured
  double median = 0;   ///< the figure to quote (0 when no round)
  double low = 0, high = 0;  ///< the smallest and largest round
  double spread = 0;   ///< (high - low) / median; 0 with fewer than 2 rounds
  bool busy = false;   ///< rounds >= 2 and spread > kBusySpread
};

/// The median, range and relative spread of `values` (non-finite and non-positive values,
/// rounds that could not be timed, are left out).
inline RateSpread rateSpread(const std::vector<double>& values) {
  std::vector<double> v;
  for (double x : values)
    if (std::isfinite(x) && x > 0) v.push_back(x);
  RateSpread r;
  r.rounds = static_cast<int>(v.size());
  if (v.empty()) return r;
  // The median of an even count is the mean of the two middle values here: with two rounds
  // the figure quoted is then between them, not the faster one.
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  r.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  r.low = v.front();
  r.high = v.back();
  r.spread = n >= 2 ? (r.high - r.low) / r.median : 0;
  r.busy = n >= 2 && r.spread > RateSpread::kBusySpread;
  return r;
}

}  // namespace trainscope

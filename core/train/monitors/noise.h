#pragma once
/// The run's own noise (issue 42), one estimate for the loss doctor's plateau rule and the
/// overfitting detector's onset rule, and the median both take. Torch-free, header-only.
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

}  // namespace trainscope

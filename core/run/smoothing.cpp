#include "core/run/smoothing.h"

#include <algorithm>
#include <cmath>

namespace trainscope {

std::vector<double> emaDebiased(const std::vector<double>& values, double weight) {
  if (!(weight > 0)) return values;
  if (weight >= 1) weight = 0.999;
  std::vector<double> out(values.size());
  double last = 0, power = 1;  // power = weight^n
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double y = values[i];
    if (!std::isfinite(y)) {
      out[i] = y;
      continue;
    }
    last = last * weight + (1 - weight) * y;
    power *= weight;
    out[i] = last / (1 - power);
  }
  return out;
}

std::vector<double> movingAverage(const std::vector<double>& values, std::size_t window) {
  if (window <= 1) return values;
  std::vector<double> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Summed afresh for each point (window x n additions): no drift from a running sum.
    double sum = 0;
    std::size_t finite = 0;
    for (std::size_t k = i + 1 > window ? i + 1 - window : 0; k <= i; ++k)
      if (std::isfinite(values[k])) sum += values[k], ++finite;
    out[i] = finite > 0 ? sum / static_cast<double>(finite) : std::nan("");
  }
  return out;
}

double emaWeightForRun(long long planned_steps) {
  if (planned_steps <= 20) return 0;
  return std::min(0.95, 1.0 - 20.0 / static_cast<double>(planned_steps));
}

}  // namespace trainscope

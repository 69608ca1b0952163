// Ranking a sweep's trials and configurations (orchestrator.h), split from orchestrator.cpp.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/sweep/orchestrator.h"

namespace trainscope {

std::vector<TrialLine> rankTrials(const SweepOutcome& outcome) {
  std::vector<TrialLine> ranked = outcome.trials;
  const bool maximize = outcome.spec.maximize;
  std::stable_sort(ranked.begin(), ranked.end(), [&](const TrialLine& a, const TrialLine& b) {
    if (a.objective.has_value() != b.objective.has_value()) return a.objective.has_value();
    if (!a.objective) return a.trial < b.trial;
    if (*a.objective != *b.objective)
      return maximize ? *a.objective > *b.objective : *a.objective < *b.objective;
    return a.trial < b.trial;
  });
  return ranked;
}

std::vector<ConfigResult> rankConfigs(const SweepOutcome& outcome) {
  std::map<int64_t, ConfigResult> by_config;
  for (const TrialLine& t : outcome.trials) {
    ConfigResult& c = by_config[t.config];
    if (c.trials.empty()) {
      c.config = t.config;
      c.values = t.values;
      if (outcome.spec.seeds > 1) {
        c.values.erase("training.seed");
        if (outcome.spec.seeds_data) c.values.erase("data.seed");
      }
    }
    c.trials.push_back(t.trial);
  }
  std::vector<ConfigResult> ranked;
  for (auto& [n, c] : by_config) {
    std::vector<double> values;
    for (const TrialLine& t : outcome.trials)
      if (t.config == c.config && t.objective) values.push_back(*t.objective);
    c.n = static_cast<int64_t>(values.size());
    if (!values.empty()) {
      double sum = 0;
      for (double v : values) sum += v;
      const double mean = sum / values.size();
      c.mean = mean;
      if (values.size() > 1) {
        double squares = 0;
        for (double v : values) squares += (v - mean) * (v - mean);
        c.std = std::sqrt(squares / (values.size() - 1));
      }
    }
    ranked.push_back(std::move(c));
  }
  const bool maximize = outcome.spec.maximize;
  std::stable_sort(ranked.begin(), ranked.end(), [&](const ConfigResult& a, const ConfigResult& b) {
    if (a.mean.has_value() != b.mean.has_value()) return a.mean.has_value();
    if (!a.mean || *a.mean == *b.mean) return a.config < b.config;
    return maximize ? *a.mean > *b.mean : *a.mean < *b.mean;
  });
  return ranked;
}


}  // namespace trainscope

#include "core/sweep/samplers.h"

#include <cmath>
#include <random>
#include <set>

namespace trainscope {
namespace {

using json = nlohmann::json;

/// Value `i` (0-based) of a discrete parameter.
json discreteValue(const SweepParameter& p, int64_t i) {
  if (p.kind == SweepParameter::Kind::Choices) return p.choices[static_cast<size_t>(i)];
  return json(static_cast<int64_t>(p.low) + i);
}

/// The size of the all-discrete space, capped at `cap + 1`.
int64_t spaceSize(const SweepSpec& spec, int64_t cap) {
  int64_t n = 1;
  for (const SweepParameter& p : spec.parameters)
    n = std::min<int64_t>(n * std::min<int64_t>(p.size(), cap + 1), cap + 1);
  return n;
}

/// Combination `index` of the grid (mixed radix, the last parameter fastest).
TrialValues gridPoint(const SweepSpec& spec, int64_t index) {
  TrialValues values = json::object();
  for (size_t k = spec.parameters.size(); k-- > 0;) {
    const SweepParameter& p = spec.parameters[k];
    values[p.key] = discreteValue(p, index % p.size());
    index /= p.size();
  }
  return values;
}

/// A double in [0, 1) from 53 random bits (the same on every standard library).
double unit(std::mt19937_64& gen) { return static_cast<double>(gen() >> 11) * 0x1.0p-53; }

/// An integer in [0, n) without modulo bias.
int64_t below(std::mt19937_64& gen, int64_t n) {
  const uint64_t range = static_cast<uint64_t>(n);
  const uint64_t limit = UINT64_MAX - UINT64_MAX % range;
  uint64_t r;
  do r = gen();
  while (r >= limit);
  return static_cast<int64_t>(r % range);
}

json draw(const SweepParameter& p, std::mt19937_64& gen) {
  switch (p.kind) {
    case SweepParameter::Kind::Choices:
    case SweepParameter::Kind::IntUniform:
      return discreteValue(p, below(gen, p.size()));
    case SweepParameter::Kind::Uniform:
      return p.low + unit(gen) * (p.high - p.low);
    case SweepParameter::Kind::LogUniform:
      return std::exp(std::log(p.low) + unit(gen) * (std::log(p.high) - std::log(p.low)));
  }
  return json();
}

}  // namespace

SweepPlan gridTrials(const SweepSpec& spec) {
  SweepPlan plan;
  const int64_t size = spaceSize(spec, kMaxGridTrials);
  const int64_t n = std::min(size, spec.max_trials);
  for (int64_t i = 0; i < n; ++i) plan.trials.push_back(gridPoint(spec, i));
  if (n < size)
    plan.note = "the grid has " + std::to_string(size) + " configurations: max_trials " +
                std::to_string(spec.max_trials) + " runs the first " + std::to_string(n);
  else if (spec.max_trials > size)
    plan.note = "the grid has " + std::to_string(size) + " configurations: max_trials " +
                std::to_string(spec.max_trials) + " capped at " + std::to_string(size);
  return plan;
}

SweepPlan randomTrials(const SweepSpec& spec) {
  SweepPlan plan;
  std::mt19937_64 gen(spec.seed);
  bool discrete = true;
  for (const SweepParameter& p : spec.parameters) discrete = discrete && p.discrete();
  int64_t n = spec.max_trials;
  if (discrete) {
    const int64_t size = spaceSize(spec, kMaxGridTrials);
    if (size <= kMaxGridTrials) {
      if (n > size) {
        plan.note = "the space has " + std::to_string(size) + " configurations: max_trials " +
                    std::to_string(n) + " capped at " + std::to_string(size);
        n = size;
      }
      // Without replacement: the first n of a seeded shuffle of the grid (Fisher-Yates,
      // stopped after n places).
      std::vector<int64_t> order(static_cast<size_t>(size));
      for (int64_t i = 0; i < size; ++i) order[static_cast<size_t>(i)] = i;
      for (int64_t i = 0; i < n; ++i) {
        const int64_t j = i + below(gen, size - i);
        std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(j)]);
        plan.trials.push_back(gridPoint(spec, order[static_cast<size_t>(i)]));
      }
      return plan;
    }
  }
  // A continuous or very large space: draws, any repeat of a configuration drawn again.
  std::set<std::string> seen;
  for (int64_t attempts = 0; static_cast<int64_t>(plan.trials.size()) < n; ++attempts) {
    if (attempts > 1000 * n) break;  // cannot happen with a space larger than n
    TrialValues values = json::object();
    for (const SweepParameter& p : spec.parameters) values[p.key] = draw(p, gen);
    if (seen.insert(values.dump()).second) plan.trials.push_back(std::move(values));
  }
  return plan;
}

SweepPlan planTrials(const SweepSpec& spec) {
  if (spec.method == "tpe") {  // asked one by one while the sweep runs
    SweepPlan plan;
    const int64_t given = spec.source.value("max_trials", int64_t{0});
    if (given > spec.max_trials)
      plan.note = "the space has " + std::to_string(spec.max_trials) +
                  " configurations: max_trials " + std::to_string(given) + " capped at " +
                  std::to_string(spec.max_trials) + " (no configuration runs twice)";
    return plan;
  }
  SweepPlan drawn = spec.method == "grid" ? gridTrials(spec) : randomTrials(spec);
  SweepPlan plan;
  plan.note = drawn.note;
  const json& base_seed = spec.base_config["training"]["seed"];
  const int64_t training_seed = base_seed.is_number_integer() ? base_seed.get<int64_t>() : 0;
  const int64_t data_seed = spec.base_config["data"].value("seed", int64_t{0});
  for (size_t c = 0; c < drawn.trials.size(); ++c) {
    for (int k = 0; k < spec.seeds; ++k) {
      TrialValues values = drawn.trials[c];
      if (spec.seeds > 1) {
        values["training.seed"] = training_seed + k;
        if (spec.seeds_data) values["data.seed"] = data_seed + k;
      }
      plan.trials.push_back(std::move(values));
      plan.configs.push_back(static_cast<int64_t>(c));
    }
  }
  return plan;
}

}  // namespace trainscope

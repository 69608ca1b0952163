#include "core/sweep/sweep_view.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/run/run_dir.h"

namespace trainscope {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

SweepAxis axisOf(const std::string& key, const json& p) {
  SweepAxis a;
  a.key = key;
  auto range = [&](const char* name, SweepParameter::Kind kind) {
    const json& r = p.at(name);
    a.kind = kind;
    a.low = r.at(0).get<double>();
    a.high = r.at(1).get<double>();
  };
  if (p.contains("log_uniform")) {
    range("log_uniform", SweepParameter::Kind::LogUniform);
    a.log = a.low > 0;
  } else if (p.contains("uniform")) {
    range("uniform", SweepParameter::Kind::Uniform);
  } else if (p.contains("int_uniform")) {
    range("int_uniform", SweepParameter::Kind::IntUniform);
  } else {
    a.kind = SweepParameter::Kind::Choices;
    for (const json& c : p.at("choices")) a.choices.push_back(c);
    a.categorical = a.choices.empty() ||
                    !std::all_of(a.choices.begin(), a.choices.end(),
                                 [](const json& c) { return c.is_number() || c.is_boolean(); });
    if (!a.categorical) {
      a.low = a.high = a.choices.front().get<double>();
      for (const json& c : a.choices) {
        a.low = std::min(a.low, c.get<double>());
        a.high = std::max(a.high, c.get<double>());
      }
      a.log = a.low > 0 && a.high / a.low >= 100;
    } else {
      a.low = 0;
      a.high = std::max<double>(0, static_cast<double>(a.choices.size()) - 1);
    }
  }
  return a;
}

/// Average ranks from 1 (ties share their mean rank), scipy.stats.rankdata's "average".
std::vector<double> averageRanks(const std::vector<double>& v) {
  std::vector<size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
  std::vector<double> ranks(v.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double rank = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
    for (size_t k = i; k <= j; ++k) ranks[order[k]] = rank;
    i = j + 1;
  }
  return ranks;
}

}  // namespace

SweepView readSweepView(const fs::path& given) {
  SweepView view;
  view.dir = fs::absolute(given).lexically_normal();
  json record;
  try {
    record = parseJson(readRegularFile(view.dir / kSweepRecordFile));
  } catch (const std::exception& e) {
    throw Error(ErrorCode::Config, view.dir.string(),
                view.dir.string() + " holds no sweep (" + kSweepRecordFile + ": " + e.what() + ")");
  }
  if (!record.is_object() || record.value("format", "") != kSweepFormat ||
      !record.contains("sweep") || !record["sweep"].is_object())
    throw Error(ErrorCode::Config, view.dir.string(),
                (view.dir / kSweepRecordFile).string() + " is not a TrainScope sweep record");
  const json& s = record["sweep"];
  try {
    view.name = record.value("name", s.value("name", view.dir.filename().string()));
    view.method = s.value("method", "random");
    view.concurrent = s.value("concurrent", 1);
    view.max_trials = record.value("trials_planned", s.value("max_trials", int64_t{0}));
    if (s.contains("objective") && s["objective"].is_object()) {
      view.metric = s["objective"].value("metric", view.metric);
      const std::string goal = s["objective"].value("goal", "");
      view.maximize = goal.empty() ? view.metric.find("accuracy") != std::string::npos ||
                                         view.metric.find("r2") != std::string::npos
                                   : goal == "maximize";
    }
    view.seeds = s.value("seeds", 1);
    view.seeds_data = s.value("seeds_data", false);
    if (s.contains("executor") && s["executor"].is_object())
      view.executor = s["executor"].value("kind", "local");
    if (s.contains("parameters") && s["parameters"].is_object())
      for (const auto& [key, p] : s["parameters"].items()) view.axes.push_back(axisOf(key, p));
  } catch (const json::exception& e) {
    throw Error(ErrorCode::Config, view.dir.string(),
                (view.dir / kSweepRecordFile).string() + ": " + e.what());
  }
  std::error_code ec;
  if (fs::exists(view.dir / "trials.jsonl", ec))
    for (auto& [n, t] : readTrialsLog(view.dir / "trials.jsonl")) view.trials.push_back(t);
  return view;
}

std::optional<double> axisValue(const SweepAxis& axis, const json& v) {
  if (axis.categorical) {
    for (size_t i = 0; i < axis.choices.size(); ++i)
      if (axis.choices[i] == v) return static_cast<double>(i);
    return std::nullopt;
  }
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (v.is_number()) return v.get<double>();
  return std::nullopt;
}

std::optional<double> spearmanRho(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 3) return std::nullopt;
  const std::vector<double> rx = averageRanks(x), ry = averageRanks(y);
  const double n = static_cast<double>(x.size());
  const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n;
  const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  if (sxx == 0 || syy == 0) return std::nullopt;
  return sxy / std::sqrt(sxx * syy);
}

std::vector<ParameterImportance> parameterImportance(const SweepView& view) {
  std::vector<ParameterImportance> out;
  for (const SweepAxis& axis : view.axes) {
    std::vector<double> x, y;
    for (const TrialLine& t : view.trials) {
      if (!t.objective || !std::isfinite(*t.objective) || !t.values.contains(axis.key)) continue;
      const auto v = axisValue(axis, t.values[axis.key]);
      if (!v) continue;
      x.push_back(*v);
      y.push_back(*t.objective);
    }
    ParameterImportance p{axis.key, std::nullopt, static_cast<int64_t>(x.size()), ""};
    if (axis.categorical) {
      p.none_because = "choices without an order";
    } else {
      p.rho = spearmanRho(x, y);
      if (!p.rho) p.none_because = x.size() < 3 ? "too few trials" : "constant";
    }
    out.push_back(std::move(p));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a.rho.has_value() != b.rho.has_value()) return a.rho.has_value();
    return a.rho && std::fabs(*a.rho) > std::fabs(*b.rho);
  });
  return out;
}

std::vector<ConfigResult> configResults(const SweepView& view) {
  SweepOutcome outcome;
  outcome.spec.seeds = view.seeds;
  outcome.spec.seeds_data = view.seeds_data;
  outcome.spec.maximize = view.maximize;
  outcome.spec.metric = view.metric;
  outcome.trials = view.trials;
  return rankConfigs(outcome);
}

const TrialLine* bestTrial(const SweepView& view) {
  const TrialLine* best = nullptr;
  for (const TrialLine& t : view.trials) {
    if (!t.objective || !std::isfinite(*t.objective)) continue;
    if (!best || (view.maximize ? *t.objective > *best->objective : *t.objective < *best->objective))
      best = &t;
  }
  return best;
}

}  // namespace trainscope

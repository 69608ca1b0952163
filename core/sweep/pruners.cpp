#include "core/sweep/pruners.h"

#include <algorithm>
#include <cmath>

#include "core/run/run_reader.h"
#include "core/system/number_format.h"

namespace trainscope {

TrialCurve readTrialCurve(const std::string& metric, const std::filesystem::path& run_dir) {
  TrialCurve out;
  const std::string column = epochColumnOf(metric);
  try {
    for (const EpochRecord& e : readMetricsCsv(run_dir / "metrics.csv")) {
      std::optional<double> v;
      if (column == "val_loss") v = e.val_loss;
      else if (column == "train_loss") v = e.train_loss;
      else if (column == "val_accuracy") v = e.val_accuracy;
      else if (column == "val_r2") v = e.val_r2;
      else if (column == "val_mae") v = e.val_mae;
      else if (column == "val_rmse") v = e.val_rmse;
      out.emplace_back(e.epoch, v.value_or(std::nan("")));
    }
  } catch (const std::exception&) {
    out.clear();  // looked at again on the next poll
  }
  return out;
}

namespace {

class MedianPruner : public Pruner {
 public:
  MedianPruner(const SweepSpec& spec, PrunerSweep sweep) : spec_(spec), sweep_(std::move(sweep)) {}

  std::optional<PruneDecision> look(int64_t trial, const TrialCurve& mine) override {
    int64_t& checked = checked_[trial];
    int64_t completed = 0;
    for (const auto& [n, other] : *sweep_.trials)
      completed += other.state == trial_state::kCompleted;
    if (completed < spec_.startup_trials) {  // pruning is off for the epochs trained so far
      if (!mine.empty()) checked = mine.back().first;
      return std::nullopt;
    }
    double best = std::nan("");
    for (const auto& [e, v] : mine) {
      if (std::isfinite(v) && (std::isnan(best) || (spec_.maximize ? v > best : v < best)))
        best = v;
      if (e <= checked) continue;
      checked = e;
      if (e < std::max<int64_t>(1, spec_.warmup_epochs)) continue;
      std::vector<double> at_e;
      for (const auto& [n, other] : *sweep_.trials) {
        if (other.state != trial_state::kCompleted) continue;
        for (const auto& [epoch, value] : sweep_.finished_curve(n))
          if (epoch == e && std::isfinite(value)) at_e.push_back(value);
      }
      if (at_e.empty()) continue;
      std::sort(at_e.begin(), at_e.end());
      const size_t k = at_e.size();
      const double median = k % 2 ? at_e[k / 2] : (at_e[k / 2 - 1] + at_e[k / 2]) / 2;
      const bool worse = std::isnan(best) || (spec_.maximize ? best < median : best > median);
      if (!worse) continue;
      return PruneDecision{"median pruner: " + std::string(spec_.maximize ? "best " : "lowest ") +
                               epochColumnOf(spec_.metric) + " " + formatHuman(best) +
                               " by epoch " + std::to_string(e) + " is " +
                               (spec_.maximize ? "below" : "above") + " the median " +
                               formatHuman(median) + " of " + std::to_string(k) +
                               " completed trial(s) at epoch " + std::to_string(e),
                           e};
    }
    return std::nullopt;
  }

 private:
  const SweepSpec& spec_;
  PrunerSweep sweep_;
  std::map<int64_t, int64_t> checked_;  ///< trial -> the epochs looked at so far
};

class SuccessiveHalving : public Pruner {
 public:
  SuccessiveHalving(const SweepSpec& spec, PrunerSweep sweep)
      : spec_(spec), sweep_(std::move(sweep)) {}

  std::optional<PruneDecision> look(int64_t trial, const TrialCurve& mine) override {
    int64_t& checked = checked_[trial];
    int64_t& rung = rung_[trial];
    for (const auto& [e, value] : mine) {
      if (e <= checked) continue;
      checked = e;
      if (e != rungEpoch(rung)) continue;
      if (std::isnan(value))
        return PruneDecision{"successive halving: " + epochColumnOf(spec_.metric) +
                                 " is not a number at rung " + std::to_string(rung) +
                                 " (epoch " + std::to_string(e) + ")",
                             e};
      std::vector<double> finite;
      for (double c : rungValues(rung, trial))
        if (!std::isnan(c)) finite.push_back(c);
      finite.push_back(value);
      std::sort(finite.begin(), finite.end());
      int64_t index = static_cast<int64_t>(finite.size()) / spec_.reduction_factor - 1;
      if (index < 0) index = 0;
      const double bar = spec_.maximize ? finite[finite.size() - 1 - index] : finite[index];
      const bool promoted = spec_.maximize ? value >= bar : value <= bar;
      values_[rung][trial] = value;
      if (promoted) {
        ++rung;
        continue;
      }
      return PruneDecision{
          "successive halving: " + epochColumnOf(spec_.metric) + " " + formatHuman(value) +
              " at rung " + std::to_string(rung) + " (epoch " + std::to_string(e) +
              ") is not among the best " + std::to_string(index + 1) + " of the " +
              std::to_string(finite.size()) + " trial(s) that reached it (the bar: " +
              formatHuman(bar) + ")",
          e};
    }
    return std::nullopt;
  }

 private:
  int64_t rungEpoch(int64_t rung) const {
    int64_t e = spec_.min_epochs;
    for (int64_t k = 0; k < rung; ++k) e *= spec_.reduction_factor;
    return e;
  }

  /// The values the other trials had at `rung`: seen while they ran, else (a trial finished
  /// before this sweep process, or before its last look) from its curve, when it reached the
  /// rung's epoch and was not pruned before it.
  std::vector<double> rungValues(int64_t rung, int64_t except) {
    std::vector<double> out;
    const int64_t epoch = rungEpoch(rung);
    for (const auto& [n, other] : *sweep_.trials) {
      if (n == except) continue;
      const auto known = values_[rung].find(n);
      if (known != values_[rung].end()) {
        out.push_back(known->second);
        continue;
      }
      if (other.state != trial_state::kCompleted && other.state != trial_state::kPruned) continue;
      if (other.pruned_epoch && *other.pruned_epoch < epoch) continue;
      for (const auto& [e, value] : sweep_.finished_curve(n))
        if (e == epoch) {
          values_[rung][n] = value;
          out.push_back(value);
        }
    }
    return out;
  }

  const SweepSpec& spec_;
  PrunerSweep sweep_;
  std::map<int64_t, int64_t> checked_, rung_;                 ///< trial -> epoch looked at, rung
  std::map<int64_t, std::map<int64_t, double>> values_;  ///< rung -> trial -> value
};

}  // namespace

std::unique_ptr<Pruner> makePruner(const SweepSpec& spec, PrunerSweep sweep) {
  if (spec.pruner == "median") return std::make_unique<MedianPruner>(spec, std::move(sweep));
  if (spec.pruner == "successive_halving")
    return std::make_unique<SuccessiveHalving>(spec, std::move(sweep));
  return nullptr;
}

}  // namespace trainscope

#include "core/train/monitors/early_stopping.h"

#include <cmath>

#include "core/config/train_config.h"
#include "core/run/records.h"

namespace trainscope {

EarlyStopping::EarlyStopping(const EarlyStoppingConfig& config, bool maximize)
    : patience_(config.patience), min_delta_(config.min_delta), maximize_(maximize) {}

bool monitorMaximizes(const std::string& monitor) {
  return monitor == "val_accuracy" || monitor == "val_r2";
}

std::optional<double> monitoredValue(const EpochRecord& r, const std::string& monitor) {
  if (monitor == "val_accuracy") return r.val_accuracy;
  if (monitor == "val_r2") return r.val_r2;
  if (monitor == "val_mae") return r.val_mae;
  if (monitor == "val_rmse") return r.val_rmse;
  return r.val_loss;
}

bool monitorImproves(double value, std::optional<double> best, bool maximize, double min_delta) {
  if (!std::isfinite(value)) return false;
  if (!best) return true;
  return maximize ? value - min_delta > *best : value + min_delta < *best;
}

bool EarlyStopping::update(int64_t epoch, double value) {
  last_epoch_ = epoch;
  improved_ = monitorImproves(value, best_, maximize_, min_delta_);
  if (improved_) {
    best_ = value;
    best_epoch_ = epoch;
    wait_ = 0;
    return false;
  }
  ++wait_;
  return wait_ >= patience_;
}

ValueDict EarlyStopping::stateDict() const {
  ValueDict d;
  d.numbers["best"] = best_ ? *best_ : std::nan("");
  d.numbers["best_epoch"] = static_cast<double>(best_epoch_);
  d.numbers["wait"] = static_cast<double>(wait_);
  d.numbers["last_epoch"] = static_cast<double>(last_epoch_);
  return d;
}

void EarlyStopping::loadStateDict(const ValueDict& d) {
  const double best = d.number("best"), best_epoch = d.number("best_epoch");
  const double wait = d.number("wait"), last = d.number("last_epoch");
  best_.reset();
  if (!std::isnan(best)) best_ = best;
  best_epoch_ = static_cast<int64_t>(best_epoch);
  wait_ = static_cast<int64_t>(wait);
  last_epoch_ = static_cast<int64_t>(last);
  improved_ = false;
}

}  // namespace trainscope

#include "core/train/monitors/early_stopping.h"

#include <cmath>

namespace trainscope {

bool EarlyStopping::update(int64_t epoch, double val_loss) {
  last_epoch_ = epoch;
  improved_ = std::isfinite(val_loss) && (!best_ || val_loss + min_delta_ < *best_);
  if (improved_) {
    best_ = val_loss;
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

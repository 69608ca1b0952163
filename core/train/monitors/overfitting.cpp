#include "core/train/monitors/overfitting.h"

#include <cmath>

namespace trainscope {

std::optional<OverfittingOnset> OverfittingDetector::update(int64_t epoch, double train_loss,
                                                            double val_loss) {
  if (std::isfinite(val_loss) && (!best_ || val_loss < *best_)) {
    best_ = val_loss;
    best_epoch_ = epoch;
    train_at_best_ = train_loss;
    return std::nullopt;
  }
  if (!best_ || reported_best_epoch_ == best_epoch_) return std::nullopt;
  if (epoch - best_epoch_ < patience_ || !(train_loss < train_at_best_)) return std::nullopt;
  reported_best_epoch_ = best_epoch_;
  return OverfittingOnset{best_epoch_, epoch, *best_, val_loss, train_at_best_, train_loss};
}

ValueDict OverfittingDetector::stateDict() const {
  ValueDict d;
  d.numbers["best_val_loss"] = best_ ? *best_ : std::nan("");
  d.numbers["best_epoch"] = static_cast<double>(best_epoch_);
  d.numbers["train_loss_at_best"] = train_at_best_;
  d.numbers["reported_best_epoch"] = static_cast<double>(reported_best_epoch_);
  return d;
}

void OverfittingDetector::loadStateDict(const ValueDict& d) {
  const double best = d.number("best_val_loss"), be = d.number("best_epoch");
  const double tb = d.number("train_loss_at_best"), rb = d.number("reported_best_epoch");
  best_.reset();
  if (!std::isnan(best)) best_ = best;
  best_epoch_ = static_cast<int64_t>(be);
  train_at_best_ = tb;
  reported_best_epoch_ = static_cast<int64_t>(rb);
}

}  // namespace trainscope

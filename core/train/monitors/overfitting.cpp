#include "core/train/monitors/overfitting.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/system/noise.h"

namespace trainscope {

namespace {

double mean(const std::deque<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

}  // namespace

int64_t OverfittingDetector::noiseLag() const {
  return std::min<int64_t>(std::max<int64_t>(kMeanEpochs, 2 * patience_), kMaxNoiseLag);
}

double OverfittingDetector::noise() const {
  const auto lag = static_cast<size_t>(noiseLag());
  std::vector<double> changes;
  for (size_t i = lag; i < val_history_.size(); ++i)
    changes.push_back(val_history_[i] - val_history_[i - lag]);
  return noiseFromChanges(std::move(changes));
}

std::optional<OverfittingOnset> OverfittingDetector::update(int64_t epoch, double train_loss,
                                                            double val_loss) {
  if (std::isfinite(val_loss)) {
    val_history_.push_back(val_loss);
    while (static_cast<int64_t>(val_history_.size()) > kNoiseEpochs + noiseLag())
      val_history_.pop_front();
  }
  recent_val_.push_back(val_loss);
  recent_train_.push_back(train_loss);
  while (static_cast<int>(recent_val_.size()) > kMeanEpochs) {
    recent_val_.pop_front();
    recent_train_.pop_front();
  }
  if (std::isfinite(val_loss) && (!best_ || val_loss < *best_)) {
    best_ = val_loss;
    best_epoch_ = epoch;
    train_at_best_ = train_loss;
    rising_ = 0;
  }
  if (static_cast<int>(recent_val_.size()) < kMeanEpochs) return std::nullopt;
  const double val_mean = mean(recent_val_), train_mean = mean(recent_train_);
  if (!std::isfinite(val_mean)) {
    rising_ = 0;
    return std::nullopt;
  }
  if (!best_mean_ || val_mean < *best_mean_) {
    best_mean_ = val_mean;
    train_mean_at_best_mean_ = train_mean;
    rising_ = 0;
    return std::nullopt;
  }
  // The difference of two means of kMeanEpochs noisy epochs has the standard error
  // sigma * sqrt(2 / kMeanEpochs); the noise is estimated only for a rise that passed 1.1x.
  const auto beyond_noise = [&] {
    const double sigma = judge_noise_ ? noise() : std::nan("");
    return !std::isfinite(sigma) ||
           val_mean - *best_mean_ > kNoiseSigmas * sigma * std::sqrt(2.0 / kMeanEpochs);
  };
  const bool rising = val_mean > kRise * *best_mean_ && train_mean < train_mean_at_best_mean_ &&
                      beyond_noise();
  rising_ = rising ? rising_ + 1 : 0;
  if (!best_ || rising_ < patience_ || reported_best_epoch_ == best_epoch_) return std::nullopt;
  reported_best_epoch_ = best_epoch_;
  OverfittingOnset o;
  o.onset_epoch = best_epoch_;
  o.detected_at = epoch;
  o.best_val_loss = *best_;
  o.val_loss = val_loss;
  o.val_mean = val_mean;
  o.best_val_mean = *best_mean_;
  o.train_loss_at_onset = train_at_best_;
  o.train_loss = train_loss;
  return o;
}

ValueDict OverfittingDetector::stateDict() const {
  ValueDict d;
  d.numbers["best_val_loss"] = best_ ? *best_ : std::nan("");
  d.numbers["best_epoch"] = static_cast<double>(best_epoch_);
  d.numbers["train_loss_at_best"] = train_at_best_;
  d.numbers["reported_best_epoch"] = static_cast<double>(reported_best_epoch_);
  d.numbers["best_val_mean"] = best_mean_ ? *best_mean_ : std::nan("");
  d.numbers["train_mean_at_best_mean"] = train_mean_at_best_mean_;
  d.numbers["rising_epochs"] = static_cast<double>(rising_);
  d.lists["recent_val_loss"] = {recent_val_.begin(), recent_val_.end()};
  d.lists["recent_train_loss"] = {recent_train_.begin(), recent_train_.end()};
  d.lists["val_history"] = {val_history_.begin(), val_history_.end()};
  return d;
}

void OverfittingDetector::loadStateDict(const ValueDict& d) {
  const double best = d.number("best_val_loss"), be = d.number("best_epoch");
  const double tb = d.number("train_loss_at_best"), rb = d.number("reported_best_epoch");
  const auto num = [&d](const char* key, double fallback) {
    auto it = d.numbers.find(key);
    return it == d.numbers.end() ? fallback : it->second;
  };
  const double bm = num("best_val_mean", std::nan("")), tbm = num("train_mean_at_best_mean", 0);
  const double rising = num("rising_epochs", 0);
  std::deque<double> val, train;
  auto v = d.lists.find("recent_val_loss");
  auto t = d.lists.find("recent_train_loss");
  if (v != d.lists.end() && t != d.lists.end() && v->second.size() == t->second.size()) {
    val.assign(v->second.begin(), v->second.end());
    train.assign(t->second.begin(), t->second.end());
  }
  std::deque<double> history;
  if (auto h = d.lists.find("val_history"); h != d.lists.end())
    history.assign(h->second.begin(), h->second.end());
  best_.reset();
  if (!std::isnan(best)) best_ = best;
  best_epoch_ = static_cast<int64_t>(be);
  train_at_best_ = tb;
  reported_best_epoch_ = static_cast<int64_t>(rb);
  best_mean_.reset();
  if (!std::isnan(bm)) best_mean_ = bm;
  train_mean_at_best_mean_ = tbm;
  rising_ = static_cast<int64_t>(rising);
  recent_val_ = std::move(val);
  recent_train_ = std::move(train);
  val_history_ = std::move(history);
  while (static_cast<int64_t>(val_history_.size()) > kNoiseEpochs + noiseLag())
    val_history_.pop_front();
}

}  // namespace trainscope

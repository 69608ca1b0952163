// The scheduler base, the closed forms of the chainable schedulers and the factory. Formulas:
// torch/optim/lr_scheduler.py of PyTorch 1.13 (get_lr and _get_closed_form_lr of each class).
#include "core/optim/schedulers/lr_scheduler.h"

#include <algorithm>
#include <cmath>

#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/optim/schedulers/cosine_annealing_lr.h"
#include "core/optim/schedulers/exponential_lr.h"
#include "core/optim/schedulers/linear_lr.h"
#include "core/optim/schedulers/multi_step_lr.h"
#include "core/optim/schedulers/reduce_lr_on_plateau.h"
#include "core/optim/schedulers/sequential_lr.h"
#include "core/optim/schedulers/step_lr.h"

namespace trainscope {

namespace {
constexpr double kPi = 3.14159265358979323846;  // math.pi
}

ValueDict LrScheduler::stateDict() const {
  ValueDict d;
  d.strings["name"] = name();
  d.lists["base_lrs"] = {base_lr_};
  d.lists["_last_lr"] = {last_lr_};
  d.numbers["last_epoch"] = static_cast<double>(last_epoch_);
  return d;
}

void LrScheduler::loadStateDict(const ValueDict& d) {
  if (d.string("name") != name())
    throw std::out_of_range("a " + d.string("name") + " state, this run's scheduler is " + name());
  const auto& base = d.list("base_lrs");
  const auto& last = d.list("_last_lr");
  const double epoch = d.number("last_epoch");
  if (base.size() != 1 || last.size() != 1)
    throw std::out_of_range("'base_lrs'/'_last_lr' must hold one learning rate");
  base_lr_ = base[0];
  last_lr_ = last[0];
  last_epoch_ = static_cast<int64_t>(epoch);
}

double StepLR::closedForm() const {
  return base_lr_ * std::pow(gamma_, static_cast<double>(last_epoch_ / step_size_));
}

MultiStepLR::MultiStepLR(double base_lr, std::vector<int64_t> milestones, double gamma)
    : milestones_(std::move(milestones)), gamma_(gamma) {
  std::sort(milestones_.begin(), milestones_.end());
  base_lr_ = last_lr_ = base_lr;
}

double MultiStepLR::chainable() const {
  const auto n = std::count(milestones_.begin(), milestones_.end(), last_epoch_);
  if (n == 0) return last_lr_;
  return last_lr_ * std::pow(gamma_, static_cast<double>(n));
}

double MultiStepLR::closedForm() const {  // bisect_right(milestones, last_epoch)
  const auto k =
      std::upper_bound(milestones_.begin(), milestones_.end(), last_epoch_) - milestones_.begin();
  return base_lr_ * std::pow(gamma_, static_cast<double>(k));
}

double ExponentialLR::closedForm() const {
  return base_lr_ * std::pow(gamma_, static_cast<double>(last_epoch_));
}

double CosineAnnealingLR::chainable() const {
  const double t = static_cast<double>(t_max_), e = static_cast<double>(last_epoch_);
  if (last_epoch_ == 0) return last_lr_;
  const int64_t period = 2 * t_max_;
  const int64_t m = ((last_epoch_ - 1 - t_max_) % period + period) % period;  // Python's %
  if (m == 0) return last_lr_ + (base_lr_ - eta_min_) * (1 - std::cos(kPi / t)) / 2;
  return (1 + std::cos(kPi * e / t)) / (1 + std::cos(kPi * (e - 1) / t)) * (last_lr_ - eta_min_) +
         eta_min_;
}

double CosineAnnealingLR::closedForm() const {
  return eta_min_ + (base_lr_ - eta_min_) *
                        (1 + std::cos(kPi * static_cast<double>(last_epoch_) / t_max_)) / 2;
}

double LinearLR::chainable() const {
  if (last_epoch_ == 0) return last_lr_ * start_;
  if (last_epoch_ > total_) return last_lr_;
  return last_lr_ *
         (1. + (end_ - start_) / (total_ * start_ + (last_epoch_ - 1) * (end_ - start_)));
}

double LinearLR::closedForm() const {
  return base_lr_ *
         (start_ + (end_ - start_) * static_cast<double>(std::min(total_, last_epoch_)) / total_);
}

// ---- ReduceLROnPlateau ----

ReduceLROnPlateau::ReduceLROnPlateau(double base_lr, const SchedulerConfig& c)
    : max_mode_(c.mode == "max"),
      rel_(c.threshold_mode == "rel"),
      factor_(c.factor),
      threshold_(c.threshold),
      min_lr_(c.min_lr),
      patience_(c.patience),
      cooldown_(c.cooldown) {
  base_lr_ = last_lr_ = base_lr;
  restart();
}

void ReduceLROnPlateau::restart() {
  best_ = max_mode_ ? -INFINITY : INFINITY;  // Python's mode_worse
  num_bad_epochs_ = 0;
  cooldown_counter_ = 0;
  last_epoch_ = 0;
  last_lr_ = base_lr_;
}

bool ReduceLROnPlateau::isBetter(double a) const {
  if (!max_mode_) return rel_ ? a < best_ * (1. - threshold_) : a < best_ - threshold_;
  return rel_ ? a > best_ * (threshold_ + 1.) : a > best_ + threshold_;
}

double ReduceLROnPlateau::step(double metric) {
  ++last_epoch_;
  if (isBetter(metric)) {
    best_ = metric;
    num_bad_epochs_ = 0;
  } else {
    ++num_bad_epochs_;
  }
  if (cooldown_counter_ > 0) {  // in_cooldown
    --cooldown_counter_;
    num_bad_epochs_ = 0;
  }
  if (num_bad_epochs_ > patience_) {
    const double new_lr = std::max(last_lr_ * factor_, min_lr_);
    if (last_lr_ - new_lr > 1e-8) last_lr_ = new_lr;  // eps
    cooldown_counter_ = cooldown_;
    num_bad_epochs_ = 0;
  }
  return last_lr_;
}

double ReduceLROnPlateau::rescale(double base_lr) {
  last_lr_ = std::max(last_lr_ * (base_lr / base_lr_), min_lr_);
  base_lr_ = base_lr;
  return last_lr_;
}

ValueDict ReduceLROnPlateau::stateDict() const {
  ValueDict d = LrScheduler::stateDict();
  d.numbers["best"] = best_;
  d.numbers["num_bad_epochs"] = static_cast<double>(num_bad_epochs_);
  d.numbers["cooldown_counter"] = static_cast<double>(cooldown_counter_);
  return d;
}

void ReduceLROnPlateau::loadStateDict(const ValueDict& d) {
  const double best = d.number("best");
  const double bad = d.number("num_bad_epochs"), cool = d.number("cooldown_counter");
  LrScheduler::loadStateDict(d);
  best_ = best;
  num_bad_epochs_ = static_cast<int64_t>(bad);
  cooldown_counter_ = static_cast<int64_t>(cool);
}

// ---- SequentialLR (warm-up) ----

SequentialLR::SequentialLR(double base_lr, double start_factor, int64_t warmup_epochs,
                           std::unique_ptr<LrScheduler> main)
    : milestone_(warmup_epochs),
      warmup_(base_lr, start_factor, 1.0, warmup_epochs),
      main_(std::move(main)) {
  base_lr_ = base_lr;
  last_lr_ = warmup_.lr();
}

double SequentialLR::step(double metric) {
  ++last_epoch_;
  if (last_epoch_ < milestone_) {
    last_lr_ = warmup_.step(metric);
  } else if (last_epoch_ == milestone_) {
    if (auto* c = dynamic_cast<ChainableLrScheduler*>(main_.get())) {
      c->stepTo(0);
    } else {
      static_cast<ReduceLROnPlateau&>(*main_).restart();
    }
    last_lr_ = main_->lr();
  } else {
    last_lr_ = main_->step(metric);
  }
  return last_lr_;
}

double SequentialLR::rescale(double base_lr) {
  base_lr_ = base_lr;
  const double w = warmup_.rescale(base_lr);
  const double m = main_->rescale(base_lr);
  last_lr_ = last_epoch_ < milestone_ ? w : m;
  return last_lr_;
}

ValueDict SequentialLR::stateDict() const {
  ValueDict d = LrScheduler::stateDict();
  // The children's dicts, flattened under their prefixes (Python keeps them in _schedulers).
  for (const auto& [prefix, s] :
       {std::pair<std::string, const LrScheduler*>{"warmup.", &warmup_}, {"main.", main_.get()}}) {
    const ValueDict c = s->stateDict();
    for (const auto& [k, v] : c.numbers) d.numbers[prefix + k] = v;
    for (const auto& [k, v] : c.lists) d.lists[prefix + k] = v;
    for (const auto& [k, v] : c.strings) d.strings[prefix + k] = v;
  }
  return d;
}

void SequentialLR::loadStateDict(const ValueDict& d) {
  auto child = [&](const std::string& prefix) {
    ValueDict c;
    auto take = [&](const auto& from, auto& to) {
      for (const auto& [k, v] : from)
        if (k.rfind(prefix, 0) == 0) to[k.substr(prefix.size())] = v;
    };
    take(d.numbers, c.numbers);
    take(d.lists, c.lists);
    take(d.strings, c.strings);
    return c;
  };
  const ValueDict w = child("warmup."), m = child("main.");
  // Loaded into copies first, so a bad dict leaves this scheduler untouched.
  LinearLR warmup = warmup_;
  warmup.loadStateDict(w);
  ValueDict main_before = main_->stateDict();
  LrScheduler::loadStateDict(d);
  try {
    main_->loadStateDict(m);
  } catch (...) {
    main_->loadStateDict(main_before);
    throw;
  }
  warmup_ = warmup;
}

// ---- factory ----

std::unique_ptr<LrScheduler> makeScheduler(const SchedulerConfig& c, double base_lr) {
  std::unique_ptr<LrScheduler> main;
  if (c.name == "none") {
    if (c.warmup_epochs == 0) return nullptr;
    main = std::make_unique<ConstantSchedule>(base_lr);
  } else if (c.name == "StepLR") {
    main = std::make_unique<StepLR>(base_lr, c.step_size, c.gamma);
  } else if (c.name == "MultiStepLR") {
    main = std::make_unique<MultiStepLR>(base_lr, c.milestones, c.gamma);
  } else if (c.name == "ExponentialLR") {
    main = std::make_unique<ExponentialLR>(base_lr, c.gamma);
  } else if (c.name == "CosineAnnealingLR") {
    main = std::make_unique<CosineAnnealingLR>(base_lr, c.T_max, c.eta_min);
  } else if (c.name == "ReduceLROnPlateau") {
    main = std::make_unique<ReduceLROnPlateau>(base_lr, c);
  } else {
    throw Error(ErrorCode::Config, "scheduler.name", "unknown scheduler.name '" + c.name + "'");
  }
  if (c.warmup_epochs == 0) return main;
  return std::make_unique<SequentialLR>(base_lr, c.warmup_start_factor, c.warmup_epochs,
                                        std::move(main));
}

}  // namespace trainscope

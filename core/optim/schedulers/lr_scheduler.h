#pragma once
/// Learning-rate schedulers stepped once per epoch, after validation (ARCHITECTURE §3), with
/// the names and semantics of Python's torch.optim.lr_scheduler (PyTorch 1.13). Our own, not
/// libtorch's: libtorch 1.13's C++ StepLR counts steps differently from Python's. Torch-free:
/// a scheduler computes learning rates; the Trainer writes them into the optimizer.
/// TrainScope's optimizers have one parameter group, so a scheduler tracks one learning rate.
#include <cstdint>
#include <memory>
#include <string>

#include "core/config/config_fwd.h"
#include "core/io/value_dict.h"

namespace trainscope {

/// Base of every scheduler: Python's _LRScheduler state (base_lrs, last_epoch, _last_lr).
/// After construction last_epoch is 0 and lr() is the learning rate of the first epoch, as
/// after Python's constructor (its _initial_step).
class LrScheduler {
 public:
  virtual ~LrScheduler() = default;
  /// PyTorch's class name ("StepLR", "SequentialLR", ...).
  virtual std::string name() const = 0;
  /// One epoch-end step (Python's scheduler.step(); ReduceLROnPlateau's step(metrics) with
  /// `metric` = the validation loss, ignored by the others). Returns the new lr().
  virtual double step(double metric) = 0;
  /// A live learning-rate change: the schedule continues as if the run had started with
  /// optimizer.lr = `base_lr` (closed-form schedules are re-evaluated at last_epoch; plateau
  /// reductions keep their factor). Returns the new lr().
  virtual double rescale(double base_lr) = 0;
  /// The learning rate the next epoch uses (Python's get_last_lr()[0]).
  double lr() const { return last_lr_; }
  double baseLr() const { return base_lr_; }
  int64_t lastEpoch() const { return last_epoch_; }
  /// base_lr, last_epoch, last_lr and the scheduler's own counters (Python's state_dict()
  /// names where they exist: "last_epoch", "_last_lr", "base_lrs", "best", "num_bad_epochs",
  /// "cooldown_counter").
  virtual ValueDict stateDict() const;
  /// Restores stateDict(). Throws std::out_of_range naming a missing key.
  virtual void loadStateDict(const ValueDict& d);

 protected:
  double base_lr_ = 0;
  double last_lr_ = 0;
  int64_t last_epoch_ = 0;
};

/// A scheduler with Python's chainable get_lr() (used by step()) and _get_closed_form_lr()
/// (used by step(epoch), as SequentialLR does at a milestone, and by rescale()).
class ChainableLrScheduler : public LrScheduler {
 public:
  double step(double) override {
    ++last_epoch_;
    last_lr_ = chainable();
    return last_lr_;
  }
  /// Python's step(epoch): last_epoch = epoch, lr = the closed form.
  void stepTo(int64_t epoch) {
    last_epoch_ = epoch;
    last_lr_ = closedForm();
  }
  double rescale(double base_lr) override {
    base_lr_ = base_lr;
    last_lr_ = closedForm();
    return last_lr_;
  }
  /// get_lr(): the next lr from the current one (last_lr_ is the optimizer's group['lr']).
  virtual double chainable() const = 0;
  /// _get_closed_form_lr(): the lr at last_epoch from base_lr alone.
  virtual double closedForm() const = 0;
};

/// The scheduler of `config` for an optimizer whose initial lr is `base_lr`; nullptr for
/// scheduler.name "none" without warm-up. With scheduler.warmup_epochs W > 0 the result is a
/// SequentialLR of LinearLR(start_factor = warmup_start_factor, total_iters = W) and the named
/// scheduler with milestones [W] (Python's SequentialLR: at epoch W the named scheduler starts
/// from base_lr at its epoch 0). ReduceLROnPlateau cannot be chained in Python; here it starts
/// at epoch W with base_lr and sees the validation losses of the epochs after W. Throws
/// Error(Config, "scheduler.name") for an unknown name.
std::unique_ptr<LrScheduler> makeScheduler(const SchedulerConfig& config, double base_lr);

}  // namespace trainscope

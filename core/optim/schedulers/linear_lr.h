#pragma once
/// torch.optim.lr_scheduler.LinearLR (the warm-up in front of scheduler.name):
/// lr = base_lr * (start_factor + (end_factor - start_factor) * min(epoch, total_iters) /
/// total_iters).
#include "core/optim/schedulers/lr_scheduler.h"

namespace trainscope {

/// Python's LinearLR(optimizer, start_factor, end_factor, total_iters), chainable as in Python.
class LinearLR final : public ChainableLrScheduler {
 public:
  LinearLR(double base_lr, double start_factor, double end_factor, int64_t total_iters)
      : start_(start_factor), end_(end_factor), total_(total_iters) {
    base_lr_ = base_lr;
    last_lr_ = base_lr * start_factor;  // Python's _initial_step at epoch 0
  }
  std::string name() const override { return "LinearLR"; }
  double chainable() const override;
  double closedForm() const override;

 private:
  double start_, end_;
  int64_t total_;
};

/// The main schedule for scheduler.name "none" behind a warm-up: the lr stays base_lr.
class ConstantSchedule final : public ChainableLrScheduler {
 public:
  explicit ConstantSchedule(double base_lr) { base_lr_ = last_lr_ = base_lr; }
  std::string name() const override { return "none"; }
  double chainable() const override { return last_lr_; }
  double closedForm() const override { return base_lr_; }
};

}  // namespace trainscope

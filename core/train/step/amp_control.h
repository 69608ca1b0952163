#pragma once
/// Switching mixed precision on a TrainState, and the watch over GradScaler skips. Internal to
/// core (torch types).
#include <cstdint>
#include <string>

#include "core/run/records.h"
#include "core/train/state/train_state.h"

namespace trainscope {

/// Sets state.amp; on CUDA creates the GradScaler the first time AMP is switched on (its state
/// is kept while AMP is off, like a disabled torch.amp.GradScaler keeps nothing but ours is
/// resumed). On CPU no scaler: bf16 has float32's exponent range.
void setAmp(TrainState& state, bool enabled);

/// "bf16 autocast" (CPU) | "fp16 autocast with loss scaling" (CUDA): what AMP does on `state`.
std::string describeAmp(const TrainState& state);

/// The "config_changed" event of an AMP toggle (what "training.amp", value 1/0).
Event ampChangedEvent(const TrainState& state, bool enabled, int64_t epoch);

/// Counts GradScaler skips in a row. A skipped step (inf/NaN gradient, finite loss) is normal
/// fp16 behaviour: the scale backs off and training goes on. Only kMaxInARow skips in a row (the
/// scale has fallen by 2^20) are treated as a non-finite gradient.
class ScalerSkipWatch {
 public:
  static constexpr int kMaxInARow = 20;
  /// Call after every step; returns true when the run must apply its non-finite policy.
  bool onStep(bool scaler_skipped) {
    in_a_row_ = scaler_skipped ? in_a_row_ + 1 : 0;
    return in_a_row_ >= kMaxInARow;
  }
  int inARow() const { return in_a_row_; }

 private:
  int in_a_row_ = 0;
};

/// The "non_finite" event after kMaxInARow skips in a row (what "grad_norm").
Event scalerSkipsEvent(double loss_scale, int64_t step, int64_t epoch, const std::string& policy);

}  // namespace trainscope

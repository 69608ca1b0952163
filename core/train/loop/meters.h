#pragma once
/// Meters that accumulate per-batch values into per-epoch values. Torch-free.
#include <cmath>
#include <cstdint>

namespace trainscope {

/// Sample-weighted mean: add(batch mean, batch size) per batch; mean() = sum(value * n) / sum(n)
/// (what Keras and Lightning report as the epoch's training loss). Non-finite values are kept:
/// one makes the mean non-finite, which is what happened.
class AverageMeter {
 public:
  /// Adds a batch whose mean is `value` over `samples` samples.
  void add(double value, int64_t samples) {
    sum_ += value * static_cast<double>(samples);
    count_ += samples;
  }
  /// The weighted mean so far; NaN before any sample.
  double mean() const { return count_ > 0 ? sum_ / static_cast<double>(count_) : std::nan(""); }
  /// Samples added so far.
  int64_t count() const { return count_; }
  /// sum(value * n) so far (saved in checkpoints with count(), so a resumed epoch's mean is
  /// exactly the uninterrupted one's).
  double sum() const { return sum_; }
  /// A meter holding `sum` over `count` samples (from a checkpoint).
  static AverageMeter restored(double sum, int64_t count) {
    AverageMeter m;
    m.sum_ = sum;
    m.count_ = count;
    return m;
  }
  void reset() { *this = AverageMeter(); }

 private:
  double sum_ = 0;
  int64_t count_ = 0;
};

}  // namespace trainscope

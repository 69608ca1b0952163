#pragma once
/// The loss doctor (issue 11): reads a run's losses as it goes and classifies its behaviour into
/// the three kinds of "the loss will not go down" — (a) diverging / huge / non-finite, (b) flat
/// from the start, (c) falls then stalls at a plateau — plus "overfitting" and "healthy", each
/// with its evidence (the run's numbers) and the checks to make, in order. Pure logic,
/// torch-free, so tests script synthetic runs.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/train/records.h"

namespace trainscope {

/// What the doctor cannot see in the losses: the run's clipping, so that its checks fit the run
/// (no "turn on clipping" when it is on; a flat loss under clipping that cuts every update is
/// named as such).
struct DoctorContext {
  bool clip_enabled = false;
  double clip_share_recent = 0;  ///< ClipStats::shareRecent(): clipped share of the last 100
  int64_t clip_steps_recent = 0;  ///< how many steps that share is over
};

class LossDoctor {
 public:
  static constexpr int kInitialSteps = 10;            ///< the initial loss: mean of the first steps
  static constexpr double kDivergeFactor = 10;        ///< train loss > 10x initial: diverging
  static constexpr double kFlatFraction = 0.9;        ///< best train loss >= 90% of initial: flat
  static constexpr double kStallChange = 0.01;        ///< < 1% better over the last third: stalled
  static constexpr double kConvergedFraction = 0.05;  ///< stalled below 5% of initial: healthy
  static constexpr double kOverfitRise = 1.1;         ///< val loss 10% above its best ...
  static constexpr int kOverfitEpochs = 3;            ///< ... best at least 3 epochs ago
  static constexpr double kClipBoundShare = 0.9;      ///< flat under clipping on > 90% of steps

  /// Every step, in order (skipped steps too).
  void onStep(double loss, bool applied);
  /// Every completed epoch, in order.
  void onEpoch(const EpochRecord& r);
  /// A finite divergence was detected (DivergenceMonitor).
  void onDiverged() { diverged_ = true; }

  /// The reading now. Rules, first match wins: "diverging" when a step was non-finite, a
  /// divergence was detected, or an epoch's training loss exceeds 10x the initial loss (mean
  /// of the first 10 finite step losses); "too_early" before 3 epochs; "overfitting" when the
  /// mean validation loss of the last 3 epochs is 10% above the minimum, reached at least 3
  /// epochs ago, while the training loss (same mean) is below its value at that minimum; "flat"
  /// when the best epoch training loss is still >= 90% of the initial loss; "plateau" when the
  /// training loss improved by < 1% over the last third of the epochs (at least 3) and is still >=
  /// 5% of the initial loss; else "healthy". Evidence and checks are Findings (codes in
  /// core/train/watch_records.h). With `context.clip_enabled`, "diverging" suggests lowering
  /// max_norm instead of turning clipping on; "flat" while over 90% of the recent steps were
  /// clipped names the clip share and puts "clip_bound" (updates cut to lr x max_norm) first.
  Diagnosis diagnose(const DoctorContext& context = {}) const;

 private:
  std::vector<double> first_losses_;
  int64_t steps_ = 0, non_finite_steps_ = 0, first_non_finite_step_ = 0;
  double first_non_finite_loss_ = 0;
  bool diverged_ = false;
  std::vector<EpochRecord> epochs_;
};

}  // namespace trainscope

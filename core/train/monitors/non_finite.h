#pragma once
/// Non-finite forensics and finite divergence. Pure logic, torch-free: the engine
/// collects the evidence (core/train/step/layer_stats.h) and these functions word it and decide.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/run/records.h"

namespace trainscope {

/// The settings of a run that likely causes are built from (its actual settings, so that no
/// hint says "clipping is off" when it is on).
struct CauseSettings {
  std::string optimizer;  ///< "sgd" | "adam" | "adamw"
  double lr = 0;          ///< learning rate in force at the step
  bool clip_enabled = false;
  double max_norm = 0;
  bool standardize = true;
  double target_scale = 1;  ///< data.target_scale (regression)
  bool classification = false;
};

/// What was seen on the step whose loss or gradient was not finite.
struct NonFiniteEvidence {
  int64_t step = 0, epoch = 0;
  double loss = 0;       ///< the batch loss (may be inf / nan)
  double grad_norm = 0;  ///< total norm before clipping (may be inf / nan)
  double lr = 0;
  /// Parameter tensors whose gradient norm is not finite, in state_dict order (name, norm);
  /// when none is, the tensor with the largest gradient norm.
  std::vector<std::pair<std::string, double>> layers;
  bool layers_non_finite = false;  ///< `layers` lists non-finite gradients (else: the largest)
};

/// Likely causes, most likely first, from the run's settings and what went non-finite (codes:
/// Finding in core/run/watch_records.h).
std::vector<Finding> likelyCauses(const CauseSettings& settings, bool gradient_non_finite);

/// The "non_finite" event: what ("loss" or "grad_norm") and value, then a message with the
/// step, epoch, loss, total norm, learning rate, the layer(s), the likely causes and `policy`.
Event nonFiniteForensicsEvent(const NonFiniteEvidence& evidence, const CauseSettings& settings,
                              const std::string& policy);

/// Finite divergence, checked at each epoch end: an epoch's training loss above 1e4 x the first
/// epoch's, or (classification) validation accuracy within 2 points of chance (the
/// majority-class share when known, else 1 / classes) for 3 or more consecutive epochs, counting
/// epochs 3 and later only (so the earliest is epoch 5), while the training loss is above
/// 1.5 x ln C (a constant uniform prediction does far better) and not below its value at the
/// streak's first epoch: a run at chance whose loss falls is learning, however slowly, not
/// diverging. Each criterion is reported when it starts to hold (again after it stopped
/// holding).
class DivergenceMonitor {
 public:
  static constexpr double kLossFactor = 1e4;
  static constexpr double kChanceMargin = 0.02;
  static constexpr int kChanceEpochs = 3;
  static constexpr int64_t kFirstChanceEpoch = 3;
  static constexpr double kChanceLossFactor = 1.5;  ///< at chance: train loss > 1.5 x ln C

  /// `n_classes`: 0 for regression. `chance_accuracy`: the majority-class share of the
  /// validation split (ChanceLevels::accuracy); 0: 1 / n_classes.
  explicit DivergenceMonitor(int64_t n_classes, double chance_accuracy = 0)
      : n_classes_(n_classes), chance_accuracy_(chance_accuracy) {}
  /// The "diverged" event for epoch `r`, or nullopt. Non-finite losses are left to the
  /// per-step check.
  std::optional<Event> onEpoch(const EpochRecord& r, const CauseSettings& settings,
                               const std::string& policy);

 private:
  int64_t n_classes_;
  double chance_accuracy_;
  std::optional<double> first_loss_;
  bool loss_flagged_ = false;
  int chance_streak_ = 0;
  double streak_first_loss_ = 0;  ///< training loss at the streak's first epoch
  bool chance_flagged_ = false;   ///< the streak was reported
};

}  // namespace trainscope

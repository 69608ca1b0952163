#pragma once
/// The distributions reading of a run (issue 49 §4): every training.distributions_every steps
/// the percentiles and histograms of each parameter's weights and gradient and of each
/// activation layer over the first validation samples (core/train/step/distributions.h), to
/// the observers (the Distributions view) and the TensorBoard file (histograms). Include only
/// from core/train/loop.
#include <memory>

#include "core/train/loop/trainer_part.h"

namespace trainscope {

class RunFilesPart;

class DistributionsPart : public TrainerPart {
 public:
  /// Validation samples whose activations are described (the first ones of the split): 256,
  /// fewer where the largest activation layer would give more than kMaxDescribedValues values
  /// (a CNN's first feature maps: 32 x 28 x 28 a sample give 10), at least 8.
  static constexpr int64_t kActivationSamples = 256;

  /// training.distributions_every null: the first reading's step of the run, and the interval.
  static constexpr int64_t kDefaultFirstStep = 10;
  static constexpr int64_t kDefaultEvery = 500;

  /// `every` = training.distributions_every (> 0, or 0 for the default cadence); records go to
  /// the observers when `to_observers`, to `files` (may be null) as TensorBoard histograms.
  DistributionsPart(PartHost& host, int64_t every, bool to_observers, RunFilesPart* files);
  void onRunStart() override;
  void onStepEnd(const StepResult& s, int64_t epoch) override;
  /// The default cadence: a reading at the end of the run's last epoch too (when the step had
  /// none), so a short run shows where its distributions ended.
  void onEpochEnd(const EpochEnd& end) override;
  /// The interval in force.
  int64_t every() const { return every_; }

 private:
  /// One reading to the files and the observers.
  void read(int64_t step, int64_t epoch);
  PartHost& host_;
  int64_t every_;
  bool default_cadence_;
  int64_t start_step_ = 0;  ///< the global step at the run's start (a resume: its checkpoint's)
  bool to_observers_;
  RunFilesPart* files_;
  int64_t last_read_ = -1;  ///< the step of the last reading
  at::Tensor batch_;  ///< the activation samples, model-ready, on the model's device
  bool batch_taken_ = false;
};

}  // namespace trainscope

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
  /// (a CNN's first feature maps: 32 x 28 x 28 a sample give 41), at least 8.
  static constexpr int64_t kActivationSamples = 256;

  /// `every` = training.distributions_every (> 0); records go to the observers when
  /// `to_observers`, to `files` (may be null) as TensorBoard histograms.
  DistributionsPart(PartHost& host, int64_t every, bool to_observers, RunFilesPart* files);
  void onStepEnd(const StepResult& s, int64_t epoch) override;

 private:
  PartHost& host_;
  int64_t every_;
  bool to_observers_;
  RunFilesPart* files_;
  at::Tensor batch_;  ///< the activation samples, model-ready, on the model's device
  bool batch_taken_ = false;
};

}  // namespace trainscope

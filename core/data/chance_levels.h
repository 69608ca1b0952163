#pragma once
/// The chance levels of a run's data (computed by core/data/chance.h, read by the loss doctor
/// and the divergence check). Torch-free.
#include <cstdint>

namespace trainscope {

/// What a model that ignores its inputs achieves on the run's data, so that the loss doctor and
/// the divergence check judge a run against chance, not only against its own first steps
/// (core/data/chance.h computes it from the data).
struct ChanceLevels {
  bool known = false;  ///< false: nothing is judged against chance (older callers, tests)
  bool classification = false;
  int64_t n_classes = 0;  ///< classification: C
  /// The loss of a constant prediction: ln C for C-class cross-entropy (the uniform
  /// prediction), the variance of the training targets for MSE (predicting their mean).
  double loss = 0;
  double accuracy = 0;  ///< classification: the majority-class share of the validation split
  int64_t n_val = 0;    ///< validation samples (the margin of "accuracy at chance")
  /// Classification: the cross-entropy on the validation labels of predicting the training
  /// split's class shares (<= ln C, lower for imbalanced classes): the lowest loss a model that
  /// ignores its inputs reaches; 0 when not known.
  double prior_loss = 0;
};

}  // namespace trainscope

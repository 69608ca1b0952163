#pragma once
/// Chance levels of a prepared dataset: what a model that ignores its inputs
/// achieves, for the loss doctor and the divergence check.
#include "core/data/dataset.h"
#include "core/data/chance_levels.h"

namespace trainscope {

/// Classification: loss ln C (C = summary.n_classes; the cross-entropy of the uniform
/// prediction) and accuracy the share of the most frequent class among the validation labels
/// (the training labels when there is no validation split). Regression: loss the population
/// variance of the training targets (mean over samples and outputs of (y - mean)^2: the MSE of
/// predicting the training mean). `known` is false when the split it needs is empty.
ChanceLevels chanceLevels(const PreparedData& data);

}  // namespace trainscope

#include "core/data/class_balance.h"

#include <ATen/ATen.h>

#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/system/number_format.h"

namespace trainscope {

std::vector<double> classWeights(const ClassWeights& cw, const at::Tensor& y, int64_t n_classes,
                                 bool classification) {
  if (cw.mode == "none") return {};
  if (!classification)
    throw Error(ErrorCode::Config, "training.class_weights",
                "training.class_weights weighs classes, but this data is a regression task; "
                "set it to \"none\"");
  if (cw.mode == "list") {
    if (static_cast<int64_t>(cw.weights.size()) != n_classes)
      throw Error(ErrorCode::Config, "training.class_weights",
                  "training.class_weights has " + std::to_string(cw.weights.size()) +
                      " weights but the data has " + std::to_string(n_classes) +
                      " classes: give one weight per class, in class order");
    return cw.weights;
  }
  const at::Tensor counts = at::bincount(y.to(at::kCPU), {}, n_classes).to(at::kDouble);
  const int64_t n = y.size(0);
  std::vector<double> out;
  for (int64_t c = 0; c < n_classes; ++c) {
    const double count = counts[c].item<double>();
    if (count == 0)
      throw Error(ErrorCode::Config, "training.class_weights",
                  "training.class_weights is \"balanced\" but class " + std::to_string(c) +
                      " has no training sample: its weight n / (classes x 0) is undefined");
    out.push_back(static_cast<double>(n) / (static_cast<double>(n_classes) * count));
  }
  return out;
}

at::Tensor classWeightTensor(const std::vector<double>& weights) {
  return at::tensor(weights, at::kDouble).to(at::kFloat);
}

at::Tensor balancedSampleWeights(const at::Tensor& y, int64_t n_classes, bool classification) {
  if (!classification)
    throw Error(ErrorCode::Config, "data.sampler",
                "data.sampler \"weighted\" draws classes equally often, but this data is a "
                "regression task; use \"random\"");
  const at::Tensor labels = y.to(at::kCPU);
  const at::Tensor counts = at::bincount(labels, {}, n_classes).to(at::kDouble);
  return counts.reciprocal().index_select(0, labels);
}

}  // namespace trainscope

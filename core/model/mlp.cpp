#include "core/model/mlp.h"

#include <torch/nn/modules/linear.h>

#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/model/sequential_model.h"

namespace trainscope {

std::shared_ptr<Model> buildMlp(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& /*image_shape*/, int64_t outputs) {
  int64_t width = 1;
  for (int64_t d : input_shape) width *= d;
  torch::nn::Sequential seq;
  if (input_shape.size() > 1) seq->push_back(torch::nn::Flatten());
  pushLinearLayers(seq, width, config.hidden, config.activation, config.dropout, outputs);
  return std::make_shared<SequentialModel>("mlp", seq);
}

ModelFootprint mlpKindFootprint(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& /*image_shape*/, int64_t outputs) {
  int64_t inputs = 1;
  for (int64_t d : input_shape) inputs *= d;
  std::vector<int64_t> widths{inputs};
  widths.insert(widths.end(), config.hidden.begin(), config.hidden.end());
  widths.push_back(outputs);
  return mlpFootprint(widths);
}

}  // namespace trainscope

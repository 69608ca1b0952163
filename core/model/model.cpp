#include "core/model/model.h"

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/model/max_pool.h"

namespace trainscope {

std::pair<at::Tensor, at::Tensor> Model::camForward(const at::Tensor& /*input*/) {
  throw Error(ErrorCode::Config, "model.kind",
              "Grad-CAM needs a convolution layer; this model (" + kind() + ") has none");
}

int64_t countParameters(const Model& model, bool trainable) {
  int64_t n = 0;
  for (const auto& p : model.parameters())
    if (p.requires_grad() == trainable) n += p.numel();
  return n;
}

std::vector<at::Tensor> stateTensors(const Model& model) {
  std::vector<at::Tensor> out;
  for (auto& [name, t] : model.state_dict()) out.push_back(std::move(t));
  return out;
}

ModelPtr buildModel(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                    int64_t outputs, const std::vector<int64_t>& image_shape) {
  installFastMaxPool();  // every model's max pooling, TorchScript's included
  return modelKind(config.kind).build(config, input_shape, image_shape, outputs);
}

ModelPtr buildModel(const ModelConfig& config, const DataSummary& data) {
  return buildModel(config, data.input_shape, data.outputs, data.image_shape);
}

ModelPtr buildModel(const ModelConfig& config, int64_t in_features, int64_t outputs) {
  return buildModel(config, std::vector<int64_t>{in_features}, outputs);
}

}  // namespace trainscope

#include "core/model/model.h"

#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>

#include "core/errors.h"
#include "core/io/number_format.h"

namespace trainscope {

torch::nn::Sequential buildModel(const ModelConfig& config, int64_t in_features,
                                 int64_t out_features) {
  if (config.kind != "mlp")
    throw Error(ErrorCode::Config, "model.kind", "unknown model.kind '" + config.kind + "'");
  torch::nn::Sequential seq;
  int64_t width = in_features;
  for (int64_t h : config.hidden) {
    seq->push_back(torch::nn::Linear(width, h));
    if (config.activation == "relu") {
      seq->push_back(torch::nn::ReLU());
    } else if (config.activation == "tanh") {
      seq->push_back(torch::nn::Tanh());
    } else if (config.activation == "gelu") {
      seq->push_back(torch::nn::GELU());
    } else if (config.activation == "sigmoid") {
      seq->push_back(torch::nn::Sigmoid());
    } else {
      throw Error(ErrorCode::Config, "model.activation",
                  "unknown model.activation '" + config.activation + "'");
    }
    if (config.dropout > 0) seq->push_back(torch::nn::Dropout(config.dropout));
    width = h;
  }
  seq->push_back(torch::nn::Linear(width, out_features));
  return seq;
}

ModelSummary summarizeModel(const torch::nn::Sequential& model) {
  ModelSummary s;
  for (const auto& child : model->children()) {
    std::string part;
    if (auto* lin = child->as<torch::nn::Linear>()) {
      part = "Linear(" + std::to_string(lin->options.in_features()) + "->" +
             std::to_string(lin->options.out_features()) + ")";
    } else if (auto* drop = child->as<torch::nn::Dropout>()) {
      // %g's six significant digits, in the "C" locale whatever the process locale.
      part = "Dropout(" + formatSignificant(drop->options.p(), 6) + ")";
    } else {
      part = child->name();
      if (part.size() > 4 && part.compare(part.size() - 4, 4, "Impl") == 0)
        part = part.substr(0, part.size() - 4);
      auto colon = part.rfind("::");
      if (colon != std::string::npos) part = part.substr(colon + 2);
    }
    s.description += (s.description.empty() ? "" : " ") + part;
  }
  for (const auto& p : model->parameters())
    if (p.requires_grad()) s.parameter_count += p.numel();
  return s;
}

}  // namespace trainscope

// The layers of an mlp, cnn or rnn model as an export writes them.
#include "core/export/export_plan.h"

#include <ATen/ATen.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/pooling.h>

#include "core/config/train_config.h"
#include "core/data/data_summary.h"
#include "core/errors.h"
#include "core/model/model.h"
#include "core/model/sequential_model.h"

namespace trainscope {

namespace {

std::vector<int64_t> pair2(torch::ExpandingArray<2> a) { return {(*a)[0], (*a)[1]}; }

/// The tensors of `model`'s state_dict under `prefix` + ".", by their own names.
std::vector<std::pair<std::string, at::Tensor>> ownTensors(const NamedTensors& state,
                                                           const std::string& prefix) {
  std::vector<std::pair<std::string, at::Tensor>> out;
  const std::string head = prefix + ".";
  for (const auto& [name, t] : state)
    if (name.rfind(head, 0) == 0 && name.find("num_batches_tracked") == std::string::npos)
      out.emplace_back(name.substr(head.size()), t.detach().to(at::kCPU, at::kFloat).contiguous());
  return out;
}

ExportLayer fromChild(const std::string& name, const std::shared_ptr<torch::nn::Module>& child,
                      const NamedTensors& state) {
  ExportLayer l;
  l.name = name;
  l.tensors = ownTensors(state, name);
  if (child->as<torch::nn::Linear>()) {
    l.type = "Linear";
  } else if (const auto* conv = child->as<torch::nn::Conv2d>()) {
    const auto& o = conv->options;
    if (o.groups() != 1 || pair2(o.dilation()) != std::vector<int64_t>{1, 1} ||
        !c10::holds_alternative<torch::ExpandingArray<2>>(o.padding()))
      throw Error(ErrorCode::Config, "model.kind",
                  "layer " + name + " (Conv2d) has groups, dilation or string padding, which "
                  "the export does not write");
    l.type = "Conv2d";
    l.kernel = pair2(o.kernel_size());
    l.stride = pair2(o.stride());
    l.padding = pair2(c10::get<torch::ExpandingArray<2>>(o.padding()));
  } else if (const auto* bn = child->as<torch::nn::BatchNorm2d>()) {
    l.type = "BatchNorm2d";
    l.eps = bn->options.eps();
  } else if (child->as<torch::nn::ReLU>()) {
    l.type = "ReLU";
  } else if (child->as<torch::nn::Tanh>()) {
    l.type = "Tanh";
  } else if (child->as<torch::nn::Sigmoid>()) {
    l.type = "Sigmoid";
  } else if (const auto* gelu = child->as<torch::nn::GELU>()) {
    if (gelu->options.approximate() != "none")
      throw Error(ErrorCode::Config, "model.kind",
                  "layer " + name + " (GELU, approximate \"" + gelu->options.approximate() +
                      "\") is not written by the export");
    l.type = "GELU";
  } else if (const auto* mp = child->as<torch::nn::MaxPool2d>()) {
    l.type = "MaxPool2d";
    l.kernel = pair2(mp->options.kernel_size());
    l.stride = pair2(mp->options.stride());
    l.padding = pair2(mp->options.padding());
    if (mp->options.ceil_mode() || pair2(mp->options.dilation()) != std::vector<int64_t>{1, 1})
      throw Error(ErrorCode::Config, "model.kind",
                  "layer " + name + " (MaxPool2d with ceil_mode or dilation) is not written by the export");
  } else if (const auto* ap = child->as<torch::nn::AvgPool2d>()) {
    l.type = "AvgPool2d";
    l.kernel = pair2(ap->options.kernel_size());
    l.stride = pair2(ap->options.stride());
    l.padding = pair2(ap->options.padding());
    if (ap->options.ceil_mode() || ap->options.divisor_override() ||
        (!ap->options.count_include_pad() && l.padding != std::vector<int64_t>{0, 0}))
      throw Error(ErrorCode::Config, "model.kind",
                  "layer " + name + " (AvgPool2d with ceil_mode or a divisor) is not written by the export");
  } else if (const auto* fl = child->as<torch::nn::Flatten>()) {
    if (fl->options.start_dim() != 1 || fl->options.end_dim() != -1)
      throw Error(ErrorCode::Config, "model.kind",
                  "layer " + name + " (Flatten of other dimensions than 1..-1) is not written by the export");
    l.type = "Flatten";
  } else if (const auto* un = child->as<torch::nn::Unflatten>()) {
    if (un->options.dim() != 1)
      throw Error(ErrorCode::Config, "model.kind",
                  "layer " + name + " (Unflatten of another dimension than 1) is not written by the export");
    l.type = "Unflatten";
    l.sizes = un->options.sizes();
  } else if (child->as<torch::nn::Dropout>()) {
    l.type = "Dropout";
  } else {
    throw Error(ErrorCode::Config, "model.kind",
                "layer " + name + " (" + child->name() + ") is not written by the export");
  }
  return l;
}

}  // namespace

at::Tensor ExportLayer::tensor(const std::string& own) const {
  for (const auto& [n, t] : tensors)
    if (n == own) return t;
  return {};
}

ExportPlan planExport(const Model& model, const ModelConfig& config, const DataSummary& data,
                      bool include_preprocessing) {
  ExportPlan plan;
  plan.kind = model.kind();
  plan.input_shape = data.input_shape;
  plan.outputs = data.outputs;
  const NamedTensors state = model.state_dict();
  if (const auto* seq = dynamic_cast<const SequentialModel*>(&model)) {
    const torch::nn::Sequential& s = seq->sequential();
    for (std::size_t i = 0; i < s->size(); ++i)
      plan.layers.push_back(fromChild(std::to_string(i), s->ptr(i), state));
  } else if (plan.kind == "rnn") {
    const RnnConfig& c = config.rnn;
    ExportLayer r;
    r.name = "rnn";
    r.type = c.cell == "lstm" ? "LSTM" : c.cell == "gru" ? "GRU" : "RNN";
    r.tensors = ownTensors(state, "rnn");
    r.num_layers = c.num_layers;
    r.hidden_size = c.hidden_size;
    r.bidirectional = c.bidirectional;
    r.nonlinearity = c.nonlinearity;
    r.reduce = c.output;
    plan.layers.push_back(r);
    if (config.dropout > 0) plan.layers.push_back(ExportLayer{"drop", "Dropout"});
    ExportLayer head;
    head.name = "head";
    head.type = "Linear";
    head.tensors = ownTensors(state, "head");
    plan.layers.push_back(head);
  } else if (plan.kind != "torchscript") {  // torchscript: the user's module, exported whole
    throw Error(ErrorCode::Config, "model.kind",
                "the export does not know the model kind \"" + plan.kind + "\"");
  }
  if (include_preprocessing) {
    const Preprocessing& p = data.preprocessing;
    int64_t n = 1;
    for (int64_t d : data.input_shape) n *= d;
    if (p.standardize == "per_feature") {
      if (static_cast<int64_t>(p.mean.size()) != n || static_cast<int64_t>(p.std.size()) != n)
        throw Error(ErrorCode::Data, "preprocessing",
                    "the run's per-feature statistics have " + std::to_string(p.mean.size()) +
                        " values for " + std::to_string(n) + " inputs");
      // (x / pixel_scale - mean) / std, as applyPreprocessing computes it: with pixel_scale 1
      // (every table) the same float32 operations.
      plan.input_offset = (at::tensor(p.mean, at::kDouble) * p.pixel_scale).to(at::kFloat).view(data.input_shape);
      plan.input_scale = (at::tensor(p.std, at::kDouble) * p.pixel_scale).to(at::kFloat).view(data.input_shape);
    } else {
      // Pixels: (x - mean * pixel_scale) / (std * pixel_scale), one value for every pixel, as
      // TensorPair::toInputs computes it; "none": x / pixel_scale.
      const bool standardized = p.standardize != "none";
      const double mean = standardized && !p.mean.empty() ? p.mean[0] : 0.0;
      const double sd = standardized && !p.std.empty() ? p.std[0] : 1.0;
      plan.input_offset = at::full({1}, mean * p.pixel_scale, at::kFloat);
      plan.input_scale = at::full({1}, sd * p.pixel_scale, at::kFloat);
    }
  }
  return plan;
}

}  // namespace trainscope

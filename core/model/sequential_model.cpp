#include "core/model/sequential_model.h"

#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/pooling.h>
#include <torch/utils.h>

#include "core/errors.h"
#include "core/system/number_format.h"

namespace trainscope {
namespace {

/// "Linear(784->256)", "Dropout(0.3)", "ReLU": the summary word of one layer.
std::string layerDescription(const torch::nn::Module& layer) {
  if (auto* lin = layer.as<torch::nn::Linear>())
    return "Linear(" + std::to_string(lin->options.in_features()) + "->" +
           std::to_string(lin->options.out_features()) + ")";
  if (auto* drop = layer.as<torch::nn::Dropout>())
    // %g's six significant digits, in the "C" locale whatever the process locale.
    return "Dropout(" + formatSignificant(drop->options.p(), 6) + ")";
  if (auto* conv = layer.as<torch::nn::Conv2d>()) {
    const auto& o = conv->options;
    return "Conv2d(" + std::to_string(o.in_channels()) + "->" + std::to_string(o.out_channels()) +
           ", " + std::to_string((*o.kernel_size())[0]) + "x" + std::to_string((*o.kernel_size())[1]) + ")";
  }
  if (auto* bn = layer.as<torch::nn::BatchNorm2d>())
    return "BatchNorm2d(" + std::to_string(bn->options.num_features()) + ")";
  if (auto* pool = layer.as<torch::nn::MaxPool2d>())
    return "MaxPool2d(" + std::to_string((*pool->options.kernel_size())[0]) + ")";
  if (auto* pool = layer.as<torch::nn::AvgPool2d>())
    return "AvgPool2d(" + std::to_string((*pool->options.kernel_size())[0]) + ")";
  std::string part = layer.name();
  if (part.size() > 4 && part.compare(part.size() - 4, 4, "Impl") == 0)
    part = part.substr(0, part.size() - 4);
  const auto colon = part.rfind("::");
  if (colon != std::string::npos) part = part.substr(colon + 2);
  return part;
}

std::vector<int64_t> pair2(torch::ExpandingArray<2> a) { return {(*a)[0], (*a)[1]}; }

/// The layer `child` named `name` as torch.nn names it; Error(Config, "model.kind") naming a
/// layer or option the exports do not write.
LayerSpec layerSpecOf(const std::string& name, const std::shared_ptr<torch::nn::Module>& child) {
  LayerSpec l;
  l.name = name;
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

void pushActivation(torch::nn::Sequential& seq, const std::string& activation) {
  if (activation == "relu") {
    seq->push_back(torch::nn::ReLU());
  } else if (activation == "tanh") {
    seq->push_back(torch::nn::Tanh());
  } else if (activation == "gelu") {
    seq->push_back(torch::nn::GELU());
  } else if (activation == "sigmoid") {
    seq->push_back(torch::nn::Sigmoid());
  } else {
    throw Error(ErrorCode::Config, "model.activation", "unknown model.activation '" + activation + "'");
  }
}

void pushLinearLayers(torch::nn::Sequential& seq, int64_t width, const std::vector<int64_t>& hidden,
                      const std::string& activation, double dropout, int64_t outputs) {
  for (int64_t h : hidden) {
    seq->push_back(torch::nn::Linear(width, h));
    pushActivation(seq, activation);
    if (dropout > 0) seq->push_back(torch::nn::Dropout(dropout));
    width = h;
  }
  seq->push_back(torch::nn::Linear(width, outputs));
}

NamedTensors moduleStateDict(const torch::nn::Module& module) {
  NamedTensors out;
  auto add = [&out](const std::string& prefix, const torch::nn::Module& m) {
    for (const auto& p : m.named_parameters(/*recurse=*/false))
      if (p.value().defined()) out.emplace_back(prefix + p.key(), p.value());
    for (const auto& b : m.named_buffers(/*recurse=*/false))
      if (b.value().defined()) out.emplace_back(prefix + b.key(), b.value());
  };
  add("", module);
  for (const auto& item : module.named_modules("", /*include_self=*/false))
    add(item.key() + ".", *item.value());
  return out;
}

SequentialModel::SequentialModel(std::string kind, torch::nn::Sequential sequential)
    : kind_(std::move(kind)), seq_(std::move(sequential)) {}

at::Tensor SequentialModel::forward(const at::Tensor& input) { return seq_->forward(input); }

std::vector<at::Tensor> SequentialModel::parameters() const { return seq_->parameters(); }

NamedTensors SequentialModel::named_parameters() const {
  NamedTensors out;
  for (const auto& p : seq_->named_parameters(true)) out.emplace_back(p.key(), p.value());
  return out;
}

std::vector<at::Tensor> SequentialModel::buffers() const { return seq_->buffers(); }

NamedTensors SequentialModel::state_dict() const { return moduleStateDict(*seq_); }

void SequentialModel::train(bool on) { seq_->train(on); }

bool SequentialModel::is_training() const { return seq_->is_training(); }

std::shared_ptr<Model> SequentialModel::clone(std::optional<c10::Device> device) const {
  auto copy = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(seq_->clone(device ? c10::optional<c10::Device>(*device) : c10::nullopt));
  // SequentialImpl::clone builds a fresh container (in train mode) around copies of the
  // layers (which keep theirs): the copy takes the original's mode, as the interface says.
  copy->train(seq_->is_training());
  return std::make_shared<SequentialModel>(kind_, torch::nn::Sequential(copy));
}

void SequentialModel::to(c10::Device device) { seq_->to(device); }

ModelSummary SequentialModel::summary() const {
  ModelSummary s;
  for (const auto& child : seq_->children())
    s.description += (s.description.empty() ? "" : " ") + layerDescription(*child);
  s.parameter_count = countParameters(*this, /*trainable=*/true);
  return s;
}

std::pair<at::Tensor, at::Tensor> SequentialModel::firstConvBlock(const at::Tensor& input) {
  at::Tensor x = input, weight;
  for (auto& layer : *seq_) {
    torch::nn::Module& m = *layer.ptr();
    if (weight.defined() && !m.as<torch::nn::BatchNorm2d>()) {  // the activation: the end
      return {weight, layer.forward(x)};
    }
    x = layer.forward(x);
    if (auto* conv = m.as<torch::nn::Conv2d>()) weight = conv->weight;
  }
  return {weight, weight.defined() ? x : at::Tensor()};
}

at::Tensor SequentialModel::penultimate(const at::Tensor& input) {
  std::size_t last_linear = seq_->size();
  for (std::size_t i = 0; i < seq_->size(); ++i)
    if (seq_->ptr(i)->as<torch::nn::Linear>()) last_linear = i;
  if (last_linear == seq_->size()) return {};
  at::Tensor x = input;
  std::size_t i = 0;
  for (auto& layer : *seq_) {
    if (i++ == last_linear) break;
    x = layer.forward(x);
  }
  return x.reshape({x.size(0), -1});
}

std::size_t SequentialModel::layerCount() const { return seq_->size(); }

std::optional<std::size_t> SequentialModel::lastConvFeatures() const {
  std::optional<std::size_t> conv;
  for (std::size_t i = 0; i < seq_->size(); ++i)
    if (seq_->ptr(i)->as<torch::nn::Conv2d>()) conv = i;
  if (!conv) return std::nullopt;
  std::size_t end = *conv;
  if (end + 1 < seq_->size() && seq_->ptr(end + 1)->as<torch::nn::BatchNorm2d>()) ++end;
  if (end + 1 < seq_->size() && !seq_->ptr(end + 1)->as<torch::nn::MaxPool2d>() &&
      !seq_->ptr(end + 1)->as<torch::nn::AvgPool2d>() && !seq_->ptr(end + 1)->as<torch::nn::Flatten>())
    ++end;  // the activation
  return end;
}

std::string SequentialModel::camLayer() const {
  const std::optional<std::size_t> end = lastConvFeatures();
  return end ? std::to_string(*end) : std::string();
}

std::pair<at::Tensor, at::Tensor> SequentialModel::camForward(const at::Tensor& input) {
  const std::optional<std::size_t> end = lastConvFeatures();
  if (!end) return Model::camForward(input);
  at::Tensor maps;
  {
    torch::NoGradGuard no_grad;
    maps = forwardRange(input, 0, *end + 1);
  }
  maps = maps.detach().requires_grad_(true);
  at::Tensor out = forwardRange(maps, *end + 1, layerCount());
  return {maps, out};
}

std::vector<LayerSpec> SequentialModel::layerSpecs() const {
  std::vector<LayerSpec> out;
  for (std::size_t i = 0; i < seq_->size(); ++i) out.push_back(layerSpecOf(std::to_string(i), seq_->ptr(i)));
  return out;
}

std::vector<std::pair<std::size_t, std::string>> SequentialModel::activationLayers() const {
  std::vector<std::pair<std::size_t, std::string>> out;
  for (std::size_t i = 0; i < seq_->size(); ++i) {
    const auto& layer = *seq_->ptr(i);
    if (layer.as<torch::nn::ReLU>()) out.emplace_back(i, "ReLU");
    else if (layer.as<torch::nn::Tanh>()) out.emplace_back(i, "Tanh");
    else if (layer.as<torch::nn::GELU>()) out.emplace_back(i, "GELU");
    else if (layer.as<torch::nn::Sigmoid>()) out.emplace_back(i, "Sigmoid");
  }
  return out;
}

at::Tensor SequentialModel::forwardRange(const at::Tensor& x_in, std::size_t from, std::size_t to) {
  at::Tensor x = x_in;
  std::size_t i = 0;
  for (auto& layer : *seq_) {
    if (i >= to) break;
    if (i++ >= from) x = layer.forward(x);
  }
  return x;
}

std::vector<LayerInfo> SequentialModel::layers(const std::vector<int64_t>& input_shape) const {
  std::vector<int64_t> batch_shape{1};
  batch_shape.insert(batch_shape.end(), input_shape.begin(), input_shape.end());
  torch::nn::Sequential seq = seq_;  // the same module; a non-const handle to run it
  const std::vector<at::Tensor> params = seq->parameters();
  const at::Tensor first = params.empty() ? at::Tensor() : params[0];
  at::Tensor x = at::zeros(batch_shape, first.defined() ? first.options().requires_grad(false)
                                                        : at::TensorOptions(at::kFloat));
  const bool was_training = seq->is_training();
  torch::NoGradGuard no_grad;
  seq->eval();
  std::vector<LayerInfo> out;
  const auto children = seq->named_children();
  try {
    size_t i = 0;
    for (auto& layer : *seq) {
      LayerInfo info;
      info.name = children[i].key();
      info.description = layerDescription(*children[i].value());
      x = layer.forward(x);
      info.output_shape.assign(x.sizes().begin() + 1, x.sizes().end());
      for (const auto& p : children[i].value()->parameters())
        (p.requires_grad() ? info.trainable_parameters : info.frozen_parameters) += p.numel();
      out.push_back(std::move(info));
      ++i;
    }
  } catch (const c10::Error& e) {
    seq->train(was_training);
    std::string shape;
    for (int64_t d : input_shape) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
    throw Error(ErrorCode::Config, "model.kind",
                "the " + kind_ + " model does not take inputs of shape [" + shape +
                    "] at layer " + std::to_string(out.size()) + ": " + e.what_without_backtrace());
  }
  seq->train(was_training);
  return out;
}

}  // namespace trainscope

#include "core/model/rnn.h"

#include <torch/nn/cloneable.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/rnn.h>
#include <torch/utils.h>

#include <string>

#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/system/number_format.h"
#include "core/model/model.h"
#include "core/model/sequential_model.h"  // moduleStateDict

namespace trainscope {
namespace {

std::string rnnShapeText(const std::vector<int64_t>& s) {
  std::string out;
  for (int64_t d : s) out += (out.empty() ? "" : ", ") + std::to_string(d);
  return "[" + out + "]";
}

/// Gates per cell: nn.RNN 1, nn.LSTM 4, nn.GRU 3 (the rows of weight_ih_l0 per hidden unit).
int64_t gatesOf(const std::string& cell) { return cell == "lstm" ? 4 : cell == "gru" ? 3 : 1; }

/// "LSTM", "GRU", "RNN": torch.nn's class name.
std::string className(const std::string& cell) {
  return cell == "lstm" ? "LSTM" : cell == "gru" ? "GRU" : "RNN";
}

void checkShapes(const RnnConfig& c, const std::vector<int64_t>& input_shape) {
  if (input_shape.size() != 2)
    throw Error(ErrorCode::Config, "model.kind",
                "model.kind rnn takes sequences: samples of shape [T, F] (time steps, features "
                "per step), but the data's samples have shape " +
                    rnnShapeText(input_shape) +
                    "; use a sequence source (data.source sine-sequence) or an .npy x of shape "
                    "[N, T, F]");
  if (c.dropout > 0 && c.num_layers < 2)
    throw Error(ErrorCode::Config, "model.rnn.dropout",
                "model.rnn.dropout acts between stacked layers, but model.rnn.num_layers is 1: "
                "set num_layers >= 2, or use model.dropout (before the linear head)");
}

/// The torch module of the "rnn" kind (see rnn.h for its Python twin). Cloneable: clone()
/// copies the recurrent layer, the dropout and the head with their values.
class RnnNetImpl : public torch::nn::Cloneable<RnnNetImpl> {
 public:
  RnnNetImpl(RnnConfig config, int64_t features, int64_t outputs, double dropout)
      : config_(std::move(config)), features_(features), outputs_(outputs), dropout_(dropout) {
    reset();
  }

  void reset() override {
    const RnnConfig& c = config_;
    if (c.cell == "lstm") {
      lstm_ = register_module(
          "rnn", torch::nn::LSTM(torch::nn::LSTMOptions(features_, c.hidden_size)
                                     .num_layers(c.num_layers)
                                     .batch_first(true)
                                     .dropout(c.dropout)
                                     .bidirectional(c.bidirectional)));
    } else if (c.cell == "gru") {
      gru_ = register_module(
          "rnn", torch::nn::GRU(torch::nn::GRUOptions(features_, c.hidden_size)
                                    .num_layers(c.num_layers)
                                    .batch_first(true)
                                    .dropout(c.dropout)
                                    .bidirectional(c.bidirectional)));
    } else {
      torch::nn::RNNOptions o(features_, c.hidden_size);
      o.num_layers(c.num_layers).batch_first(true).dropout(c.dropout).bidirectional(c.bidirectional);
      if (c.nonlinearity == "relu")
        o.nonlinearity(torch::kReLU);
      else
        o.nonlinearity(torch::kTanh);
      rnn_ = register_module("rnn", torch::nn::RNN(o));
    }
    if (dropout_ > 0) drop_ = register_module("drop", torch::nn::Dropout(dropout_));
    head_ = register_module("head", torch::nn::Linear(width(), outputs_));
  }

  /// Features into the head: hidden_size per direction.
  int64_t width() const { return config_.hidden_size * (config_.bidirectional ? 2 : 1); }

  /// The recurrent layer's output for every step, [N, T, width()].
  at::Tensor sequence(const at::Tensor& x) {
    if (lstm_) return std::get<0>(lstm_->forward(x));
    if (gru_) return std::get<0>(gru_->forward(x));
    return std::get<0>(rnn_->forward(x));
  }

  /// What the head reads: output[:, -1] or output.mean(1), [N, width()].
  at::Tensor reduce(const at::Tensor& out) const {
    return config_.output == "mean" ? out.mean(1) : out.select(1, -1);
  }

  at::Tensor head(at::Tensor features) {
    if (drop_) features = drop_->forward(features);
    return head_->forward(features);
  }

  at::Tensor forward(const at::Tensor& x) { return head(reduce(sequence(x))); }

  const RnnConfig& config() const { return config_; }
  int64_t features() const { return features_; }
  int64_t outputs() const { return outputs_; }
  double dropout() const { return dropout_; }
  torch::nn::Module& recurrent() { return *named_children()["rnn"]; }
  torch::nn::Module& linear() { return *head_; }

 private:
  RnnConfig config_;
  int64_t features_ = 0, outputs_ = 0;
  double dropout_ = 0;
  torch::nn::RNN rnn_{nullptr};
  torch::nn::LSTM lstm_{nullptr};
  torch::nn::GRU gru_{nullptr};
  torch::nn::Dropout drop_{nullptr};
  torch::nn::Linear head_{nullptr};
};

TORCH_MODULE(RnnNet);

class RnnModel final : public Model {
 public:
  explicit RnnModel(RnnNet net) : net_(std::move(net)) {}

  std::string kind() const override { return "rnn"; }
  at::Tensor forward(const at::Tensor& input) override { return net_->forward(input); }
  std::vector<at::Tensor> parameters() const override { return net_->parameters(); }
  NamedTensors named_parameters() const override {
    NamedTensors out;
    for (const auto& p : net_->named_parameters(true)) out.emplace_back(p.key(), p.value());
    return out;
  }
  std::vector<at::Tensor> buffers() const override { return net_->buffers(); }
  NamedTensors state_dict() const override { return moduleStateDict(*net_); }
  void train(bool on) override { net_->train(on); }
  bool is_training() const override { return net_->is_training(); }
  std::shared_ptr<Model> clone(std::optional<c10::Device> device) const override {
    auto copy = std::dynamic_pointer_cast<RnnNetImpl>(
        net_->clone(device ? c10::optional<c10::Device>(*device) : c10::nullopt));
    copy->train(net_->is_training());
    return std::make_shared<RnnModel>(RnnNet(copy));
  }
  void to(c10::Device device) override { net_->to(device); }

  ModelSummary summary() const override {
    ModelSummary s;
    s.description = recurrentDescription();
    if (net_->dropout() > 0) s.description += " Dropout(" + formatSignificant(net_->dropout(), 6) + ")";
    s.description += " Linear(" + std::to_string(net_->width()) + "->" +
                     std::to_string(net_->outputs()) + ")";
    s.parameter_count = countParameters(*this, /*trainable=*/true);
    return s;
  }

  std::vector<LayerInfo> layers(const std::vector<int64_t>& input_shape) const override {
    checkShapes(net_->config(), input_shape);
    RnnNet net = net_;  // the same module; a non-const handle to run it
    const at::Tensor first = net->parameters().front();
    std::vector<int64_t> batch{1};
    batch.insert(batch.end(), input_shape.begin(), input_shape.end());
    at::Tensor x = at::zeros(batch, first.options().requires_grad(false));
    const bool was_training = net->is_training();
    torch::NoGradGuard no_grad;
    net->eval();
    auto count = [](torch::nn::Module& m, LayerInfo& info) {
      for (const auto& p : m.parameters())
        (p.requires_grad() ? info.trainable_parameters : info.frozen_parameters) += p.numel();
    };
    std::vector<LayerInfo> out;
    try {
      at::Tensor seq = net->sequence(x);
      LayerInfo rnn{"rnn", recurrentDescription(), {seq.sizes().begin() + 1, seq.sizes().end()}};
      count(net->recurrent(), rnn);
      out.push_back(rnn);
      at::Tensor reduced = net->reduce(seq);
      out.push_back({"", net->config().output == "mean" ? "output.mean(1)" : "output[:, -1]",
                     {reduced.sizes().begin() + 1, reduced.sizes().end()}});
      at::Tensor y = net->head(reduced);
      LayerInfo head{"head",
                     "Linear(" + std::to_string(net->width()) + "->" +
                         std::to_string(net->outputs()) + ")",
                     {y.sizes().begin() + 1, y.sizes().end()}};
      count(net->linear(), head);
      out.push_back(head);
    } catch (const c10::Error& e) {
      net->train(was_training);
      throw Error(ErrorCode::Config, "model.kind",
                  "the rnn model (built for " + std::to_string(net->features()) +
                      " features per step) does not take inputs of shape " +
                      rnnShapeText(input_shape) + ": " + e.what_without_backtrace());
    }
    net->train(was_training);
    return out;
  }

 private:
  /// "LSTM(1->64, 2 layers, bidirectional)".
  std::string recurrentDescription() const {
    const RnnConfig& c = net_->config();
    std::string d = className(c.cell) + "(" + std::to_string(net_->features()) + "->" +
                    std::to_string(c.hidden_size);
    if (c.cell == "rnn" && c.nonlinearity == "relu") d += ", relu";
    if (c.num_layers > 1) d += ", " + std::to_string(c.num_layers) + " layers";
    if (c.bidirectional) d += ", bidirectional";
    return d + ")";
  }

  RnnNet net_;
};

}  // namespace

std::shared_ptr<Model> buildRnn(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& /*image_shape*/, int64_t outputs) {
  checkShapes(config.rnn, input_shape);
  return std::make_shared<RnnModel>(
      RnnNet(config.rnn, input_shape[1], outputs, config.dropout));
}

ModelFootprint rnnKindFootprint(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& /*image_shape*/, int64_t outputs) {
  const RnnConfig& c = config.rnn;
  checkShapes(c, input_shape);
  const int64_t steps = input_shape[0], features = input_shape[1];
  const int64_t gates = gatesOf(c.cell), h = c.hidden_size, dirs = c.bidirectional ? 2 : 1;
  ModelFootprint f;
  int64_t in = features;
  for (int64_t l = 0; l < c.num_layers; ++l) {
    // weight_ih [G*H, in], weight_hh [G*H, H], bias_ih and bias_hh [G*H], per direction.
    f.parameters += dirs * (gates * h * (in + h) + 2 * gates * h);
    // Per step and direction: the gates and the states (h, and c for LSTM) kept for backward,
    // and as many gradients.
    f.activation_floats_per_sample += 2 * steps * dirs * (gates * h + 2 * h);
    in = h * dirs;
  }
  f.parameters += in * outputs + outputs;
  f.activation_floats_per_sample += steps * features + 4 * (in + outputs);
  return f;
}

}  // namespace trainscope

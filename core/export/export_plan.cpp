// The layers of an mlp, cnn or rnn model as an export writes them.
#include "core/export/export_plan.h"

#include <ATen/ATen.h>

#include "core/config/train_config.h"
#include "core/data/data_summary.h"
#include "core/errors.h"
#include "core/model/model.h"
#include "core/model/sequential_model.h"

namespace trainscope {

namespace {

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
    for (const LayerSpec& spec : seq->layerSpecs()) {
      ExportLayer l;
      static_cast<LayerSpec&>(l) = spec;
      l.tensors = ownTensors(state, spec.name);
      plan.layers.push_back(std::move(l));
    }
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
    if (config.dropout > 0) {
      ExportLayer drop;
      drop.name = "drop";
      drop.type = "Dropout";
      plan.layers.push_back(drop);
    }
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

#include "core/train/probes/shapes.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/utils.h>

#include "core/config/train_config.h"
#include "core/data/augment/transforms.h"
#include "core/data/batches.h"
#include "core/data/class_balance.h"
#include "core/data/dataset.h"
#include "core/errors.h"
#include "core/model/model.h"

namespace trainscope {

namespace {

TensorFacts factsOf(const at::Tensor& t) {
  TensorFacts f;
  f.shape = t.sizes().vec();
  const std::string dtype = c10::toString(t.scalar_type());  // "Float", "Long"
  static const std::pair<const char*, const char*> names[] = {
      {"Float", "float32"}, {"Long", "int64"}, {"Byte", "uint8"}, {"Double", "float64"},
      {"Int", "int32"},     {"Half", "float16"}, {"BFloat16", "bfloat16"}, {"Bool", "bool"}};
  f.dtype = dtype;
  for (const auto& [from, to] : names)
    if (dtype == from) f.dtype = to;
  f.device = t.device().str();
  if (t.numel() > 0) {
    const at::Tensor d = t.to(at::kDouble);
    f.min = d.min().item<double>();
    f.max = d.max().item<double>();
  }
  return f;
}

void throwIfOutputMismatch(const std::string& kind, const std::vector<int64_t>& out,
                           const std::vector<int64_t>& x, const std::string& task,
                           int64_t outputs) {
  const std::vector<int64_t> expected{x.empty() ? 0 : x[0], outputs};
  if (out == expected) return;
  throw Error(ErrorCode::Config, "model.kind",
              "the " + kind + " model gives outputs of shape " + shapeText(out) +
                  " for a batch of " + shapeText(x) + ", but the data needs " +
                  shapeText(expected) + " (" +
                  (task == "classification" ? std::to_string(outputs) + " classes"
                                            : std::to_string(outputs) + " targets") +
                  ")" +
                  (kind == "torchscript"
                       ? "; a TorchScript file fixes its own output size: in Python give its "
                         "last layer " + std::to_string(outputs) +
                             " outputs (e.g. nn.Linear(in_features, " + std::to_string(outputs) +
                             ")) and script it again"
                       : std::string()));
}

}  // namespace

void checkModelFitsData(Model& model, const TensorPair& train, const DataSummary& summary,
                        const std::string& kind, int64_t batch_size) {
  const int64_t n = std::min<int64_t>(std::max<int64_t>(batch_size, 1), train.size());
  if (n == 0) return;
  const TensorPair batch = train.rows(0, n);
  const bool was_training = model.is_training();
  model.eval();
  at::Tensor out;
  try {
    torch::NoGradGuard no_grad;
    out = model.forward(batch.x);
  } catch (const Error&) {
    if (was_training) model.train();
    throw;
  } catch (const std::exception& e) {
    if (was_training) model.train();
    std::string what = e.what();
    if (const auto nl = what.find("\n"); nl != std::string::npos && kind != "torchscript")
      what = what.substr(0, nl);
    throw Error(ErrorCode::Config, "model.kind",
                "the " + kind + " model fails on the first batch of the data (x " +
                    shapeText(batch.x.sizes().vec()) + "): " + what);
  }
  if (was_training) model.train();
  throwIfOutputMismatch(kind, out.sizes().vec(), batch.x.sizes().vec(), summary.task,
                        summary.outputs);
}

std::string errorLine(const std::exception& e) {
  const auto* c = dynamic_cast<const c10::Error*>(&e);
  std::string m = c ? c->what_without_backtrace() : e.what();
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  if (m.find("Traceback of TorchScript") != std::string::npos) {
    const auto nl = m.rfind('\n');
    return nl == std::string::npos ? m : m.substr(nl + 1);
  }
  const auto nl = m.find('\n');
  return nl == std::string::npos ? m : m.substr(0, nl);
}

void checkLastBatch(const Model& model, const TensorPair& train, int64_t batch_size,
                    bool drop_last, int64_t world_size) {
  const int64_t n = train.size();
  const int64_t per_rank = world_size > 1 ? (n + world_size - 1) / world_size : n;
  const std::string bs = std::to_string(batch_size);
  if (n > 0 && batchesPerEpoch(n, batch_size, world_size, drop_last) == 0)
    throw Error(ErrorCode::Config, "training.drop_last",
                "training.drop_last is true but there are only " + std::to_string(per_rank) +
                    " training samples" + (world_size > 1 ? " per rank" : "") +
                    ", fewer than training.batch_size " + bs +
                    ": no batch is left to train on; lower batch_size or set drop_last false");
  if (drop_last || lastBatchSize(n, batch_size, world_size) != 1 || n == 0) return;
  std::shared_ptr<Model> copy = model.clone();
  copy->train();
  // Dropout draws from the global generator: the run's draws must not depend on this check.
  at::Generator global = at::detail::getDefaultCPUGenerator();
  const at::Tensor rng_state = global.get_state();
  try {
    (void)copy->forward(train.rows(0, 1).x);
    global.set_state(rng_state);
  } catch (const std::exception& e) {
    global.set_state(rng_state);
    const int64_t full = per_rank / batch_size;
    throw Error(ErrorCode::Config, "training.drop_last",
                "training.batch_size " + bs + " leaves a last batch of 1 sample each epoch (" +
                    std::to_string(per_rank) + " = " + std::to_string(full) + " x " + bs +
                    " + 1) and this model cannot train on a single sample (" + errorLine(e) +
                    "): set training.drop_last true, or a batch_size that leaves more");
  }
}

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

ShapeReport shapeReport(const TrainConfig& config) {
  const PreparedData data = loadData(config.data);
  ShapeReport r;
  r.model_kind = config.model.kind;
  r.n_train = data.summary.n_train;
  r.n_val = data.summary.n_val;
  r.n_test = data.summary.n_test;
  r.task = data.summary.task;
  r.outputs = data.summary.outputs;
  r.image_shape = data.summary.image_shape;
  torch::manual_seed(static_cast<uint64_t>(config.training.seed.value_or(0)));
  const ModelPtr model = buildModel(config.model, data.summary);
  r.trainable_parameters = countParameters(*model, true);
  const int64_t n = std::min<int64_t>(config.training.batch_size, data.train.size());
  TensorPair batch = data.train.rows(0, n);
  // What a run refuses before its first step, refused here too
  const TrainingConfig& t = config.training;
  r.class_weights = classWeights(t.class_weights, data.train.y, data.summary.n_classes,
                                 data.classification);
  r.sampler = config.data.sampler;
  if (r.sampler == "weighted")
    (void)balancedSampleWeights(data.train.y, data.summary.n_classes, data.classification);
  checkLastBatch(*model, data.train, t.batch_size, t.drop_last, 1);
  if (config.data.augment.any()) {  // the first batch as training augments it (epoch 1)
    auto aug = std::make_shared<const augment::Augmentation>(config.data.augment,
                                                             data.summary.image_shape);
    r.augmentation = aug->describe();
    BatchIterator it(data.train, n, /*shuffle=*/false);
    it.setAugmentation(aug, static_cast<uint64_t>(t.seed.value_or(0)));
    it.startEpoch(1);
    batch = it.batch(0);
  }
  r.x = factsOf(batch.x);
  r.y = factsOf(batch.y);
  // Layer by layer on one sample (Model::layers), then the whole batch for the output.
  const std::vector<int64_t> sample(batch.x.sizes().begin() + 1, batch.x.sizes().end());
  for (const LayerInfo& l : model->layers(sample)) {
    LayerShape s{l.name, l.description, {n}, l.trainable_parameters, l.frozen_parameters,
                 l.shape_known};
    if (l.shape_known)
      s.output_shape.insert(s.output_shape.end(), l.output_shape.begin(), l.output_shape.end());
    else
      s.output_shape.clear();
    r.layers.push_back(std::move(s));
  }
  model->eval();
  torch::NoGradGuard no_grad;
  const at::Tensor out = model->forward(batch.x);
  r.output = factsOf(out);
  throwIfOutputMismatch(config.model.kind, r.output.shape, r.x.shape, r.task, r.outputs);
  return r;
}

}  // namespace trainscope

// Evaluating a checkpoint's model on a split, with its recorded preprocessing.
#include "core/train/probes/evaluation.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/nn/functional/loss.h>
#include <torch/utils.h>

#include "core/config/kinds.h"
#include "core/data/data_fingerprint.h"
#include "core/data/dataset.h"
#include "core/data/sources.h"
#include "core/errors.h"
#include "core/run/class_metrics.h"
#include "core/train/state/checkpoint.h"
#include "core/io/checkpoint_file.h"
#include "core/io/checkpoint_reader.h"
#include "core/model/model.h"
#include "core/train/probes/shapes.h"  // shapeText
#include "core/train/step/step.h"     // regressionMetrics
#include "core/train/state/weights_import.h"

namespace trainscope {
namespace {

namespace F = torch::nn::functional;

/// What the checkpoint recorded of its data (the `data` part), when it has one.
struct RecordedData {
  bool present = false;
  std::string task;
  std::vector<int64_t> input_shape;
  int64_t outputs = 0;
  std::vector<std::string> class_names;
  std::vector<std::string> feature_names;  ///< empty when the checkpoint has none (older files)
  Preprocessing preprocessing;
};

/// The list at `key` of `d`, each element checked by `ok` and converted by `get`.
template <class T, class Ok, class Get>
std::vector<T> listAt(const CheckpointReader& read, const c10::impl::GenericDict& d,
                      const std::string& key, const std::string& where, Ok ok, Get get,
                      const char* kind) {
  const c10::IValue& v = read.at(d, key, where);
  if (!v.isList()) read.bad("'" + where + key + "' is not a list of " + kind);
  std::vector<T> out;
  for (const c10::IValue& e : v.toListRef()) {
    if (!ok(e)) read.bad("'" + where + key + "' is not a list of " + kind);
    out.push_back(get(e));
  }
  return out;
}

RecordedData readRecordedData(const std::filesystem::path& file) {
  const c10::impl::GenericDict dict = readCheckpointDict(file);
  RecordedData r;
  if (!dict.contains("data")) return r;  // written before the data was recorded
  const CheckpointReader read{file};
  const c10::impl::GenericDict d = read.dict(dict, "data", "");
  r.present = true;
  auto text = [&](const c10::impl::GenericDict& dict, const std::string& key,
                  const std::string& where) {
    const c10::IValue& v = read.at(dict, key, where);
    if (!v.isString()) read.bad("'" + where + key + "' is not a string");
    return v.toStringRef();
  };
  auto isInt = [](const c10::IValue& e) { return e.isInt(); };
  auto isNumber = [](const c10::IValue& e) { return e.isDouble() || e.isInt(); };
  auto isString = [](const c10::IValue& e) { return e.isString(); };
  r.task = text(d, "task", "data.");
  r.input_shape = listAt<int64_t>(read, d, "input_shape", "data.", isInt,
                                  [](const c10::IValue& e) { return e.toInt(); }, "integers");
  r.outputs = read.integer(d, "outputs", "data.");
  r.class_names = listAt<std::string>(read, d, "class_names", "data.", isString,
                                      [](const c10::IValue& e) { return e.toStringRef(); },
                                      "strings");
  if (d.contains("feature_names"))
    r.feature_names = listAt<std::string>(read, d, "feature_names", "data.", isString,
                                          [](const c10::IValue& e) { return e.toStringRef(); },
                                          "strings");
  const c10::impl::GenericDict p = read.dict(d, "preprocessing", "data.");
  const std::string w = "data.preprocessing.";
  auto number = [](const c10::IValue& e) { return e.isInt() ? double(e.toInt()) : e.toDouble(); };
  Preprocessing& pre = r.preprocessing;
  pre.pixel_scale = read.number(p, "pixel_scale", w);
  pre.standardize = text(p, "standardize", w);
  pre.mean = listAt<double>(read, p, "mean", w, isNumber, number, "numbers");
  pre.std = listAt<double>(read, p, "std", w, isNumber, number, "numbers");
  pre.target_scale = read.number(p, "target_scale", w);
  return r;
}

/// The data to evaluate on, prepared as the checkpoint's run prepared its inputs.
PreparedData prepareData(const DataConfig& requested, const RecordedData& rec,
                         const std::string& file) {
  DataConfig c = withAbsolutePaths(requested);
  // Prepared on one intra-op thread, as the engine prepares a run's data (core/train/loop).
  const int threads = at::get_num_threads();
  at::set_num_threads(1);
  struct Restore {
    int n;
    ~Restore() { at::set_num_threads(n); }
  } restore{threads};
  if (!rec.present) return loadData(c);  // an older checkpoint: recompute the statistics
  c.standardize = false;
  c.target_scale = rec.preprocessing.target_scale;
  PreparedData data = loadData(c);
  const DataSummary& s = data.summary;
  if (s.input_shape != rec.input_shape || s.task != rec.task ||
      (s.task == "regression" && s.outputs != rec.outputs))
    throw Error(ErrorCode::Data, file,
                "the data does not fit the checkpoint " + file + ": it has " + s.task +
                    " samples of shape " + shapeText(s.input_shape) + " with " +
                    std::to_string(s.outputs) + " outputs, the model takes " + rec.task +
                    " samples of shape " + shapeText(rec.input_shape) + " with " +
                    std::to_string(rec.outputs) + " outputs");
  if (s.task == "classification" && s.class_names != rec.class_names) {
    std::string have, want;
    for (const auto& n : s.class_names) have += (have.empty() ? "" : ", ") + n;
    for (const auto& n : rec.class_names) want += (want.empty() ? "" : ", ") + n;
    throw Error(ErrorCode::Data, file,
                "the data's classes (" + have + ") differ from the checkpoint's (" + want + ")");
  }
  // Columns are matched by position: the same names in the same order, else a swapped, renamed
  // or differently one-hot-encoded table would be evaluated silently wrong.
  if (!rec.feature_names.empty() && s.feature_names != rec.feature_names) {
    auto list = [](const std::vector<std::string>& v) {
      std::string t;
      for (const auto& n : v) t += (t.empty() ? "" : ", ") + n;
      return t;
    };
    throw Error(ErrorCode::Data, file,
                "the data's features (" + list(s.feature_names) +
                    ") differ from those the checkpoint " + file + " was trained on (" +
                    list(rec.feature_names) +
                    "): the same columns in the same order are needed (one-hot columns: the "
                    "same categories)");
  }
  applyPreprocessing(data, rec.preprocessing);
  return data;
}

}  // namespace

EvaluationResult evaluateCheckpoint(const EvaluationRequest& request) {
  const std::filesystem::path file = std::filesystem::absolute(request.checkpoint);
  if (request.split != "train" && request.split != "val" && request.split != "test")
    throw Error(ErrorCode::Config, "--split",
                "--split must be train, val or test, got \"" + request.split + "\"");
  const CheckpointInfo info = inspectCheckpoint(file);
  const TrainConfig config = checkpointConfig(info);
  const RecordedData recorded = readRecordedData(file);
  const PreparedData data =
      prepareData(request.data ? *request.data : config.data, recorded, file.string());
  const TensorPair& split = request.split == "train" ? data.train
                            : request.split == "val" ? data.val
                                                     : data.test;
  if (split.size() == 0)
    throw Error(ErrorCode::Config, "--split",
                "the data has no " + request.split + " split (data.source \"" +
                    data.summary.source + "\"" +
                    (request.split == "test"
                         ? " has no test set here; test files are data.csv.test_path, the "
                           "arrays <x>_test and <y>_test of an .npz, data.idx.test_path, or a "
                           "test/ folder beside train/"
                         : "") +
                    ")");
  // The checkpoint's own data must be the files its run read: reordered rows would
  // move training samples into the validation split without a word.
  std::vector<std::string> changes;
  if (!request.data)
    changes = checkDataUnchanged(info.data_files, data.summary.files, "the checkpoint's run",
                                 request.allow_changed_data);
  ModelPtr model = buildModel(config.model, data.summary);
  importWeights(*model, file);
  model->eval();
  torch::NoGradGuard no_grad;

  EvaluationResult r;
  r.warnings = std::move(changes);
  r.checkpoint = file.string();
  r.split = request.split;
  r.task = data.summary.task;
  r.samples = split.size();
  const bool classification = data.classification;
  const int64_t k = data.summary.outputs;
  double loss_sum = 0;
  std::vector<at::Tensor> outputs;
  // Chunks as the run's validation pass takes them (evaluateSums): the same sums.
  const int64_t chunk = std::max<int64_t>({request.batch_size, config.training.batch_size, 1});
  for (int64_t start = 0; start < split.size(); start += chunk) {
    const TensorPair part = split.rows(start, std::min(chunk, split.size() - start));
    const at::Tensor out = model->forward(part.x).to(at::kFloat);
    loss_sum += classification
                    ? F::cross_entropy(out, part.y,
                                       F::CrossEntropyFuncOptions().reduction(torch::kSum))
                          .item<double>()
                    : F::mse_loss(out, part.y, F::MSELossFuncOptions().reduction(torch::kSum))
                              .item<double>() /
                          std::max<double>(1.0, static_cast<double>(out.numel()) /
                                                    static_cast<double>(part.size()));  // per target
    outputs.push_back(out);
  }
  r.loss = loss_sum / static_cast<double>(split.size());
  const at::Tensor all = at::cat(outputs).contiguous();
  if (classification) {
    const at::Tensor pred = all.argmax(1).contiguous();
    const at::Tensor truth = split.y.to(at::kCPU).contiguous();
    const int64_t* pp = pred.data_ptr<int64_t>();
    const int64_t* pt = truth.data_ptr<int64_t>();
    r.confusion.assign(k, std::vector<int64_t>(k, 0));
    int64_t correct = 0;
    for (int64_t i = 0; i < r.samples; ++i) {
      ++r.confusion[pt[i]][pp[i]];
      correct += pt[i] == pp[i];
      r.predicted_class.push_back(pp[i]);
    }
    r.accuracy = static_cast<double>(correct) / static_cast<double>(r.samples);
    // Per class, one against the rest, on the softmax probabilities (float32, as the model
    // gives them, widened: a CSV of these numbers gives scikit-learn the same values).
    const at::Tensor probs = at::softmax(all, 1).contiguous();
    const float* pr = probs.data_ptr<float>();
    r.scores.assign(pr, pr + probs.numel());
    r.true_class.assign(pt, pt + r.samples);
    const std::vector<ClassReport> reports =
        classReports(r.scores, r.true_class, r.predicted_class, k, /*curves=*/false);
    for (int64_t c = 0; c < k; ++c) {
      ClassMetrics m;
      static_cast<ClassReport&>(m) = reports[c];
      m.name = c < static_cast<int64_t>(data.summary.class_names.size())
                   ? data.summary.class_names[c]
                   : std::to_string(c);
      r.classes.push_back(std::move(m));
    }
  } else {
    const float* p = all.data_ptr<float>();
    r.predicted_value.assign(p, p + all.numel());
    const at::Tensor t = split.y.to(at::kCPU).to(at::kFloat).contiguous();
    r.target_value.assign(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
    // R^2, MAE and RMSE in target units, as the run's metrics.csv computes them.
    EvalSums sums;
    sums.count = r.samples;
    addRegressionSums(sums, all, t);
    const RegressionMetrics m = regressionMetrics(sums, data.summary.preprocessing.target_scale);
    r.r2 = m.r2;
    r.mae = m.mae;
    r.rmse = m.rmse;
  }
  const at::Tensor* index = request.split == "train" ? &data.split.train
                            : request.split == "val" ? &data.split.val
                                                     : nullptr;
  if (index && index->defined()) {
    const at::Tensor c = index->contiguous();
    r.sample_index.assign(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
  }
  return r;
}

}  // namespace trainscope

// evaluation.json: per-class metrics of each validation pass and the latest curves.
#include "core/train/loop/evaluation_file.h"

#include <ATen/ATen.h>

#include <cmath>

#include "core/data/dataset.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/run/class_metrics.h"
#include "core/run/epoch_thinning.h"
#include "core/run/json_fields.h"

namespace trainscope {
namespace {

/// `values` at the kept indices.
nlohmann::json pick(const std::vector<double>& values, const std::vector<std::size_t>& keep) {
  nlohmann::json a = nlohmann::json::array();
  for (std::size_t i : keep) a.push_back(i < values.size() ? jsonNumber(values[i]) : nullptr);
  return a;
}

/// Indices 0..m-1, or at most `most` of them evenly spaced with both ends.
std::vector<std::size_t> thinned(std::size_t m, std::size_t most) {
  std::vector<std::size_t> keep;
  if (m <= most) {
    for (std::size_t i = 0; i < m; ++i) keep.push_back(i);
    return keep;
  }
  for (std::size_t k = 0; k < most; ++k) {
    const auto i = static_cast<std::size_t>(std::llround(static_cast<double>(k) * (m - 1) / (most - 1)));
    if (keep.empty() || i != keep.back()) keep.push_back(i);
  }
  return keep;
}

nlohmann::json evaluationNumber(const std::optional<double>& v) {
  return v ? jsonNumber(*v) : nlohmann::json(nullptr);
}

}  // namespace

bool EvaluationFilePart::onValidationStart(int64_t epoch) {
  const PreparedData& data = host_.runData();
  if (!data.classification || data.val.size() == 0) return false;
  epoch_ = epoch;
  scores_.clear();
  labels_.clear();
  predicted_.clear();
  return true;
}

void EvaluationFilePart::onValidationBatch(int64_t, const at::Tensor& outputs,
                                           const at::Tensor& targets) {
  const at::Tensor out = outputs.detach().to(at::kCPU, at::kFloat);
  const at::Tensor probs = at::softmax(out, 1).contiguous();
  const at::Tensor pred = out.argmax(1).contiguous();
  const at::Tensor y = targets.to(at::kCPU, at::kLong).contiguous();
  scores_.insert(scores_.end(), probs.data_ptr<float>(), probs.data_ptr<float>() + probs.numel());
  labels_.insert(labels_.end(), y.data_ptr<int64_t>(), y.data_ptr<int64_t>() + y.numel());
  predicted_.insert(predicted_.end(), pred.data_ptr<int64_t>(), pred.data_ptr<int64_t>() + pred.numel());
}

void EvaluationFilePart::onValidationEnd() {
  const DataSummary& summary = host_.runData().summary;
  const int64_t k = summary.outputs;
  const std::vector<ClassReport> reports = classReports(scores_, labels_, predicted_, k, true);
  nlohmann::json classes = nlohmann::json::array();
  nlohmann::json curves = nlohmann::json::array();
  bool thin = false;
  for (std::size_t c = 0; c < reports.size(); ++c) {
    const ClassReport& r = reports[c];
    classes.push_back({{"support", r.support},
                       {"predicted", r.predicted},
                       {"precision", jsonNumber(r.precision)},
                       {"recall", jsonNumber(r.recall)},
                       {"f1", jsonNumber(r.f1)},
                       {"average_precision", evaluationNumber(r.average_precision)},
                       {"roc_auc", evaluationNumber(r.roc_auc)}});
    const std::vector<std::size_t> pr = thinned(r.pr.precision.size(), kMaxCurvePoints);
    const std::vector<std::size_t> roc = thinned(r.roc.fpr.size(), kMaxCurvePoints);
    thin = thin || pr.size() < r.pr.precision.size() || roc.size() < r.roc.fpr.size();
    // precision and recall have one more point than thresholds (the last has none): null
    curves.push_back({{"pr", {{"precision", pick(r.pr.precision, pr)},
                              {"recall", pick(r.pr.recall, pr)},
                              {"thresholds", pick(r.pr.thresholds, pr)}}},
                      {"roc", {{"fpr", pick(r.roc.fpr, roc)},
                               {"tpr", pick(r.roc.tpr, roc)},
                               {"thresholds", pick(r.roc.thresholds, roc)}}}});
  }
  appendThinned(epochs_,
                nlohmann::json{{"epoch", epoch_}, {"samples", labels_.size()}, {"classes", classes}},
                [](const nlohmann::json& e) { return e["epoch"].get<int64_t>(); }, kEpochs);
  curves_ = {{"epoch", epoch_}, {"thinned", thin}, {"max_points", kMaxCurvePoints},
             {"classes", curves}};
  unwritten_ = true;
  if (!written_ || secondsSince(*written_) >= kWriteSeconds) write();
}

void EvaluationFilePart::onStop(const RunSummary&) {
  if (unwritten_) write();
}

void EvaluationFilePart::write() {
  nlohmann::json j;
  j["split"] = "val";
  j["class_names"] = host_.runData().summary.class_names;
  j["epochs"] = epochs_;
  j["curves"] = curves_;
  written_ = SteadyClock::now();
  try {
    writeFileAtomic(file_, j.dump() + "\n");
    unwritten_ = false;
  } catch (const Error&) {
    // A derived file (evaluate recomputes it from a checkpoint): a full disk does not end the
    // run here; the next write tries again, and the run's own files say what failed.
  }
}

}  // namespace trainscope

// evaluation.json: per-class metrics of each validation pass and the latest curves.
#include "core/run/evaluation_file.h"

#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/run/epoch_thinning.h"
#include "core/run/json_fields.h"

namespace trainscope {
namespace {

/// `values`, then nulls up to `length` (a PR curve's last point has no threshold).
nlohmann::json evaluationArray(const std::vector<double>& values, std::size_t length) {
  nlohmann::json a = nlohmann::json::array();
  for (std::size_t i = 0; i < length; ++i)
    a.push_back(i < values.size() ? jsonNumber(values[i]) : nlohmann::json(nullptr));
  return a;
}

nlohmann::json evaluationNumber(const std::optional<double>& v) {
  return v ? jsonNumber(*v) : nlohmann::json(nullptr);
}

}  // namespace

void EvaluationFile::add(const ValidationDetail& detail) {
  nlohmann::json classes = nlohmann::json::array();
  nlohmann::json curves = nlohmann::json::array();
  for (const ClassReport& r : detail.classes) {
    classes.push_back({{"support", r.support},
                       {"predicted", r.predicted},
                       {"precision", jsonNumber(r.precision)},
                       {"recall", jsonNumber(r.recall)},
                       {"f1", jsonNumber(r.f1)},
                       {"average_precision", evaluationNumber(r.average_precision)},
                       {"roc_auc", evaluationNumber(r.roc_auc)}});
    const std::size_t pr = r.pr.precision.size(), roc = r.roc.fpr.size();
    curves.push_back({{"pr",
                       {{"precision", evaluationArray(r.pr.precision, pr)},
                        {"recall", evaluationArray(r.pr.recall, pr)},
                        {"thresholds", evaluationArray(r.pr.thresholds, pr)}}},
                      {"roc",
                       {{"fpr", evaluationArray(r.roc.fpr, roc)},
                        {"tpr", evaluationArray(r.roc.tpr, roc)},
                        {"thresholds", evaluationArray(r.roc.thresholds, roc)}}}});
  }
  appendThinned(
      epochs_,
      nlohmann::json{{"epoch", detail.epoch}, {"samples", detail.samples}, {"classes", classes}},
      [](const nlohmann::json& e) { return e["epoch"].get<int64_t>(); }, kEpochs);
  curves_ = {{"epoch", detail.epoch},
             {"thinned", detail.curves_thinned},
             {"max_points", ValidationDetail::kMaxCurvePoints},
             {"classes", curves}};
  unwritten_ = true;
  if (!written_ || secondsSince(*written_) >= kWriteSeconds) write();
}

void EvaluationFile::flush() {
  if (unwritten_) write();
}

void EvaluationFile::write() {
  nlohmann::json j;
  j["split"] = "val";
  j["class_names"] = class_names_;
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

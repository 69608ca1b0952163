#pragma once
/// evaluation.json (issue 49 §1): after each validation pass of a classification run, the
/// per-class precision, recall, F1, support, average precision and ROC AUC (one class against
/// the rest, on the softmax probabilities; core/run/class_metrics.h, scikit-learn's
/// definitions) of the epochs so far (every epoch up to kEpochs, then thinned as
/// core/run/epoch_thinning.h keeps a series: the file stays bounded however long the run), and
/// the precision-recall and ROC curves of the latest one; rewritten atomically at most every
/// kWriteSeconds and when the run ends (a run of many short epochs is not slowed by it); a
/// write that fails (a full disk) is tried again later and never ends the run.
/// Include only from core/train/loop (torch types).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/system/clock.h"
#include "core/train/loop/trainer_part.h"

namespace trainscope {

/// The trainer part that writes `run_dir`/evaluation.json.
class EvaluationFilePart : public TrainerPart {
 public:
  /// Curves of more points than this are thinned to it (evenly by index, both ends kept;
  /// "thinned" says so): 10 classes x 2 curves x 1,000 points stay near 1 MB.
  static constexpr std::size_t kMaxCurvePoints = 1000;
  static constexpr std::size_t kEpochs = 1000;
  static constexpr double kWriteSeconds = 2.0;

  EvaluationFilePart(PartHost& host, std::filesystem::path run_dir)
      : host_(host), file_(std::move(run_dir) / "evaluation.json") {}
  bool onValidationStart(int64_t epoch) override;
  void onValidationBatch(int64_t first, const at::Tensor& outputs,
                         const at::Tensor& targets) override;
  void onValidationEnd() override;
  void onStop(const RunSummary&) override;

 private:
  PartHost& host_;
  std::filesystem::path file_;
  int64_t epoch_ = 0;
  std::vector<double> scores_;  ///< [n * classes] softmax probabilities of this pass
  std::vector<int64_t> labels_, predicted_;
  std::vector<nlohmann::json> epochs_;  ///< per epoch, thinned past kEpochs
  nlohmann::json curves_;               ///< the latest epoch's
  bool unwritten_ = false;
  std::optional<SteadyClock::time_point> written_;
  void write();
};

}  // namespace trainscope

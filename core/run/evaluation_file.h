#pragma once
/// evaluation.json (issue 49 §1): after each validation pass of a classification run, the
/// per-class precision, recall, F1, support, average precision and ROC AUC (one class against
/// the rest, on the softmax probabilities; core/run/class_metrics.h, scikit-learn's
/// definitions) of the epochs so far (every epoch up to kEpochs, then thinned as
/// core/run/epoch_thinning.h keeps a series: the file stays bounded however long the run), and
/// the precision-recall and ROC curves of the latest one (ValidationDetail's, thinned to its
/// kMaxCurvePoints); rewritten atomically at most every kWriteSeconds and at flush() (a run of
/// many short epochs is not slowed by it); a write that fails (a full disk) is tried again
/// later and never ends the run. Torch-free.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/run/records.h"
#include "core/system/clock.h"

namespace trainscope {

class EvaluationFile {
 public:
  static constexpr std::size_t kEpochs = 1000;
  static constexpr double kWriteSeconds = 2.0;

  /// Writes `run_dir`/evaluation.json for a task of `class_names` (output order).
  EvaluationFile(const std::filesystem::path& run_dir, std::vector<std::string> class_names)
      : file_(run_dir / "evaluation.json"), class_names_(std::move(class_names)) {}
  /// Adds a classification pass (ValidationDetail::classes filled); writes when kWriteSeconds
  /// have passed since the last write.
  void add(const ValidationDetail& detail);
  /// Writes what add() left unwritten (the run's end).
  void flush();

 private:
  std::filesystem::path file_;
  std::vector<std::string> class_names_;
  std::vector<nlohmann::json> epochs_;  ///< per epoch, thinned past kEpochs
  nlohmann::json curves_;               ///< the latest epoch's
  bool unwritten_ = false;
  std::optional<SteadyClock::time_point> written_;
  void write();
};

}  // namespace trainscope

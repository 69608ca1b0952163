#pragma once
/// Collects a ValidationDetail (core/run/records.h) from the chunks of an evaluation pass
/// (evaluateSums' EvalChunkSink): for classification the confusion matrix with each cell's
/// first samples, the worst-predicted samples, the per-class report with its PR and ROC curves
/// and the threshold counts; for regression predicted against true values.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "core/data/dataset.h"
#include "core/run/records.h"

namespace trainscope {

/// Fed every chunk of one pass over `data.val` in split order; finish() gives the detail.
class ValidationDetailCollector {
 public:
  /// `data` must outlive the collector; `epoch` is written into the detail. Without `samples`
  /// the worst samples and the cells' samples are left out (the run folder's files need only
  /// the numbers).
  ValidationDetailCollector(const PreparedData& data, int64_t epoch, bool samples = true);
  /// Rows [start, start + out.size(0)) of the validation split: outputs float32 [B, outputs],
  /// targets int64 [B] (classification) or float32 [B, K].
  void add(int64_t start, const at::Tensor& out, const at::Tensor& y);
  /// The detail, worst samples highest loss first (ties: lower position first) and the cells'
  /// samples with their raw values (pixels 0-255, or table values with the standardisation
  /// undone); the per-class reports computed here, once per pass (one sort per class).
  ValidationDetail finish();

 private:
  const PreparedData& data_;
  ValidationDetail detail_;
  bool samples_ = true;
  int64_t cell_limit_ = 0;      ///< samples kept per confusion cell
  std::vector<double> scores_;  ///< [n * classes] softmax probabilities, split order
  std::vector<int64_t> labels_, predicted_;
  std::vector<std::pair<double, int64_t>> worst_;  ///< (loss, position), at most kWorstSamples
  std::vector<WorstSample> worst_samples_;         ///< parallel to worst_ until finish()
};

/// The validation sample at `position` as the user gave it (see WorstSample::raw).
std::vector<float> rawValidationSample(const PreparedData& data, int64_t position);

}  // namespace trainscope

#pragma once
/// Collects a ValidationDetail (core/run/records.h) from the chunks of an evaluation pass
/// (evaluateSums' EvalChunkSink): the confusion matrix and the worst-predicted samples for
/// classification, predicted against true values for regression.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "core/data/dataset.h"
#include "core/run/records.h"

namespace trainscope {

/// Fed every chunk of one pass over `data.val` in split order; finish() gives the detail.
class ValidationDetailCollector {
 public:
  /// `data` must outlive the collector; `epoch` is written into the detail.
  ValidationDetailCollector(const PreparedData& data, int64_t epoch);
  /// Rows [start, start + out.size(0)) of the validation split: outputs float32 [B, outputs],
  /// targets int64 [B] (classification) or float32 [B, K].
  void add(int64_t start, const at::Tensor& out, const at::Tensor& y);
  /// The detail, worst samples highest loss first (ties: lower position first) with their raw
  /// values (pixels 0-255, or table values with the standardisation undone).
  ValidationDetail finish();

 private:
  const PreparedData& data_;
  ValidationDetail detail_;
  std::vector<std::pair<double, int64_t>> worst_;  ///< (loss, position), at most kWorstSamples
  std::vector<WorstSample> worst_samples_;         ///< parallel to worst_ until finish()
};

/// The validation sample at `position` as the user gave it (see WorstSample::raw).
std::vector<float> rawValidationSample(const PreparedData& data, int64_t position);

}  // namespace trainscope

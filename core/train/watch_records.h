#pragma once
/// Records of the gradient watch (issue 11): per-layer statistics and the loss doctor's
/// diagnosis. Plain copyable structs, torch-free, like records.h (which includes this file).
#include <cstdint>
#include <string>
#include <vector>

namespace trainscope {

/// Per-parameter-tensor statistics of one step (layers.csv row), every
/// training.layer_stats_every steps.
struct LayerStatsRecord {
  int64_t step = 0;   ///< the global step measured (1-based)
  int64_t epoch = 0;  ///< 1-based epoch of that step
  /// Parameter tensors in state_dict order, named as in the state_dict ("0.weight", "0.bias").
  std::vector<std::string> names;
  /// L2 norm of each tensor's gradient before clipping (a slice of the flat gradient buffer):
  /// the squares sum to grad_norm^2 of the step when norm_type is 2.
  std::vector<double> grad_norm;
  /// ||w_after - w_before|| / ||w_before|| per tensor for this step's optimizer update (a plain
  /// ratio; front ends draw log10 of it, healthy around 1e-3). NaN when the step was not applied
  /// or ||w_before|| is 0.
  std::vector<double> update_ratio;
};

/// The loss doctor's reading of a run (core/train/monitors/loss_doctor.h); summary.json
/// `diagnosis`.
struct Diagnosis {
  /// "diverging" | "flat" | "plateau" | "overfitting" | "healthy" | "too_early"
  std::string kind = "too_early";
  int64_t epoch = 0;                  ///< the last epoch the diagnosis looked at
  std::string summary;                ///< one English sentence
  std::vector<std::string> evidence;  ///< English, with the run's numbers
  std::vector<std::string> checks;    ///< what to check, most likely first (English)
};

}  // namespace trainscope

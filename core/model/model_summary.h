#pragma once
/// What a run's model is, as plain values (run.json `model`). Torch-free.
#include <cstdint>
#include <string>

namespace trainscope {

/// The model of a run.
struct ModelSummary {
  std::string description;  ///< e.g. "Linear(784->256) ReLU Linear(256->128) ReLU Linear(128->10)"
  int64_t parameter_count = 0;  ///< trainable scalars
};

}  // namespace trainscope

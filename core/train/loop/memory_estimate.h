#pragma once
/// The CPU memory estimate a run checks before its first step (core/train/loop/memory_check.h):
/// parameters, gradients, optimizer state, activations and data. Torch-free.
#include <cstdint>
#include <string>
#include <vector>

#include "core/system/memory.h"

namespace trainscope {

/// What a run needs on the CPU, in bytes (float32 everywhere).
struct MemoryEstimate {
  int64_t parameters = 0;       ///< parameters (4 bytes each)
  int64_t gradients = 0;        ///< the flat gradient buffer (same size)
  int64_t optimizer_state = 0;  ///< OptimizerKind::state_buffers x the parameters
  int64_t activations = 0;      ///< forward outputs kept for backward, and their gradients
  int64_t data = 0;             ///< the loaded splits (inputs + targets)
  int64_t total() const { return parameters + gradients + optimizer_state + activations + data; }
};

/// Estimates the memory of a model of `footprint` trained in batches of `batch_size` with
/// the optimizer named `optimizer` with `momentum` (its state buffers: core/config/kinds.h;
/// 2, as Adam, for an unknown name), `data_bytes` of loaded data.
MemoryEstimate estimateFootprintMemory(const ModelFootprint& footprint, int64_t batch_size,
                              const std::string& optimizer, double momentum, int64_t data_bytes);
/// estimateFootprintMemory(mlpFootprint(layer_widths), ...).
MemoryEstimate estimateMemory(const std::vector<int64_t>& layer_widths, int64_t batch_size,
                              const std::string& optimizer, double momentum, int64_t data_bytes);

/// English warning when `estimate` exceeds `available` bytes, else empty: names both sizes,
/// the largest part and what to do (smaller batch_size with grad_accum_steps, smaller model).
std::string memoryWarning(const MemoryEstimate& estimate, int64_t available);

}  // namespace trainscope

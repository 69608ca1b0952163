#pragma once
/// The CPU memory check a run makes before its first step (issue "batch too big"). Internal to
/// core (PreparedData holds tensors).
#include <optional>

#include "core/config/config_fwd.h"
#include "core/data/dataset.h"
#include "core/run/records.h"

namespace trainscope {

/// Estimates parameters + gradients + optimizer state + one micro-batch's activations + the
/// loaded data (memory_estimate.h estimateMemory) into `estimate_bytes`, and returns a
/// "memory_warning" event (step 0, what "memory", value = estimated bytes) when that exceeds
/// MemAvailable. nullopt when it fits or MemAvailable is unknown. On CUDA devices the check is
/// skipped (estimate 0): device memory is another budget. Throws Error(Config, "model.hidden"
/// or "training.batch_size", whichever part is larger) naming the estimate and the machine's
/// memory when the estimate exceeds all of it (MemTotal + SwapTotal): such a run cannot start,
/// and libtorch's allocator failure named nothing. Call before the model is built.
std::optional<Event> checkRunMemory(const TrainConfig& config, const PreparedData& data,
                                    int64_t& estimate_bytes);

}  // namespace trainscope

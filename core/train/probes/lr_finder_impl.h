#pragma once
/// The range test on an existing model (torch types, internal to core).
#include "core/model/model.h"

#include "core/data/dataset.h"
#include "core/train/probes/lr_finder.h"

namespace trainscope {

/// Runs the sweep on a deep copy of `model` (Module::clone) with a fresh optimizer of
/// `optimizer` over the copy (its buffers start empty, as a new optimizer's), drawing batches
/// of `batch_size` from `train` with its own generator seeded by `seed`, in train mode. The
/// global torch generator (dropout) is saved and restored, so `model`, any optimizer over it
/// and every RNG state are left bit for bit as they were. Loss: cross_entropy or mse_loss.
LrFinderResult runLrFinder(const Model& model, const OptimizerConfig& optimizer,
                           const TensorPair& train, bool classification, int64_t batch_size,
                           uint64_t seed, const LrFinderOptions& options);

}  // namespace trainscope

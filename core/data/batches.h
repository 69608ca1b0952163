#pragma once
/// How many batches and optimizer steps one epoch has: the trainer's BatchIterator, the run
/// follower and the dashboard all count them here. Torch-free, header-only.
#include <cstdint>

namespace trainscope {

/// The (micro-)batches of one epoch over `n_samples` training samples, as BatchIterator makes
/// them: each of `world_size` ranks takes ceil(n_samples / world_size) samples (PyTorch's
/// DistributedSampler without drop_last pads the last rank), in batches of `batch_size`, the
/// last one partial (DataLoader's drop_last=False) or, with `drop_last`, left out when it is
/// smaller than batch_size (DataLoader's drop_last=True). 0 when batch_size or world_size is
/// below 1.
inline int64_t batchesPerEpoch(int64_t n_samples, int64_t batch_size, int64_t world_size = 1,
                               bool drop_last = false) {
  if (batch_size < 1 || world_size < 1 || n_samples < 1) return 0;
  const int64_t per_rank = world_size > 1 ? (n_samples + world_size - 1) / world_size : n_samples;
  return drop_last ? per_rank / batch_size : (per_rank + batch_size - 1) / batch_size;
}

/// The samples of the last batch of an epoch (as batchesPerEpoch counts them); 0 when there
/// are no batches.
inline int64_t lastBatchSize(int64_t n_samples, int64_t batch_size, int64_t world_size = 1,
                             bool drop_last = false) {
  const int64_t batches = batchesPerEpoch(n_samples, batch_size, world_size, drop_last);
  if (batches == 0) return 0;
  const int64_t per_rank = world_size > 1 ? (n_samples + world_size - 1) / world_size : n_samples;
  return drop_last ? batch_size : per_rank - (batches - 1) * batch_size;
}

/// The optimizer steps of an epoch of `batches` micro-batches with `grad_accum_steps` of them
/// per step (training.grad_accum_steps; a last partial group still steps).
inline int64_t optimizerStepsPerEpoch(int64_t batches, int64_t grad_accum_steps) {
  if (grad_accum_steps < 1) return batches;
  return (batches + grad_accum_steps - 1) / grad_accum_steps;
}

}  // namespace trainscope

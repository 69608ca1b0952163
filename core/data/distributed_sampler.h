#pragma once
/// Which samples each rank of a data-parallel run takes (torch.utils.data.DistributedSampler).
/// Internal to core (torch types).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <utility>

namespace trainscope {

/// The indices rank `rank` of `world_size` takes from one epoch's `order` (int64 [N], the
/// permutation every rank drew alike), as torch.utils.data.DistributedSampler(drop_last=False)
/// takes them from its own permutation: the order is padded to a multiple of world_size by
/// repeating its first indices (cycled when more are needed than N), then the rank takes every
/// world_size-th index starting at `rank`. Returns int64 [ceil(N / world_size)]; every rank gets
/// the same count. Throws Error(Internal) for rank outside [0, world_size) or an empty order.
at::Tensor distributedSamplerIndices(const at::Tensor& order, int64_t rank, int64_t world_size);

/// Rows [first, first + count) of an evaluation split of `n` rows for `rank`: contiguous, without
/// padding, sizes differing by at most one (every sample counted once over all ranks).
std::pair<int64_t, int64_t> evaluationShard(int64_t n, int64_t rank, int64_t world_size);

}  // namespace trainscope

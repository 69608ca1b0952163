#include "core/data/distributed_sampler.h"

#include <ATen/ATen.h>

#include "core/errors.h"

namespace trainscope {

at::Tensor distributedSamplerIndices(const at::Tensor& order, int64_t rank, int64_t world_size) {
  const int64_t n = order.numel();
  if (world_size < 1 || rank < 0 || rank >= world_size || n == 0)
    throw Error(ErrorCode::Internal, "",
                "distributedSamplerIndices: rank " + std::to_string(rank) + " of " +
                    std::to_string(world_size) + " over " + std::to_string(n) + " samples");
  // DistributedSampler.__iter__: num_samples = ceil(n / world); total = num_samples * world;
  // indices += (indices * ceil(padding / n))[:padding]; indices[rank:total:world].
  const int64_t per_rank = (n + world_size - 1) / world_size;
  const int64_t total = per_rank * world_size;
  at::Tensor flat = order.reshape({n}).to(at::kLong);
  at::Tensor padded = flat;
  if (total > n) {
    const int64_t padding = total - n;
    const int64_t repeats = (padding + n - 1) / n;
    padded = at::cat({flat, flat.repeat({repeats}).narrow(0, 0, padding)});
  }
  return padded.narrow(0, rank, total - rank).slice(0, 0, c10::nullopt, world_size).contiguous();
}

std::pair<int64_t, int64_t> evaluationShard(int64_t n, int64_t rank, int64_t world_size) {
  const int64_t first = n * rank / world_size;
  const int64_t end = n * (rank + 1) / world_size;
  return {first, end - first};
}

}  // namespace trainscope

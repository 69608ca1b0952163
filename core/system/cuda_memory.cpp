#include "core/system/cuda_memory.h"

#include <c10/util/Exception.h>

#if TRAINSCOPE_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <cuda_runtime_api.h>

#include "core/system/torch_compat.h"
#endif

namespace trainscope {

bool cudaRuntimeBuilt() { return TRAINSCOPE_CUDA != 0; }

std::optional<CudaMemory> cudaMemory([[maybe_unused]] int index) {
#if TRAINSCOPE_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || index < 0 || index >= count) return std::nullopt;
  CudaMemory m;
  const auto stats = compat::cudaDeviceStats(index);
  m.allocated = stats.allocated_bytes[0].current;  // StatType::AGGREGATE
  m.reserved = stats.reserved_bytes[0].current;
  int previous = 0;
  cudaGetDevice(&previous);
  cudaSetDevice(index);
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
    m.total = static_cast<int64_t>(total_bytes);
  cudaSetDevice(previous);
  return m;
#else
  return std::nullopt;
#endif
}

bool isCudaOutOfMemory([[maybe_unused]] const std::exception& error) {
#if TRAINSCOPE_CUDA
  if (dynamic_cast<const c10::OutOfMemoryError*>(&error)) return true;
  return std::string(error.what()).find("CUDA out of memory") != std::string::npos;
#else
  return false;
#endif
}

std::string outOfMemoryAdvice(int64_t batch_size, int64_t accum) {
  const int64_t half = std::max<int64_t>(1, batch_size / 2);
  return "CUDA ran out of memory during a training step; the run is paused. Start again with "
         "training.batch_size " +
         std::to_string(half) + " and training.grad_accum_steps " + std::to_string(accum * 2) +
         " (the same " + std::to_string(half * accum * 2) +
         " samples per optimizer step), or a smaller model.";
}

}  // namespace trainscope

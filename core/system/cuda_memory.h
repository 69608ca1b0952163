#pragma once
/// CUDA memory statistics and out-of-memory detection: the only code that needs the CUDA
/// runtime. Compiled for real only with the CMake option TRAINSCOPE_CUDA=ON (a libtorch built
/// with CUDA, found through CMAKE_PREFIX_PATH; scripts/gpu-check); otherwise the functions
/// answer "not available". Untested on the CPU-only development machine: scripts/gpu-check
/// runs tests/core/tst_cuda.cpp where a GPU exists. Torch-free header.
#include <cstdint>
#include <exception>
#include <optional>
#include <string>

namespace trainscope {

/// Memory of one CUDA device, bytes: allocated by tensors, reserved by the caching allocator
/// (torch.cuda.memory_allocated / memory_reserved), and the device's total (cudaMemGetInfo).
struct CudaMemory {
  int64_t allocated = 0;
  int64_t reserved = 0;
  int64_t total = 0;
};

/// True when this build has the CUDA runtime parts (TRAINSCOPE_CUDA).
bool cudaRuntimeBuilt();

/// The memory of device `index`; nullopt without TRAINSCOPE_CUDA or without that device.
std::optional<CudaMemory> cudaMemory(int index);

/// True when `error` is libtorch's CUDA out-of-memory error (c10::OutOfMemoryError, "CUDA out
/// of memory"). Always false without TRAINSCOPE_CUDA: a CPU allocation failure is not caught.
bool isCudaOutOfMemory(const std::exception& error);

/// English explanation for a CUDA out-of-memory pause, offering the two remedies: halve
/// training.batch_size (to `batch_size` / 2) with training.grad_accum_steps doubled (to
/// 2 x `accum`), which keeps the effective batch.
std::string outOfMemoryAdvice(int64_t batch_size, int64_t accum);

}  // namespace trainscope

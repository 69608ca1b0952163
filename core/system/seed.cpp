#include "core/system/seed.h"

#include <ATen/Context.h>
#include <stdlib.h>
#include <torch/utils.h>

#include <cstdlib>
#include <random>

namespace trainscope {

int64_t drawSeed() {
  std::random_device rd;
  std::uniform_int_distribution<int64_t> dist(0, kMaxSeed);
  return dist(rd);
}

void seedEverything(int64_t seed) {
  std::srand(static_cast<unsigned>(seed));
  torch::manual_seed(static_cast<uint64_t>(seed));  // CPU and all CUDA generators
}

void setDeterministic(bool on, bool cuda) {
  at::globalContext().setDeterministicAlgorithms(on, /*warn_only=*/false);
  if (cuda) {
    // cuBLAS is deterministic only with a fixed workspace (PyTorch's reproducibility notes);
    // read when the first cuBLAS handle is created. A user's own setting wins.
    if (on) setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8", /*overwrite=*/0);
    at::globalContext().setDeterministicCuDNN(on);
    if (on) at::globalContext().setBenchmarkCuDNN(false);
  }
}

}  // namespace trainscope

#include "core/system/seed.h"

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

}  // namespace trainscope

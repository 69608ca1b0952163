#include "core/train/teaching/mistakes.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/randperm.h>

#include "core/data/dataset.h"

namespace trainscope {

void shuffleLabels(TensorPair& split, int64_t seed) {
  if (split.size() < 2) return;
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(
      static_cast<uint64_t>(seed) ^ 0x1ABE15ULL);
  const at::Tensor perm = at::randperm(split.size(), gen, at::TensorOptions().dtype(at::kLong));
  split.y = split.y.index_select(0, perm.to(split.y.device()));
}

}  // namespace trainscope

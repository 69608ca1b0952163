#pragma once
/// The injected mistakes' tensor work (teaching.mistakes; names and parsing:
/// core/config/mistakes.h).
#include <cstdint>

#include "core/config/mistakes.h"

namespace trainscope {

struct TensorPair;
/// teaching.mistakes shuffled_labels: permutes `split`'s targets (y) against its inputs with a
/// permutation drawn from its own generator seeded from `seed` (the global generator is not
/// touched, so the run's initial weights and dropout stay those of the same run without it).
void shuffleLabels(TensorPair& split, int64_t seed);

}  // namespace trainscope

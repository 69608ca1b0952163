#pragma once
/// The trials of a sweep: the grid and seeded random sampling. Torch-free.
#include <cstdint>
#include <string>
#include <vector>

#include "core/sweep/sweep_file.h"

namespace trainscope {

/// The trials a sweep runs, and what the sampler wants said about them.
struct SweepPlan {
  std::vector<TrialValues> trials;
  std::string note;  ///< e.g. "the space has 6 configurations: max_trials 8 capped at 6"
};

/// Every combination of the (discrete) parameters in scikit-learn's ParameterGrid order: keys
/// sorted, the last key varying fastest, each key's values in the file's order (int_uniform:
/// low to high). The first spec.max_trials of them (the note says when that leaves some out).
SweepPlan gridTrials(const SweepSpec& spec);

/// spec.max_trials trials drawn with a generator seeded by spec.seed (the same file and seed
/// give the same trials on every machine: a 64-bit Mersenne Twister and our own conversion to
/// [0, 1)). Uniform: low + u (high - low); log_uniform: exp(ln low + u (ln high - ln low));
/// int_uniform: low + floor(u (high - low + 1)), both ends included; choices: one of them,
/// equally likely. When every parameter is discrete, without replacement: no configuration
/// runs twice, and a budget above the space's size is capped at it (said in the note).
SweepPlan randomTrials(const SweepSpec& spec);

/// gridTrials or randomTrials, by spec.method.
SweepPlan planTrials(const SweepSpec& spec);

}  // namespace trainscope

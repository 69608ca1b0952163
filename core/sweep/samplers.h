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
  /// Each trial's configuration (its values without the seeds): an index into the
  /// configurations drawn, the same for the spec.seeds trials of one configuration.
  std::vector<int64_t> configs;
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

/// gridTrials or randomTrials, by spec.method (none for tpe: its trials are asked of Optuna one
/// by one as the sweep runs); with spec.seeds > 1 each configuration is
/// repeated spec.seeds times, trial k of it with training.seed = S + k (S the base's
/// training.seed, 0 when the base draws one) and, with spec.seeds_data, data.seed = the base's
/// data.seed + k; max_trials counts configurations.
SweepPlan planTrials(const SweepSpec& spec);

}  // namespace trainscope

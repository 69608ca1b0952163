#pragma once
/// What differs between two configs, key by key (for the "previous run" ghost curve's label and
/// run comparison). Torch-free, JSON-free.
#include <string>
#include <vector>

#include "core/config/config_fwd.h"

namespace trainscope {

/// One key whose value differs, values as config JSON text ("0", "0.3", "[64,64]", "null").
struct ConfigChange {
  std::string key;  ///< dotted config key, e.g. "model.dropout"
  std::string before;
  std::string after;
};

/// The keys whose values differ between `before` and `after`, sorted by key; `name` is
/// left out (it only names the run directory).
std::vector<ConfigChange> configChanges(const TrainConfig& before, const TrainConfig& after);

/// Whether the losses of runs of `a` and `b` can be drawn on one axis: the same data (source,
/// path, target scaling, standardisation) and so the same task and loss. Settings such as the
/// sample count, the model or the optimizer may differ: they are what a comparison shows.
bool comparableRuns(const TrainConfig& a, const TrainConfig& b);

}  // namespace trainscope

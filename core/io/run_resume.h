#pragma once
/// The start of a resumed run's CSV files (ARCHITECTURE §4): the source run's rows up to the
/// checkpoint's step. Torch-free.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/train/records.h"

namespace trainscope {

/// CSV rows (without header or line end) that a resumed run writes first.
struct RunPrefix {
  std::vector<std::string> metrics_rows;
  std::vector<std::string> step_rows;
  bool from_source = false;  ///< true when copied from the source run directory
};

/// The rows with step <= `step` of `source_dir`'s metrics.csv and steps.csv when that folder
/// still has both files with today's headers; otherwise metrics rows rebuilt from `history`
/// (the checkpoint's per-epoch records) and no step rows. Never throws for a missing source.
RunPrefix runPrefix(const std::filesystem::path& source_dir, int64_t step,
                    const std::vector<EpochRecord>& history);

}  // namespace trainscope

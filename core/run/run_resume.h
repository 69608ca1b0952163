#pragma once
/// The start of a resumed run's CSV files (ARCHITECTURE §4): the source run's rows up to the
/// checkpoint's step. Torch-free.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/run/records.h"

namespace trainscope {

/// CSV rows (without header or line end) that a resumed run writes first.
struct RunPrefix {
  std::vector<std::string> metrics_rows;
  std::vector<std::string> step_rows;
  /// The source's layers.csv header and its rows up to the step (empty when it has none).
  std::string layers_header;
  std::vector<std::string> layer_rows;
  bool from_source = false;  ///< true when copied from the source run directory
};

/// The rows with step <= `step` of `source_dir`'s metrics.csv and steps.csv when that folder
/// still has both files with today's headers (and of its layers.csv when it has one); otherwise
/// metrics rows rebuilt from `history` (the checkpoint's per-epoch records) and no step rows.
/// Rows a roll-back superseded are left out (each step once, see currentRows in run_reader.h).
/// Never throws for a missing source.
RunPrefix runPrefix(const std::filesystem::path& source_dir, int64_t step,
                    const std::vector<EpochRecord>& history);

/// The run directory a resume of `checkpoint` copies its first rows from: `recorded` (the
/// checkpoint's source_run_dir, absolute since checkpoints store it so) when it still holds
/// metrics.csv and steps.csv; else the checkpoint's folder's parent when the file lies in a
/// `checkpoints` folder (<run>/checkpoints/x.pt -> <run>: a run folder moved with its
/// checkpoints); else a relative `recorded` (older checkpoints) taken from the current
/// directory. Empty when none of these holds both files. Never throws.
std::filesystem::path findSourceRunDir(const std::string& recorded,
                                       const std::filesystem::path& checkpoint);

}  // namespace trainscope

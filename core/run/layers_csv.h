#pragma once
/// layers.csv of the run directory: columns `step`, then `<name>.grad_norm` and
/// `<name>.update_ratio` for each parameter tensor in state_dict order (layersCsvColumns,
/// core/run/csv_columns.h); one row every
/// training.layer_stats_every steps; appended and flushed line by line like steps.csv.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/io/line_file.h"
#include "core/run/records.h"

namespace trainscope {

/// The header line (no newline) for parameter tensors `names`.
std::string layersCsvHeader(const std::vector<std::string>& names);
/// One row (no newline); numbers as formatNumber writes them ("nan", "inf").
std::string toCsvRow(const LayerStatsRecord& r);

class LayersCsvWriter {
 public:
  /// Opens <dir>/layers.csv for appending and writes the header, then `prefix_rows` verbatim
  /// (a resumed run: its source run's rows, see io/run_resume.h). Throws Error(Io, path).
  LayersCsvWriter(const std::filesystem::path& dir, const std::vector<std::string>& names,
                  const std::vector<std::string>& prefix_rows = {});
  ~LayersCsvWriter();
  LayersCsvWriter(const LayersCsvWriter&) = delete;
  LayersCsvWriter& operator=(const LayersCsvWriter&) = delete;
  /// Appends and flushes one row. Throws Error(Io, path).
  void write(const LayerStatsRecord& r);

 private:
  LineFile file_;
};

}  // namespace trainscope

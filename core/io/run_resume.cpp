#include "core/io/run_resume.h"

#include <fstream>
#include <optional>

#include "core/io/number_format.h"
#include "core/train/records_json.h"

namespace trainscope {
namespace {

/// Rows of `file` whose `step` column is <= `step`, or nullopt when the file is missing, has
/// another header, or a row without a readable step.
std::optional<std::vector<std::string>> rowsUpTo(const std::filesystem::path& file,
                                                 const std::string& header, int64_t step) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  std::string line;
  if (!std::getline(in, line) || line != header) return std::nullopt;
  size_t column = 0;  // index of "step" in the header
  for (size_t pos = 0, i = 0;; ++i) {
    size_t comma = header.find(',', pos);
    if (header.substr(pos, comma - pos) == "step") {
      column = i;
      break;
    }
    if (comma == std::string::npos) return std::nullopt;
    pos = comma + 1;
  }
  std::vector<std::string> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    size_t pos = 0;
    for (size_t i = 0; i < column && pos != std::string::npos; ++i) {
      pos = line.find(',', pos);
      if (pos != std::string::npos) ++pos;
    }
    if (pos == std::string::npos) return std::nullopt;
    auto value = parseInteger(line.substr(pos, line.find(',', pos) - pos));
    if (!value) return std::nullopt;
    if (*value <= step) rows.push_back(line);
  }
  return rows;
}

}  // namespace

RunPrefix runPrefix(const std::filesystem::path& source_dir, int64_t step,
                    const std::vector<EpochRecord>& history) {
  RunPrefix p;
  if (!source_dir.empty()) {
    auto metrics = rowsUpTo(source_dir / "metrics.csv", metricsCsvHeader(), step);
    auto steps = rowsUpTo(source_dir / "steps.csv", stepsCsvHeader(), step);
    if (metrics && steps) {
      p.metrics_rows = std::move(*metrics);
      p.step_rows = std::move(*steps);
      p.from_source = true;
      return p;
    }
  }
  for (const EpochRecord& r : history) p.metrics_rows.push_back(toCsvRow(r));
  return p;
}

}  // namespace trainscope

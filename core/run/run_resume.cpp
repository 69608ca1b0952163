#include "core/run/run_resume.h"

#include <fstream>
#include <optional>
#include <sstream>

#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/system/number_format.h"
#include "core/run/records_json.h"
#include "core/run/run_reader.h"

namespace trainscope {
namespace {

/// Rows of `file` whose `step` column is <= `step`, each step once (the latest row written for
/// it, see currentRows), or nullopt when the file is missing, has another header than `header`
/// (any header with a "step" column when `header` is empty; `*header_out` receives it), or a
/// row without a readable step.
std::optional<std::vector<std::string>> rowsUpTo(const std::filesystem::path& file,
                                                 const std::string& header, int64_t step,
                                                 std::string* header_out = nullptr) {
  std::istringstream in;
  try {
    in.str(readRegularFile(file));  // never blocks on a FIFO
  } catch (const Error&) {
    return std::nullopt;
  }
  std::string line;
  if (!std::getline(in, line) || (!header.empty() && line != header)) return std::nullopt;
  if (header_out) *header_out = line;
  const std::string head = line;
  size_t column = 0;  // index of "step" in the header
  for (size_t pos = 0, i = 0;; ++i) {
    size_t comma = head.find(',', pos);
    if (head.substr(pos, comma - pos) == "step") {
      column = i;
      break;
    }
    if (comma == std::string::npos) return std::nullopt;
    pos = comma + 1;
  }
  std::vector<std::string> lines;
  std::vector<int64_t> steps;
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
    lines.push_back(line);
    steps.push_back(*value);
  }
  std::vector<std::string> rows;
  for (size_t i : currentRows(steps))
    if (steps[i] <= step) rows.push_back(lines[i]);
  return rows;
}

/// A folder with both CSV files a resume copies from.
bool hasRunFiles(const std::filesystem::path& dir) {
  std::error_code ec;
  return !dir.empty() && std::filesystem::is_regular_file(dir / "metrics.csv", ec) &&
         std::filesystem::is_regular_file(dir / "steps.csv", ec);
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
      if (auto layers = rowsUpTo(source_dir / "layers.csv", "", step, &p.layers_header))
        p.layer_rows = std::move(*layers);
      else
        p.layers_header.clear();
      return p;
    }
  }
  for (const EpochRecord& r : history) p.metrics_rows.push_back(toCsvRow(r));
  return p;
}

std::filesystem::path findSourceRunDir(const std::string& recorded,
                                       const std::filesystem::path& checkpoint) {
  namespace fs = std::filesystem;
  const fs::path source(recorded);
  if (source.is_absolute() && hasRunFiles(source)) return source;
  std::error_code ec;
  const fs::path folder = fs::absolute(checkpoint, ec).parent_path();
  if (!ec && folder.filename() == "checkpoints" && hasRunFiles(folder.parent_path()))
    return folder.parent_path();
  if (source.is_relative() && hasRunFiles(source)) return fs::absolute(source, ec);
  return {};
}

}  // namespace trainscope

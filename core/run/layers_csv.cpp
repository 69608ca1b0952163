#include "core/run/layers_csv.h"

#include <cerrno>
#include <cstring>

#include "core/errors.h"
#include "core/run/csv_columns.h"

namespace trainscope {

std::string layersCsvHeader(const std::vector<std::string>& names) {
  std::string h = "step";
  for (const auto& n : names)
    for (const LayerCsvColumn& c : layersCsvColumns()) h += "," + n + c.suffix;
  return h;
}

std::string toCsvRow(const LayerStatsRecord& r) {
  std::string row = csvCell(r.step);
  for (size_t i = 0; i < r.names.size(); ++i)
    for (const LayerCsvColumn& c : layersCsvColumns()) {
      const std::vector<double>& values = r.*c.member;
      row += "," + (i < values.size() ? csvCell(values[i]) : std::string());
    }
  return row;
}

LayersCsvWriter::LayersCsvWriter(const std::filesystem::path& dir,
                                 const std::vector<std::string>& names,
                                 const std::vector<std::string>& prefix_rows)
    : file_(dir / "layers.csv") {
  file_.append(layersCsvHeader(names));
  for (const std::string& row : prefix_rows) file_.append(row);
}

LayersCsvWriter::~LayersCsvWriter() = default;

void LayersCsvWriter::write(const LayerStatsRecord& r) { file_.append(toCsvRow(r)); }

}  // namespace trainscope

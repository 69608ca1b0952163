#include "core/run/layers_csv.h"

#include <cerrno>
#include <cstring>

#include "core/errors.h"
#include "core/io/number_format.h"

namespace trainscope {

std::string layersCsvHeader(const std::vector<std::string>& names) {
  std::string h = "step";
  for (const auto& n : names) h += "," + n + ".grad_norm," + n + ".update_ratio";
  return h;
}

std::string toCsvRow(const LayerStatsRecord& r) {
  std::string row = std::to_string(r.step);
  for (size_t i = 0; i < r.names.size(); ++i) {
    row += "," + (i < r.grad_norm.size() ? formatNumber(r.grad_norm[i]) : std::string());
    row += "," + (i < r.update_ratio.size() ? formatNumber(r.update_ratio[i]) : std::string());
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

#include "core/io/layers_csv.h"

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
    : path_(dir / "layers.csv") {
  file_ = std::fopen(path_.c_str(), "a");
  if (!file_)
    throw Error(ErrorCode::Io, path_.string(),
                "cannot open " + path_.string() + ": " + std::strerror(errno));
  append(layersCsvHeader(names));
  for (const std::string& row : prefix_rows) append(row);
}

LayersCsvWriter::~LayersCsvWriter() {
  if (file_) std::fclose(file_);
}

void LayersCsvWriter::write(const LayerStatsRecord& r) { append(toCsvRow(r)); }

void LayersCsvWriter::append(const std::string& line) {
  if (std::fputs(line.c_str(), file_) < 0 || std::fputc('\n', file_) == EOF ||
      std::fflush(file_) != 0)
    throw Error(ErrorCode::Io, path_.string(),
                "cannot write " + path_.string() + ": " + std::strerror(errno));
}

}  // namespace trainscope

#include "core/data/split_record.h"

#include <ATen/ATen.h>

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/data/data_fingerprint.h"
#include "core/data/dataset.h"

namespace trainscope {
namespace {

nlohmann::json indexList(const at::Tensor& idx) {
  if (!idx.defined()) return nullptr;
  at::Tensor c = idx.to(at::kCPU).contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}

nlohmann::json fileOrNull(const std::string& f) {
  return f.empty() ? nlohmann::json(nullptr) : nlohmann::json(f);
}

}  // namespace

nlohmann::json splitJson(const PreparedData& data, const DataConfig& config) {
  const SplitIndices& s = data.split;
  std::string numbering;
  if (config.source == "csv")
    numbering = "data rows of pool_file, 0-based, header excluded";
  else if (!s.pool_names.empty())
    numbering = "positions in files, 0-based";
  else if (dataSource(config.source).read_from_files)
    numbering = "samples of pool_file in file order, 0-based";
  else
    numbering = "samples in generation order (data.seed), 0-based";
  nlohmann::json j = {{"format", 1},
                      {"source", config.source},
                      {"numbering", numbering},
                      {"pool_file", fileOrNull(s.pool_file)},
                      {"data_seed", config.seed},
                      {"val_fraction", config.val_fraction},
                      {"limit", config.limit ? nlohmann::json(*config.limit) : nullptr},
                      {"train", indexList(s.train)},
                      {"val", indexList(s.val)},
                      {"val_file", fileOrNull(s.val_file)},
                      {"test_file", fileOrNull(s.test_file)}};
  if (!s.pool_names.empty()) j["files"] = s.pool_names;
  // What the indices index: check it before using them, e.g. in Python
  // hashlib.sha256(open(f["path"], "rb").read()).hexdigest() == f["sha256"].
  j["data_files"] = data.summary.files;
  return j;
}

}  // namespace trainscope

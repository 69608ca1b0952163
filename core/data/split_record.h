#pragma once
/// split.json: which samples of the source each split of a run holds, written once per run next
/// to run.json so Python can evaluate on exactly the validation samples TrainScope used.
#include <nlohmann/json.hpp>

#include "core/config/config_fwd.h"

namespace trainscope {

struct PreparedData;

/// The split.json object of `data` prepared from `config`:
/// {"format": 1, "source", "numbering": how indices count the source's samples, "pool_file",
///  "files": image files relative to the root (image folders only), "data_seed", "val_fraction",
///  "limit", "train": [indices], "val": [indices] or null, "val_file", "test_file"}.
/// Indices are 0-based and in the order the splits hold their samples (CSV: data rows of
/// pool_file, header excluded, as pandas.read_csv(...).iloc[] counts them).
nlohmann::json splitJson(const PreparedData& data, const DataConfig& config);

}  // namespace trainscope

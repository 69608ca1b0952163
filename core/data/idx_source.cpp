// The "idx" data source: an IDX pair to a pool and an optional test split.
#include "core/data/idx_source.h"

#include <ATen/ATen.h>

#include "core/config/train_config.h"
#include "core/data/array_source.h"
#include "core/data/idx_reader.h"
#include "core/data/sources.h"
#include "core/errors.h"

namespace trainscope {

void loadIdxSource(const DataConfig& config, SourceData& out) {
  const IdxConfig& c = config.idx;
  if (!c.path)
    throw Error(ErrorCode::Config, "data.idx.path", "data.source is idx: set data.idx.path");
  if (!c.y_path)
    throw Error(ErrorCode::Config, "data.idx.y_path",
                "data.source is idx: set data.idx.y_path to the IDX file of the labels");
  auto read = [](const std::string& x, const std::string& y) {
    return ArraySplit{readIdxArray(x), readIdxArray(y), "IDX file " + x, "IDX file " + y, x};
  };
  const ArraySplit train = read(*c.path, *c.y_path);
  std::optional<ArraySplit> test;
  if (c.test_path && c.test_y_path) test = read(*c.test_path, *c.test_y_path);
  arraysToSource(train, std::nullopt, test, c.task, "data.idx.task", out);
  if (test) out.test_file = *c.test_path;
}

}  // namespace trainscope

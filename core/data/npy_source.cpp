// The "npy" data source: arrays of an .npz, or an .npy pair, to a pool and optional splits.
#include "core/data/npy_source.h"

#include <ATen/ATen.h>

#include <cstring>
#include <optional>

#include "core/config/train_config.h"
#include "core/data/array_source.h"
#include "core/data/npy_reader.h"
#include "core/data/sources.h"
#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/system/number_format.h"

namespace trainscope {
namespace {

[[noreturn]] void failNpySource(const std::string& file, const std::string& problem) {
  throw Error(ErrorCode::Data, file, "NumPy data " + problem);
}

bool isNpz(const std::string& path) {
  const auto head = readFileHead(path, 4);
  return head && head->size() == 4 && std::memcmp(head->data(), "PK\x03\x04", 4) == 0;
}

}  // namespace

void loadNpySource(const DataConfig& config, SourceData& out) {
  const NpyConfig& c = config.npy;
  if (!c.path)
    throw Error(ErrorCode::Config, "data.npy.path", "data.source is npy: set data.npy.path");
  const std::string path = *c.path;
  ArraySplit train;
  std::optional<ArraySplit> val, test;
  if (auto problem = notRegularFileProblem(path)) failNpySource(path, path + ": " + *problem);
  if (isNpz(path)) {
    if (c.y_path)
      throw Error(ErrorCode::Config, "data.npy.y_path",
                  "data.npy.y_path is set but data.npy.path " + path +
                      " is an .npz archive, which holds y itself (data.npy.y names it)");
    const std::vector<std::string> names = npzArrayNames(path);
    auto has = [&](const std::string& n) {
      return std::find(names.begin(), names.end(), n) != names.end();
    };
    auto read = [&](const std::string& xn, const std::string& yn) {
      return ArraySplit{readNpzArray(path, xn), readNpzArray(path, yn), path + "'s array '" + xn + "'",
                    path + "'s array '" + yn + "'", path};
    };
    train = read(c.x, c.y);
    for (auto [suffix, split] : {std::pair{"_val", &val}, std::pair{"_test", &test}}) {
      const bool hx = has(c.x + suffix), hy = has(c.y + suffix);
      if (hx != hy)
        failNpySource(path, path + " has the array '" + (hx ? c.x : c.y) + suffix + "' but not '" +
                       (hx ? c.y : c.x) + suffix + "'");
      if (hx) *split = read(c.x + suffix, c.y + suffix);
    }
  } else {
    const auto head = readFileHead(path, 6);
    if (!head || head->size() < 6 || std::memcmp(head->data(), "\x93NUMPY", 6) != 0)
      failNpySource(path, path + " is neither an .npz archive nor an .npy file (data.npy.path takes "
                        "NumPy's files; a table is data.source csv)");
    if (!c.y_path)
      throw Error(ErrorCode::Config, "data.npy.y_path",
                  "data.npy.path " + path +
                      " is an .npy file (the inputs): set data.npy.y_path to the .npy of the "
                      "targets, or give an .npz holding both");
    train = ArraySplit{readNpy(path), readNpy(*c.y_path), path, *c.y_path, path};
  }

  arraysToSource(train, val, test, c.task, "data.npy.task", out);
}

}  // namespace trainscope

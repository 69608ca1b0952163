// The "npy" data source: arrays of an .npz, or an .npy pair, to a pool and optional splits.
#include "core/data/npy_source.h"

#include <ATen/ATen.h>

#include <cstring>
#include <filesystem>
#include <optional>

#include "core/config/train_config.h"
#include "core/data/array_source.h"
#include "core/data/file_rows.h"
#include "core/data/npy_reader.h"
#include "core/data/sources.h"
#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/io/row_file.h"
#include "core/system/memory.h"
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

/// Leaves the .npy of inputs `path` on disk, its rows read as batches ask (core/data/file_rows.h),
/// when data.memory_map says so or its data is larger than data.in_memory_limit: sets
/// `split`'s on_disk and x (a meta tensor of the file's shape) and returns true; false: read
/// it into memory. Only C-order uint8 and little-endian float32 are read so (anything else needs
/// a conversion): refused with the key that asked, read into memory when only the automatic
/// limit was passed.
bool leaveOnDisk(const DataConfig& config, const std::string& path, ArraySplit& split) {
  const NpyLayout layout = readNpyLayout(path);
  const uint64_t file_bytes = std::filesystem::file_size(path);
  const int64_t limit = inMemoryLimit(config);
  const bool over = file_bytes - layout.data_offset > static_cast<uint64_t>(limit);
  if (!config.memory_map && !over) return false;
  const bool by_rows = !layout.fortran_order && layout.shape.size() >= 2 &&
                        (layout.descr == "|u1" || layout.descr == "<f4" || layout.descr == "u1");
  if (!by_rows) {
    if (!config.memory_map && !config.in_memory_limit) return false;
    const std::string key = config.memory_map ? "data.memory_map" : "data.in_memory_limit";
    throw Error(ErrorCode::Config, key,
                key + ": " + path + " cannot be left on disk: only C-order uint8 or float32 "
                "arrays of shape (N, ...) are read row by row (this one is dtype '" + layout.descr + "'" +
                (layout.fortran_order ? ", Fortran order" : "") +
                "); save it with np.save(path, np.ascontiguousarray(x, dtype=np.float32))");
  }
  auto rows = std::make_shared<FileRows>();
  rows->file = std::make_shared<const RowFile>(path);
  rows->offset = layout.data_offset;
  rows->rows = layout.shape[0];
  rows->dtype = layout.descr == "<f4" ? at::kFloat : at::kByte;
  int64_t per = 1;
  for (std::size_t i = 1; i < layout.shape.size(); ++i) per *= layout.shape[i];
  rows->row_bytes = static_cast<uint64_t>(per) * (rows->dtype == at::kFloat ? 4 : 1);
  split.x = at::empty(layout.shape, at::TensorOptions().dtype(rows->dtype).device(at::kMeta));
  split.on_disk = std::move(rows);
  return true;
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
    std::error_code ec;
    const auto npz_bytes = std::filesystem::file_size(path, ec);
    if (!config.memory_map && config.in_memory_limit && !ec &&
        npz_bytes > static_cast<uint64_t>(*config.in_memory_limit))
      throw Error(ErrorCode::Config, "data.in_memory_limit",
                  "data.in_memory_limit: " + path + " (" +
                      formatBytes(static_cast<int64_t>(npz_bytes)) + ") is over the limit, but "
                      "an .npz archive is always read into memory; save the inputs with "
                      "np.save(\"x.npy\", x) and set data.npy.y_path to keep them on disk");
    if (config.memory_map)
      throw Error(ErrorCode::Config, "data.memory_map",
                  "data.memory_map: " + path + " is an .npz archive, which is read into memory "
                  "(its members are compressed or stored in a zip, not rows a run can read one by "
                  "one); save the inputs with np.save(\"x.npy\", x) and set data.npy.y_path");
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
    train = ArraySplit{at::Tensor(), readNpy(*c.y_path), path, *c.y_path, path};
    if (!leaveOnDisk(config, path, train))
      train.x = readNpy(path);
    else
      out.notes.push_back(path + " (" + formatBytes(static_cast<int64_t>(train.on_disk->file->size())) +
                          ") stays on disk, its rows read as batches ask, not read into memory (" +
                          (config.memory_map ? std::string("data.memory_map")
                                             : "over data.in_memory_limit " +
                                                   formatBytes(inMemoryLimit(config))) +
                          ")");
  }

  arraysToSource(train, val, test, c.task, "data.npy.task", out);
}

}  // namespace trainscope

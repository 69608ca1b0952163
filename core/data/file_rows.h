#pragma once
/// Data larger than memory (issue 48 §3, data.memory_map / data.in_memory_limit): the rows of a
/// file read through core/io/row_file.h (guarded against a file cut short, its resident
/// memory bounded) into TensorPair splits that index the file instead of copying it. Torch
/// types: internal to core/data and the engine.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/config/config_fwd.h"

namespace trainscope {

class RowFile;
struct TensorPair;

/// Fixed-size rows of a file on disk: row r is bytes [offset + r * row_bytes, + row_bytes).
struct FileRows {
  std::shared_ptr<const RowFile> file;
  uint64_t offset = 0;     ///< bytes before row 0 (an .npy's header)
  uint64_t row_bytes = 0;  ///< one sample's bytes
  int64_t rows = 0;        ///< rows in the file
  at::ScalarType dtype = at::kByte;
};

/// The bytes of inputs a source may read into memory: data.in_memory_limit, or half of
/// MemAvailable ("auto"; 4 GB when /proc is unreadable).
int64_t inMemoryLimit(const DataConfig& config);

/// A meta tensor [rows, sample_shape...] of `m`'s dtype (shapes only) and the split of all of
/// m's rows in file order: x, on_disk, index (0..rows-1); y and the scale left to the caller.
TensorPair fileRowsSplit(std::shared_ptr<const FileRows> m, at::IntArrayRef sample_shape);

/// Reads rows `rows` (int64 [n], file row numbers) of `m` into a new tensor [n, sample_shape...]
/// of m's dtype. Throws Error(Data, file) when the file changed size or a read came back short.
at::Tensor readFileRows(const FileRows& m, const at::Tensor& rows,
                          at::IntArrayRef sample_shape);

/// Calls `fn(positions, rows)` for all rows of `split` in chunks of about `chunk_bytes`, read in
/// file order (sequential reads for a split on disk): positions int64 [k] of the split, rows
/// [k, ...] as stored. For data in memory: chunks of x in position order.
void forEachChunk(const TensorPair& split,
                  const std::function<void(const at::Tensor& positions, const at::Tensor& rows)>& fn,
                  int64_t chunk_bytes = int64_t{16} << 20);

}  // namespace trainscope

// Data larger than memory: splits that index a file on disk.
#include "core/data/file_rows.h"

#include <ATen/ATen.h>

#include <algorithm>

#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/io/row_file.h"
#include "core/system/memory.h"

namespace trainscope {

int64_t inMemoryLimit(const DataConfig& config) {
  if (config.in_memory_limit) return *config.in_memory_limit;
  return availableMemoryBytes().value_or(int64_t{8} << 30) / 2;
}

TensorPair fileRowsSplit(std::shared_ptr<const FileRows> m, at::IntArrayRef sample_shape) {
  TensorPair p;
  std::vector<int64_t> shape{m->rows};
  shape.insert(shape.end(), sample_shape.begin(), sample_shape.end());
  p.x = at::empty(shape, at::TensorOptions().dtype(m->dtype).device(at::kMeta));
  p.index = at::arange(m->rows, at::TensorOptions().dtype(at::kLong));
  p.on_disk = std::move(m);
  return p;
}

at::Tensor readFileRows(const FileRows& m, const at::Tensor& rows,
                          at::IntArrayRef sample_shape) {
  const at::Tensor r = rows.to(at::kCPU, at::kLong).contiguous();
  std::vector<int64_t> shape{r.numel()};
  shape.insert(shape.end(), sample_shape.begin(), sample_shape.end());
  at::Tensor out = at::empty(shape, at::TensorOptions().dtype(m.dtype));
  if (r.numel() > 0)
    m.file->gatherRows(m.offset, m.row_bytes, r.data_ptr<int64_t>(), r.numel(), out.data_ptr());
  return out;
}

void forEachChunk(const TensorPair& split,
                  const std::function<void(const at::Tensor&, const at::Tensor&)>& fn,
                  int64_t chunk_bytes) {
  const int64_t n = split.size();
  if (n == 0) return;
  const int64_t row_bytes =
      std::max<int64_t>(1, split.x[0].numel() * static_cast<int64_t>(split.x.element_size()));
  const int64_t per = std::max<int64_t>(1, chunk_bytes / row_bytes);
  if (!split.on_disk) {
    for (int64_t s = 0; s < n; s += per) {
      const int64_t len = std::min(per, n - s);
      fn(at::arange(s, s + len, at::TensorOptions().dtype(at::kLong)), split.x.narrow(0, s, len));
    }
    return;
  }
  // File order: the split's positions sorted by the row each holds.
  const auto [rows, positions] = split.index.sort();
  const at::IntArrayRef sample = split.x.sizes().slice(1);
  for (int64_t s = 0; s < n; s += per) {
    const int64_t len = std::min(per, n - s);
    fn(positions.narrow(0, s, len), readFileRows(*split.on_disk, rows.narrow(0, s, len), sample));
  }
}

}  // namespace trainscope

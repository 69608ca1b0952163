#pragma once
/// Arrays of inputs and targets to a SourceData: the shared part of the sources that read
/// whole arrays (npy, idx). Torch types: internal to core/data.
#include <ATen/core/Tensor.h>

#include <memory>
#include <optional>
#include <string>

namespace trainscope {

struct SourceData;
struct FileRows;

/// One split's arrays as read, with the names messages give them.
struct ArraySplit {
  at::Tensor x, y;
  std::string x_name, y_name;  ///< e.g. "data.npz's array 'x'"
  std::string file;            ///< the file errors name
  /// x left on disk (data.memory_map; core/data/file_rows.h): x is then a meta tensor of the
  /// file's shape.
  std::shared_ptr<const FileRows> on_disk;
};

/// Checks and converts read arrays into `out` (pool, val, test, classes, image_shape, task).
/// x: any shape [N, ...] of a number or bool dtype; uint8 x of shape [N, H, W] or [N, C, H, W]
/// (C 1, 3 or 4) are images, kept as uint8 pixels (pixel scale 255, flattened to [N, C*H*W]
/// with image_shape [C, H, W]); anything else becomes float32 of its own shape. y: [N] or
/// [N, 1] class labels (integer or bool dtype, or whole numbers with task classification)
/// mapped to indices in sorted order (class names: the values), or float regression targets
/// [N] / [N, K]. `task` is auto | classification | regression; `task_key` names it in messages
/// (data.npy.task). Throws Error(Data, file) naming the file and the array for every problem
/// (different N, non-finite values, fractional labels, a split of another sample shape, a
/// constant target, a class the training labels do not have).
void arraysToSource(const ArraySplit& train, const std::optional<ArraySplit>& val,
                    const std::optional<ArraySplit>& test, const std::string& task,
                    const std::string& task_key, SourceData& out);

}  // namespace trainscope

#pragma once
/// The "npy" data source: NumPy arrays (core/data/npy_reader.h) of inputs and targets.
#include "core/config/config_fwd.h"

namespace trainscope {

struct SourceData;

/// Reads data.npy.path: an .npz with arrays data.npy.x and data.npy.y (and, when present,
/// "<x>_val"/"<y>_val" as the validation split and "<x>_test"/"<y>_test" as the test split), or
/// an .npy of x with data.npy.y_path the .npy of y. x: any shape [N, ...] of a number or bool
/// dtype; uint8 x of shape [N, H, W] or [N, C, H, W] (C 1, 3 or 4) are images, kept as uint8
/// pixels (pixel scale 255, flattened to [N, C*H*W] with image_shape [C, H, W]); anything else
/// becomes float32 of its own shape. y: [N] or [N, 1] class labels (integer or bool dtype, or
/// whole numbers with data.npy.task classification) mapped to indices in sorted order (class
/// names: the values), or float regression targets [N] / [N, K] (data.npy.task auto: integer
/// and bool targets are classes, float ones regression). Throws Error(Data, file) naming the
/// file and the array for every problem (different N, non-finite values, negative or
/// fractional labels, a split of another sample shape, a constant target).
void loadNpySource(const DataConfig& config, SourceData& out);

}  // namespace trainscope

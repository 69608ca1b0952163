#pragma once
/// The "image-folder" data source: torchvision.datasets.ImageFolder's layout, decoded with
/// OpenCV's imgcodecs. Torch types: internal to core/data.
#include "core/config/config_fwd.h"

namespace trainscope {

struct SourceData;

/// Reads data.image_folder.path as torchvision's ImageFolder does: root/<class>/.../<image>,
/// classes = the sub-folders sorted by name (class index = position), images = files with
/// torchvision's IMG_EXTENSIONS (.jpg .jpeg .png .ppm .bmp .pgm .tif .tiff .webp, any case)
/// found recursively, sorted by path. When root holds a folder "train", that is the training
/// pool and "val" / "test" beside it (optional) are the validation and test splits, with the
/// same classes. Images are decoded as grayscale (channels 1) or RGB (channels 3), resized to
/// data.image_folder.size [H, W] (area interpolation when shrinking, bilinear when growing) or,
/// without a size, required to have the first image's size; stored as uint8 pixels flattened
/// from [C, H, W] (pixel scale 255, image_shape [C, H, W]). Files that are not images, and
/// files at the class level, are skipped and listed in out.notes, as are images that fail to
/// decode; out.pool_names holds "<class>/<file>" of each pool image. Decoding runs on up to
/// 8 threads and stops within one image per thread on an interrupt (Cancelled). The decoded
/// pixels of each folder are cached (core/data/image_cache.h: where, and how the cache is
/// invalidated), so a second start of the same folder and options only lists, stats and reads
/// one file; out.notes says which. Throws
/// Error(Data, path) naming the folder or file: a missing root, no class folder, an empty
/// class, an image of another size (without data.image_folder.size), classes that differ
/// between train/val/test.
void loadImageFolderSource(const DataConfig& config, SourceData& out);

}  // namespace trainscope

#pragma once
/// The image-folder source's cache of decoded pixels, so that a second start skips decoding:
/// one file per (folder, listing, options) in the cache folder, `image-folder-<key>.bin`. The
/// key hashes the cache format version, the folder's absolute path, data.image_folder.channels
/// and size, and every listed file's relative path, class, byte size and modification time
/// (nanoseconds): adding, removing, renaming, editing or touching any image, or other options,
/// give another key, so a stale cache is never read (it is pruned later: the 8 newest cache
/// files are kept). A cache file that is truncated, fails its CRC-32 (the pixels altered) or is
/// otherwise wrong is ignored: the images are decoded again. Torch types:
/// internal to core/data.
#include <ATen/core/Tensor.h>

#include <climits>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace trainscope {

/// The folder of cache files: $TRAINSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/trainscope, else
/// $HOME/.cache/trainscope; empty (no cache) when TRAINSCOPE_CACHE_DIR is "off" or no folder
/// can be named.
std::filesystem::path imageCacheDir();

/// What decoding a listing gave: pixels of the images that decoded (uint8 [kept, C*H*W]), their
/// positions in the listing, the positions of those that failed, and the image size [H, W].
struct DecodedImages {
  at::Tensor x;  ///< undefined when the pixels stay on disk (`pixels_file`)
  std::vector<int64_t> kept, failed;
  std::vector<int64_t> size;
  /// Pixels on disk (data larger than memory): the file holding them, row after row from byte
  /// `pixels_offset` (the cache file itself once written; while decoding, a file of the kept
  /// rows alone, offset 0).
  std::filesystem::path pixels_file;
  uint64_t pixels_offset = 0;
};

/// The cache key of decoding `files` (class index, path relative to `root`, '/'-separated)
/// with these options. Stats every file (throws Cancelled when an interrupt asks, between
/// files).
/// `resize_mode` (data.image_folder.resize) counts only with a requested size.
uint64_t imageCacheKey(const std::filesystem::path& root, int64_t channels,
                       const std::vector<int64_t>& requested_size, const std::string& resize_mode,
                       const std::vector<std::pair<int64_t, std::string>>& files);

/// The cache file of `key` in `dir`.
std::filesystem::path imageCacheFile(const std::filesystem::path& dir, uint64_t key);

/// Reads `file` when it holds `key` for a listing of `n_files` files of `channels` channels;
/// nullopt when it is missing or does not match in any way. Pixels of more than
/// `max_in_memory` bytes stay on disk (x undefined, pixels_file = `file`; their CRC-32 checked
/// in one streamed pass all the same).
std::optional<DecodedImages> readImageCache(const std::filesystem::path& file, uint64_t key,
                                            int64_t n_files, int64_t channels,
                                            int64_t max_in_memory = INT64_MAX);

/// Writes `images` to `file` atomically and prunes the cache folder to its 8 newest
/// image-folder-*.bin files; false when it could not be written. Never throws: a cache that
/// cannot be written is only slower. Pixels on disk (x undefined) are copied from
/// images.pixels_file; on success `images` then points at `file` (pixels_file, pixels_offset).
bool writeImageCache(const std::filesystem::path& file, uint64_t key, int64_t n_files,
                     int64_t channels, DecodedImages& images);

}  // namespace trainscope

#pragma once
/// Atomic file writes (config.json, run.json, summary.json, checkpoints). Torch-free.
#include <cstddef>
#include <filesystem>
#include <string>

namespace trainscope {

/// Writes `content` to `path` atomically: temp file in the same folder, flush (fsync), rename,
/// so readers see the old file or the whole new one. Throws Error(Io, path).
void writeFileAtomic(const std::filesystem::path& path, const std::string& content);
/// The same for `size` bytes at `data`.
void writeFileAtomic(const std::filesystem::path& path, const char* data, size_t size);

/// Name prefix of the temp files writeFileAtomic creates for `path` (".<name>.tmp-"): what a
/// crash can leave behind next to it.
std::string atomicTempPrefix(const std::filesystem::path& path);

/// Test hook: while `bytes` >= 0, every writeFileAtomic fails with Error(Io) after writing
/// `bytes` bytes of the temp file (as a full disk would); -1 turns it off. Not thread-safe
/// against concurrent writes; tests set it around a single save.
void setAtomicWriteFailureForTesting(long long bytes);

}  // namespace trainscope

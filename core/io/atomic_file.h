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

/// Removes, in `folder`, the regular files whose names `match` accepts (links and folders are
/// left); returns how many. Never throws.
int removeFilesIf(const std::filesystem::path& folder, bool (*match)(const std::string& name));

/// The temp file of a checkpoint save (".<name>.pt.tmp-XXXXXX").
bool isCheckpointTemp(const std::string& name);

/// Removes, in `folder`, the temp files of checkpoint saves that a killed process left
/// (".<name>.pt.tmp-XXXXXX", atomicTempPrefix): TrainScope's own naming only, nothing else.
/// Call only while no live process writes there (a run holds its folder: run_lock.h). Returns
/// how many were removed; never throws.
int removeStaleCheckpointTemps(const std::filesystem::path& folder);

}  // namespace trainscope

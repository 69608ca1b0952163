#pragma once
/// Atomic file writes (config.json, run.json, summary.json; checkpoints later). Torch-free.
#include <filesystem>
#include <string>

namespace trainscope {

/// Writes `content` to `path` atomically: temp file in the same folder, flush (fsync), rename,
/// so readers see the old file or the whole new one. Throws Error(Io, path).
void writeFileAtomic(const std::filesystem::path& path, const std::string& content);

}  // namespace trainscope

#pragma once
/// Naming and creating run directories (ARCHITECTURE §4). Torch-free.
#include <filesystem>
#include <string>

namespace trainscope {

/// Creates and returns a new run directory `<root>/<name>-<YYYYmmdd-HHMMSS>` (local time),
/// adding -2, -3, ... when it exists; never reuses one. Throws Error(Io, path).
std::filesystem::path createUniqueRunDir(const std::filesystem::path& root,
                                         const std::string& name);

/// True when `dir` exists and contains at least one entry.
bool isNonEmptyDirectory(const std::filesystem::path& dir);

/// Writes `content` to `path` atomically: temp file in the same folder, flush, rename.
/// Throws Error(Io, path).
void writeFileAtomic(const std::filesystem::path& path, const std::string& content);

}  // namespace trainscope

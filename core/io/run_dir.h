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

}  // namespace trainscope

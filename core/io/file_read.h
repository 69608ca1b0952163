#pragma once
/// Reading a whole file in chunks that an interrupt can stop (core/system/cancel.h).
/// Torch-free.
#include <filesystem>
#include <optional>
#include <vector>

namespace trainscope {

/// The bytes of `file`, read 1 MiB at a time; between two reads it checks cancelRequested()
/// and throws Cancelled(file) once set, so a multi-GiB file (or a slow disk, a pipe) stops
/// within one chunk of an interrupt. Returns nullopt when the file cannot be opened; throws
/// Error(Io, file) for a read error.
std::optional<std::vector<char>> readFileCancellable(const std::filesystem::path& file);

}  // namespace trainscope

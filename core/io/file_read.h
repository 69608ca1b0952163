#pragma once
/// Reading a whole file in chunks that an interrupt can stop (core/system/cancel.h).
/// Torch-free.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

/// The bytes of `file`, read 1 MiB at a time; between two reads it checks cancelRequested()
/// and throws Cancelled(file) once set, so a multi-GiB file (or a slow disk, a pipe) stops
/// within one chunk of an interrupt. Returns nullopt when the file cannot be opened; throws
/// Error(Io, file) for a read error.
/// A FIFO, device or directory is never opened (a FIFO would block): nullopt as well (callers
/// that want to say why call notRegularFileProblem() first).
std::optional<std::vector<char>> readFileCancellable(const std::filesystem::path& file);

/// How many first bytes the torch.save readers read to tell a file's format (notZipProblem
/// quotes the start of a file that is not a zip archive).
inline constexpr size_t kSniffBytes = size_t{1} << 16;

/// The first `max_bytes` bytes of `file` (fewer when it is shorter), to tell its format before
/// reading it whole (a 2 GiB file that is not a zip archive is refused from its first bytes).
/// Same conditions and errors as readFileCancellable().
std::optional<std::vector<char>> readFileHead(const std::filesystem::path& file, size_t max_bytes);

/// Why `file` cannot be read as a file, or nullopt when it is a regular file (symlinks
/// followed): "an empty path names no file", "no such file", "it is a directory, not a file",
/// "it is a FIFO (named pipe), not a regular file", "... a character device ...", "... a block
/// device ...", "... a socket ...", "cannot stat it: <errno text>". Never opens the path, so
/// never blocks.
std::optional<std::string> notRegularFileProblem(const std::filesystem::path& file);

/// The whole of `file` as text, read the way readFileCancellable reads (opened with O_NONBLOCK
/// and checked with fstat: a FIFO, device or folder in a run folder is never waited on, issue 44
/// item 6). Throws Error(Io, file) naming the file and what it is (notRegularFileProblem) or
/// the read error; Cancelled on an interrupt.
std::string readRegularFile(const std::filesystem::path& file);

}  // namespace trainscope

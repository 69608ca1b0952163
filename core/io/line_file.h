#pragma once
/// A text file written one whole line at a time (steps.csv, metrics.csv, events.jsonl,
/// layers.csv). Torch-free. Each line is one write(2) of the line and its newline on an
/// O_APPEND descriptor; when a write fails or is short (disk full: ENOSPC; a file size limit:
/// EFBIG), the file is cut back to its last complete line, so a reader never meets a partial
/// row, and the error is thrown.
#include <cstdint>
#include <filesystem>
#include <string>

namespace trainscope {

class LineFile {
 public:
  /// Opens (creates) `path` for appending. Throws Error(Io, path) naming the OS error.
  explicit LineFile(const std::filesystem::path& path);
  ~LineFile();
  LineFile(const LineFile&) = delete;
  LineFile& operator=(const LineFile&) = delete;

  /// Appends `line` and "\n" (the line must not contain a newline). On failure the file keeps
  /// only whole lines and Error(Io, path) is thrown: "cannot write <path>: <OS error>; the file
  /// ends at its last complete line".
  void append(const std::string& line);
  /// Appends `bytes` verbatim as one record (binary files such as TensorBoard's event file:
  /// io/tfevents_writer.h), with the same all-or-nothing guarantee and errors as append.
  void appendRecord(const std::string& bytes);
  const std::filesystem::path& path() const { return path_; }

 private:
  /// Writes `buf` whole or cuts it off again; `unit` ("line" or "record") names what the file
  /// ends at in the error. Told by the caller: a binary record may end in a newline byte.
  void write(const std::string& buf, const char* unit);

  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace trainscope

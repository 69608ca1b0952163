#pragma once
/// A file of fixed-size rows read as they are asked for, never held in memory: data larger
/// than memory (data.memory_map / data.in_memory_limit, issue 48 §3).
///
/// Rows are read with positioned reads (pread) into the caller's buffer, served from the page
/// cache, and not through a memory map: on Linux 6.x with large page-cache folios (ext4, xfs)
/// each fault of a mapping maps up to a whole 2 MB folio, so reading 3,000 random 784-byte rows
/// of a mapped 1 GB file left 1 GB resident (measured), where positioned reads leave nothing
/// resident, were faster (0.75x against 0.68x the in-memory rate on one thread), and cannot
/// raise SIGBUS when the file is cut short: a short read is an error naming the file. Every
/// read first checks that the file still has the size and modification time it had when
/// opened (a file truncated or written to under a run); a file replaced by a rename is not
/// read (the run goes on reading the one it opened). Torch-free; thread-safe (batch workers
/// read concurrently).
#include <cstdint>
#include <string>

namespace trainscope {

class RowFile {
 public:
  /// Opens `path`. Throws Error(Data, path) when it cannot be opened, is not a regular file or
  /// is empty.
  explicit RowFile(const std::string& path);
  ~RowFile();
  RowFile(const RowFile&) = delete;
  RowFile& operator=(const RowFile&) = delete;

  const std::string& path() const { return path_; }
  /// The file's size in bytes when it was opened.
  uint64_t size() const { return size_; }

  /// Reads `n` rows of `row_bytes` bytes each, row k from byte `offset + rows[k] * row_bytes`,
  /// into `dst` (n * row_bytes bytes). Throws Error(Data, path) naming the file when it no
  /// longer has the size or modification time it was opened with, when a row lies outside it,
  /// or when a read comes back short or fails; `dst` is then incomplete.
  void gatherRows(uint64_t offset, uint64_t row_bytes, const int64_t* rows, int64_t n,
                  void* dst) const;

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
  int64_t mtime_ns_ = 0;  ///< st_mtim when opened: a file rewritten in place changes it
  void checkSize() const;
};

}  // namespace trainscope

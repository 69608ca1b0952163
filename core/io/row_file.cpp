// A file of fixed-size rows read with positioned reads.
#include "core/io/row_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.h"
#include "core/io/file_read.h"

namespace trainscope {
namespace {

[[noreturn]] void failRows(const std::string& path, const std::string& problem) {
  throw Error(ErrorCode::Data, path, "data read from disk " + path + ": " + problem);
}

}  // namespace

RowFile::RowFile(const std::string& path) : path_(path) {
  if (auto problem = notRegularFileProblem(path)) failRows(path, *problem);
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) failRows(path, std::string("cannot be opened: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    ::close(fd_);
    failRows(path, "is not a regular, non-empty file");
  }
  size_ = static_cast<uint64_t>(st.st_size);
  mtime_ns_ = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_RANDOM);  // batches read scattered rows
}

RowFile::~RowFile() {
  if (fd_ >= 0) ::close(fd_);
}

void RowFile::checkSize() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0)
    failRows(path_, std::string("cannot be checked: ") + std::strerror(errno));
  if (static_cast<uint64_t>(st.st_size) != size_)
    failRows(path_, "changed size while the run was reading it (" + std::to_string(size_) +
                        " bytes when opened, now " + std::to_string(st.st_size) +
                        "); restore the file, or start again to use the new one");
  if (static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec != mtime_ns_)
    failRows(path_, "was written to while the run was reading it (its modification time "
                    "changed); restore the file, or start again to use the new one");
}

void RowFile::gatherRows(uint64_t offset, uint64_t row_bytes, const int64_t* rows, int64_t n,
                         void* dst) const {
  checkSize();
  auto* out = static_cast<unsigned char*>(dst);
  for (int64_t k = 0; k < n; ++k) {
    const uint64_t at = offset + static_cast<uint64_t>(rows[k]) * row_bytes;
    if (rows[k] < 0 || at + row_bytes > size_ || at + row_bytes < at)
      failRows(path_, "row " + std::to_string(rows[k]) + " lies outside the file");
    uint64_t done = 0;
    while (done < row_bytes) {
      const ssize_t got = ::pread(fd_, out + k * row_bytes + done, row_bytes - done,
                                  static_cast<off_t>(at + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) failRows(path_, std::string("a read failed: ") + std::strerror(errno));
      if (got == 0)
        failRows(path_, "a read came back short: the file was cut short while the run was "
                        "reading it");
      done += static_cast<uint64_t>(got);
    }
  }
}

}  // namespace trainscope

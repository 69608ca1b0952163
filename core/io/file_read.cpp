#include "core/io/file_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "core/errors.h"
#include "core/system/cancel.h"

namespace trainscope {

namespace {

template <class Bytes>
std::optional<Bytes> readUpTo(const std::filesystem::path& file, size_t max_bytes) {
  constexpr size_t kChunk = size_t{1} << 20;
  throwIfCancelled(file.string());
  if (notRegularFileProblem(file)) return std::nullopt;
  // O_NONBLOCK: should the path become a FIFO after the check, open() does not wait for a
  // writer; fstat() then refuses it.
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  Bytes bytes;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  const size_t size = static_cast<size_t>(st.st_size);
  if (max_bytes < size)
    bytes.reserve(max_bytes);
  else if (size > 0)
    bytes.reserve(size + kChunk);  // no reallocation
  while (bytes.size() < max_bytes) {
    throwIfCancelled(file.string());
    const size_t at = bytes.size();
    const size_t want = std::min(kChunk, max_bytes - at);
    bytes.resize(at + want);
    const ssize_t got = ::read(fd, bytes.data() + at, want);
    if (got < 0) {
      bytes.resize(at);
      if (errno == EINTR) continue;
      throw Error(ErrorCode::Io, file.string(),
                  "cannot read " + file.string() + ": " + std::strerror(errno));
    }
    bytes.resize(at + static_cast<size_t>(got));
    if (got == 0) break;
  }
  return bytes;
}

}  // namespace

std::optional<std::vector<char>> readFileCancellable(const std::filesystem::path& file) {
  return readUpTo<std::vector<char>>(file, std::numeric_limits<size_t>::max());
}

std::optional<std::vector<char>> readFileHead(const std::filesystem::path& file, size_t max_bytes) {
  return readUpTo<std::vector<char>>(file, max_bytes);
}

std::string readRegularFile(const std::filesystem::path& file) {
  if (const auto problem = notRegularFileProblem(file))
    throw Error(ErrorCode::Io, file.string(), file.string() + ": " + *problem + "; not read");
  auto text = readUpTo<std::string>(file, std::numeric_limits<size_t>::max());
  if (!text)  // replaced by something else between the check and the open
    throw Error(ErrorCode::Io, file.string(), "cannot open " + file.string() + " as a regular file");
  return std::move(*text);
}

std::optional<std::string> notRegularFileProblem(const std::filesystem::path& file) {
  if (file.empty()) return "an empty path names no file";
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return "no such file";
    return std::string("cannot stat it: ") + std::strerror(errno);
  }
  if (S_ISREG(st.st_mode)) return std::nullopt;
  if (S_ISDIR(st.st_mode)) return "it is a directory, not a file";
  if (S_ISFIFO(st.st_mode)) return "it is a FIFO (named pipe), not a regular file";
  if (S_ISCHR(st.st_mode)) return "it is a character device, not a regular file";
  if (S_ISBLK(st.st_mode)) return "it is a block device, not a regular file";
  if (S_ISSOCK(st.st_mode)) return "it is a socket, not a regular file";
  return "it is not a regular file";
}

}  // namespace trainscope

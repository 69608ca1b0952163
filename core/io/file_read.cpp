#include "core/io/file_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.h"
#include "core/system/cancel.h"

namespace trainscope {

std::optional<std::vector<char>> readFileCancellable(const std::filesystem::path& file) {
  constexpr size_t kChunk = size_t{1} << 20;
  throwIfCancelled(file.string());
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  std::vector<char> bytes;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) return std::nullopt;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    bytes.reserve(static_cast<size_t>(st.st_size) + kChunk);  // no reallocation
  for (;;) {
    throwIfCancelled(file.string());
    const size_t at = bytes.size();
    bytes.resize(at + kChunk);
    const ssize_t got = ::read(fd, bytes.data() + at, kChunk);
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

}  // namespace trainscope

#include "core/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/errors.h"

namespace trainscope {
namespace {
std::atomic<long long> g_fail_after_bytes{-1};
}  // namespace

void setAtomicWriteFailureForTesting(long long bytes) { g_fail_after_bytes = bytes; }

std::string atomicTempPrefix(const std::filesystem::path& path) {
  return "." + path.filename().string() + ".tmp-";
}

void writeFileAtomic(const std::filesystem::path& path, const std::string& content) {
  writeFileAtomic(path, content.data(), content.size());
}

void writeFileAtomic(const std::filesystem::path& path, const char* data, size_t size) {
  auto fail = [&](const std::string& what) {
    throw Error(ErrorCode::Io, path.string(),
                "cannot write " + path.string() + ": " + what + " (" + std::strerror(errno) + ")");
  };
  std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
  std::string tmpl = (dir / (atomicTempPrefix(path) + "XXXXXX")).string();
  int fd = mkstemp(tmpl.data());
  if (fd < 0) fail("cannot create a temporary file");
  const char* p = data;
  size_t left = size;
  const long long fail_after = g_fail_after_bytes;
  if (fail_after >= 0 && static_cast<size_t>(fail_after) < left) left = fail_after;
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      ::unlink(tmpl.c_str());
      fail("write failed");
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if (fail_after >= 0) {
    // Simulated failure midway: the partial temp file stays, as after a crash.
    ::close(fd);
    errno = ENOSPC;
    fail("write failed (simulated)");
  }
  fchmod(fd, 0644);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmpl.c_str());
    fail("flush failed");
  }
  if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
    ::unlink(tmpl.c_str());
    fail("rename failed");
  }
}

int removeFilesIf(const std::filesystem::path& folder, bool (*match)(const std::string&)) {
  namespace fs = std::filesystem;
  int removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code st_ec;
    if (fs::is_regular_file(it->symlink_status(st_ec)) && match(name) &&
        fs::remove(it->path(), st_ec))
      ++removed;
  }
  return removed;
}

bool isCheckpointTemp(const std::string& name) {
  return name.size() > 1 && name[0] == '.' && name.find(".pt.tmp-") != std::string::npos;
}

int removeStaleCheckpointTemps(const std::filesystem::path& folder) {
  return removeFilesIf(folder, isCheckpointTemp);
}

}  // namespace trainscope

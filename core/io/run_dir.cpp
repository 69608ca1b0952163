#include "core/io/run_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "core/errors.h"

namespace trainscope {

std::filesystem::path createUniqueRunDir(const std::filesystem::path& root,
                                         const std::string& name) {
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  if (ec)
    throw Error(ErrorCode::Io, root.string(),
                "cannot create " + root.string() + ": " + ec.message());
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  std::string base = name + "-" + stamp;
  for (int i = 1; i < 10000; ++i) {
    std::filesystem::path dir = root / (i == 1 ? base : base + "-" + std::to_string(i));
    // create_directory returns false when it exists: then try the next suffix (never reuse).
    if (std::filesystem::create_directory(dir, ec)) return dir;
    if (ec)
      throw Error(ErrorCode::Io, dir.string(),
                  "cannot create " + dir.string() + ": " + ec.message());
  }
  throw Error(ErrorCode::Io, root.string(), "too many run directories named " + base);
}

bool isNonEmptyDirectory(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return false;
  return std::filesystem::directory_iterator(dir, ec) != std::filesystem::directory_iterator();
}

void writeFileAtomic(const std::filesystem::path& path, const std::string& content) {
  auto fail = [&](const std::string& what) {
    throw Error(ErrorCode::Io, path.string(),
                "cannot write " + path.string() + ": " + what + " (" + std::strerror(errno) + ")");
  };
  std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
  std::string tmpl = (dir / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  int fd = mkstemp(tmpl.data());
  if (fd < 0) fail("cannot create a temporary file");
  const char* p = content.data();
  size_t left = content.size();
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

}  // namespace trainscope

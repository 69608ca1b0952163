#include "core/io/run_dir.h"

#include "core/errors.h"
#include "core/system/clock.h"

namespace trainscope {

std::filesystem::path createUniqueRunDir(const std::filesystem::path& root,
                                         const std::string& name) {
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  if (ec)
    throw Error(ErrorCode::Io, root.string(),
                "cannot create " + root.string() + ": " + ec.message());
  std::string base = name + "-" + runDirTimestampNow();
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

}  // namespace trainscope

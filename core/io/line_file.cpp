// Whole-line appends (see line_file.h).
#include "core/io/line_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.h"

namespace trainscope {

LineFile::LineFile(const std::filesystem::path& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw Error(ErrorCode::Io, path.string(),
                "cannot open " + path.string() + ": " + std::strerror(errno));
}

LineFile::~LineFile() {
  if (fd_ >= 0) ::close(fd_);
}

void LineFile::append(const std::string& line) {
  std::string buf;
  buf.reserve(line.size() + 1);
  buf += line;
  buf += '\n';
  write(buf, "line");
}

void LineFile::appendRecord(const std::string& bytes) { write(bytes, "record"); }

void LineFile::write(const std::string& buf, const char* unit) {
  size_t done = 0;
  int err = 0;
  while (done < buf.size()) {
    const ssize_t n = ::write(fd_, buf.data() + done, buf.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      err = n < 0 ? errno : ENOSPC;
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (done == buf.size()) return;
  // A partial record is cut off again: the file ends at its last complete line/record. Only on this
  // path is the offset asked for (O_APPEND: the end of the file, `done` bytes past the line's
  // start), not once per line: this runs at every training step.
  const off_t end = done > 0 ? ::lseek(fd_, 0, SEEK_END) : -1;
  if (end >= static_cast<off_t>(done) && ::ftruncate(fd_, end - static_cast<off_t>(done)) != 0) {
    // Nothing more can be done; the error below still stops the run.
  }
  throw Error(ErrorCode::Io, path_.string(),
              "cannot write " + path_.string() + ": " + std::strerror(err) +
                  "; the file ends at its last complete " + unit);
}

}  // namespace trainscope

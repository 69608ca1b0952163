// flock(2)-based run directory lock (see run_lock.h).
#include "core/run/run_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>

#include "core/errors.h"
#include "core/run/run_dir.h"

namespace trainscope {
namespace {

/// This program's file name (/proc/self/exe: "trainscope-cli-engine"; /proc/self/comm cuts
/// names at 15 characters).
std::string programName() {
  std::error_code ec;
  const std::string name = std::filesystem::read_symlink("/proc/self/exe", ec).filename().string();
  return ec || name.empty() ? "TrainScope" : name;
}

std::string readHolder(int fd) {
  char buf[256];
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  std::string s = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s.empty() ? "a process that has not recorded itself yet" : s;
}

std::string inUseMessage(const std::filesystem::path& dir, const std::string& holder) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(dir / kSweepRecordFile, ec))
    return dir.string() + " is a sweep that a running TrainScope process runs (" + holder +
           "); two orchestrators of one sweep would run its trials twice: wait for it to end "
           "or stop it (Ctrl-C), then `sweep --resume`";
  return dir.string() + " is being written by a running TrainScope process (" + holder +
         "); two runs in one folder would mix their files: wait for it to end, stop it, or "
         "choose another folder";
}

/// Claims (RunDirLock::claim) waiting for their run, by absolute normalised folder.
std::mutex claims_mutex;
std::map<std::string, RunDirLock>& claims() {
  static std::map<std::string, RunDirLock> table;
  return table;
}

std::string claimKey(const std::filesystem::path& dir) {
  std::error_code ec;
  const std::filesystem::path a = std::filesystem::absolute(dir, ec);
  return (ec ? dir : a).lexically_normal().string();
}

}  // namespace

void RunDirLock::claim(const std::filesystem::path& dir) {
  RunDirLock lock(dir);  // throws when another process holds it
  std::lock_guard<std::mutex> guard(claims_mutex);
  const std::string key = claimKey(dir);
  claims().erase(key);  // a claim of this process that no run took: replaced
  claims().emplace(key, std::move(lock));
}

void RunDirLock::releaseClaim(const std::filesystem::path& dir) {
  std::lock_guard<std::mutex> guard(claims_mutex);
  claims().erase(claimKey(dir));
}

RunDirLock::RunDirLock(const std::filesystem::path& dir) {
  {
    std::lock_guard<std::mutex> guard(claims_mutex);
    auto it = claims().find(claimKey(dir));
    if (it != claims().end()) {  // this process claimed it for this run: take the lock over
      std::swap(fd_, it->second.fd_);
      claims().erase(it);
      return;
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw Error(ErrorCode::Io, dir.string(),
                "cannot create run directory " + dir.string() + ": " + ec.message());
  const std::filesystem::path file = dir / kRunLockFile;
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0)
    throw Error(ErrorCode::Io, dir.string(),
                "cannot create " + file.string() + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    const std::string holder = readHolder(fd_);
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK) throw Error(ErrorCode::Config, dir.string(), inUseMessage(dir, holder));
    throw Error(ErrorCode::Io, dir.string(),
                "cannot lock " + file.string() + ": " + std::strerror(err));
  }
  char when[32] = "";
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
  const std::string me =
      "pid " + std::to_string(::getpid()) + ", " + programName() + ", since " + when + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, me.data(), me.size(), 0) < 0) {
    // The lock holds without the note; the message of a refused second run is vaguer.
  }
}

RunDirLock::~RunDirLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

RunDirLock::RunDirLock(RunDirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

std::optional<std::string> RunDirLock::holder(const std::filesystem::path& dir) {
  const int fd = ::open((dir / kRunLockFile).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> who;
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) who = readHolder(fd);
  } else {
    ::flock(fd, LOCK_UN);
  }
  ::close(fd);
  return who;
}

}  // namespace trainscope

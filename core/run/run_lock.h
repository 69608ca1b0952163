#pragma once
/// The lock a run holds on its run directory (two runs, or an --overwrite, on one
/// folder). Torch-free. An advisory flock(2) on `<dir>/.trainscope.lock`, which also records
/// the holder (pid, program, start time); the kernel drops the lock when the process ends,
/// however it ends (kill -9 included), so a stale lock file never blocks a later run.
#include <filesystem>
#include <optional>
#include <string>

namespace trainscope {

/// The lock file's name inside a run directory.
inline constexpr const char* kRunLockFile = ".trainscope.lock";

/// Holds the lock of one run directory for its lifetime (move-only).
class RunDirLock {
 public:
  /// Creates `dir` when missing and takes its lock (or this process's claim on it, claim()). Throws Error(Config, dir) (bad input: exit
  /// 2 in the CLI) naming the
  /// process that holds it ("... is being written by a running TrainScope process: pid 4242,
  /// trainscope-cli, since 2026-12-02T05:31:07"), Error(Io, dir) when the lock file cannot be
  /// created.
  explicit RunDirLock(const std::filesystem::path& dir);
  ~RunDirLock();
  RunDirLock(RunDirLock&& other) noexcept;
  RunDirLock& operator=(RunDirLock&&) = delete;
  RunDirLock(const RunDirLock&) = delete;

  /// Claims `dir` for the run this process starts next, before anything slow (loading data):
  /// creates it and takes its lock as the constructor does (throwing the same errors), and
  /// keeps the lock in a process-wide table until the run's own RunDirLock(dir) takes it over
  /// (the constructor finds it there) or releaseClaim(dir) drops it. A second process on the
  /// same folder is refused from the claim on, not only once the run writes.
  static void claim(const std::filesystem::path& dir);
  /// Drops a claim that no run took over (the run failed before writing). Never throws.
  static void releaseClaim(const std::filesystem::path& dir);

  /// Who holds `dir`'s lock now ("pid 4242, trainscope-cli, since 2026-12-02T05:31:07"), or
  /// nullopt when nobody does (no lock file, or its holder has ended). Never throws.
  static std::optional<std::string> holder(const std::filesystem::path& dir);

 private:
  int fd_ = -1;
};

}  // namespace trainscope

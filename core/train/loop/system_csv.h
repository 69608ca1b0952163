#pragma once
/// system.csv (issue 49 §5): the machine while the run trains, about one row a second, written
/// by a sampling thread of its own (a long step or a validation does not leave gaps):
/// `time,cpu_percent,rss_bytes,available_bytes,threads,samples_per_second,data_wait_share`.
/// time in Unix seconds; cpu_percent this process's CPU time as a share of all usable cores
/// (core/system/process_stats.h); threads the run's intra-op (torch) threads; samples/s the
/// training samples of the steps reported in the row's second; data_wait_share the share of
/// that second the steps waited for their batches. Rows are appended whole; a failed write
/// (a full disk) stops the file, never the run. Include only from core/train/loop.
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "core/train/loop/trainer_part.h"

namespace trainscope {

class LineFile;

class SystemCsvPart : public TrainerPart {
 public:
  static constexpr double kIntervalSeconds = 1.0;
  static const char* header();

  /// Writes `run_dir`/system.csv (appending to a resumed run's rows is not done: the file
  /// covers this process) for a run of `torch_threads` intra-op threads.
  SystemCsvPart(const std::filesystem::path& run_dir, int torch_threads);
  ~SystemCsvPart() override;
  void onRunStart() override;
  void onStep(const StepRecord& r) override;
  void onStop(const RunSummary&) override;

 private:
  void loop();
  void stopThread();
  std::filesystem::path path_;
  int threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  int64_t samples_ = 0;  ///< since the last row (guarded by mutex_)
  double data_wait_ = 0;
  std::thread thread_;
};

}  // namespace trainscope

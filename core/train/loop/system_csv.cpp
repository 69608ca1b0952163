// system.csv: one row a second from a sampling thread.
#include "core/train/loop/system_csv.h"

#include <chrono>
#include <cmath>
#include <string>

#include "core/errors.h"
#include "core/io/line_file.h"
#include "core/system/number_format.h"
#include "core/system/process_stats.h"

namespace trainscope {

const char* SystemCsvPart::header() {
  return "time,cpu_percent,rss_bytes,available_bytes,threads,samples_per_second,data_wait_share";
}

SystemCsvPart::SystemCsvPart(const std::filesystem::path& run_dir, int torch_threads)
    : path_(run_dir / "system.csv"), threads_(torch_threads) {}

SystemCsvPart::~SystemCsvPart() { stopThread(); }

void SystemCsvPart::onRunStart() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { loop(); });
}

void SystemCsvPart::onStep(const StepRecord& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  samples_ += r.batch_samples;
  data_wait_ += r.data_wait.value_or(0);
}

void SystemCsvPart::onStop(const RunSummary&) { stopThread(); }

void SystemCsvPart::stopThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void SystemCsvPart::loop() {
  std::unique_ptr<LineFile> file;
  try {
    file = std::make_unique<LineFile>(path_);
    file->append(header());
  } catch (const Error&) {
    return;  // a derived file: the run's own files report a full disk
  }
  ProcessSampler sampler;
  auto last = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::duration<double>(kIntervalSeconds), [this] { return stop_; });
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    if (dt < 0.05) continue;  // stopped right after a row
    last = now;
    const int64_t samples = samples_;
    const double wait = data_wait_;
    samples_ = 0;
    data_wait_ = 0;
    lock.unlock();
    const ProcessSample s = sampler.sample();
    // locale-free numbers (the dashboard runs under the user's LC_NUMERIC)
    const std::string row = formatFixed(s.time, 3) + ',' +
                            formatFixed(std::isfinite(s.cpu_percent) ? s.cpu_percent : 0.0, 2) +
                            ',' + std::to_string(s.rss_bytes) + ',' +
                            std::to_string(s.available_bytes) + ',' + std::to_string(threads_) +
                            ',' + formatFixed(static_cast<double>(samples) / dt, 1) + ',' +
                            formatFixed(std::min(1.0, wait / dt), 4);
    try {
      file->append(row);
    } catch (const Error&) {
      return;
    }
    lock.lock();
  }
}

}  // namespace trainscope

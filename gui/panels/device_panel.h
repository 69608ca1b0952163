#pragma once
/// The device group: what this process trains on, and how much memory it uses.
#include <QGroupBox>
#include <QTimer>
#include <optional>

#include "core/system/device_info.h"

class QLabel;

namespace trainscope {

class RunCommands;

/// Shows libtorch's version, CUDA availability (or why not, and so why `auto` trains on the
/// CPU), device names, the CPU, the number of CPU threads in use, the BLAS library, what AMP
/// does here (bf16 autocast native or emulated on the CPU, fp16 on CUDA) and a live memory
/// readout (`memoryLabel`): the process's resident memory (residentMemoryBytes), and on a
/// CUDA device the allocated / reserved / total bytes (cudaMemory, TRAINSCOPE_CUDA builds).
/// The readout refreshes about once a second while `controller`'s run is active.
class DevicePanel : public QGroupBox {
  Q_OBJECT
 public:
  /// `controller` (optional, not owned) drives the memory readout's refresh.
  explicit DevicePanel(const DeviceInfo& info, const RunCommands* controller = nullptr,
                       QWidget* parent = nullptr);
  /// Shows the threads a run actually uses (RunInfo::num_threads) and its device; `detail`
  /// (describeThreadDetail: "auto: 1 = 66k/s, 2 = 11k/s", numbers and the config word "auto")
  /// follows in parentheses when not empty.
  void setRunThreads(int threads, const QString& device, const QString& detail = {});
  /// Back to the defaults (no run).
  void clearRun();
  /// Sets every text in the current language.
  void retranslate();
  /// Reads the memory figures now and shows them (the timer calls it every kMemoryIntervalMs).
  void refreshMemory();
  /// The resident bytes the readout shows now (nullopt when /proc was unreadable).
  std::optional<qint64> shownResidentBytes() const { return resident_; }
  /// True while the readout refreshes every kMemoryIntervalMs (a run is active).
  bool refreshing() const { return memory_timer_.isActive(); }

  static constexpr int kMemoryIntervalMs = 1000;

  /// "412.3 MB": bytes in decimal megabytes with one decimal, in the current locale.
  static QString formatMegabytes(qint64 bytes);

 private:
  void showRun();
  void showMemory();

  DeviceInfo info_;
  int run_threads_ = 0;
  QString run_device_;
  QString run_detail_;
  std::optional<qint64> resident_;
  QString cuda_memory_;  ///< the CUDA figures (translated), empty when not on CUDA
  QTimer memory_timer_;
  QLabel* threads_ = nullptr;
  QLabel* device_ = nullptr;
  QLabel* memory_ = nullptr;
};

}  // namespace trainscope

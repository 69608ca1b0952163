#pragma once
/// The device group: what this process trains on.
#include <QGroupBox>

#include "core/system/device_info.h"

class QLabel;

namespace trainscope {

/// Cores the dashboard leaves free for drawing when a run's thread count is the default
/// (TrainerOptions::reserved_cores).
inline constexpr int kGuiReservedCores = 1;

/// Shows libtorch's version, CUDA availability (or why not), device names, the CPU, the number
/// of CPU threads in use and the BLAS library, from probeDevices().
class DevicePanel : public QGroupBox {
  Q_OBJECT
 public:
  explicit DevicePanel(const DeviceInfo& info, QWidget* parent = nullptr);
  /// Shows the threads a run actually uses (RunInfo::num_threads) and its device; `detail`
  /// (describeThreadDetail: "auto: 1 = 66k/s, 2 = 11k/s", numbers and the config word "auto")
  /// follows in parentheses when not empty.
  void setRunThreads(int threads, const QString& device, const QString& detail = {});
  /// Back to the defaults (no run).
  void clearRun();
  /// Sets every text in the current language.
  void retranslate();

 private:
  void showRun();

  DeviceInfo info_;
  int run_threads_ = 0;
  QString run_device_;
  QString run_detail_;
  QLabel* threads_ = nullptr;
  QLabel* device_ = nullptr;
};

}  // namespace trainscope

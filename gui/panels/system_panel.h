#pragma once
/// The "System" side tab (issue 49 §5): the machine while a run trains, read about once a
/// second while the tab is shown.
#include <QTimer>
#include <QWidget>
#include <optional>

#include "core/system/device_info.h"
#include "core/system/process_stats.h"

class QLabel;

namespace trainscope {

class RunCommands;
struct RunInfo;
struct StepRecord;
class CoreBars;

/// True when `threads` intra-op threads in each of `processes` training processes ask for more
/// cores than `cores`: they then take turns, and each run is slower than with fewer threads.
bool threadsOversubscribe(int threads, int processes, int cores);

/// Shows (objectName `systemPanel`): this process's CPU share of all cores, each core's load
/// (`coreBars`, any process), torch intra-op threads of the run and the process's OS threads,
/// resident and available memory, training samples/s and the share of time the steps waited
/// for data (from the run's steps), a warning when torch threads x training processes exceed
/// the cores (`threadsWarning`), and the BLAS library with its kernel family, saying so when it
/// is a generic one on a CPU with AVX2 / AVX-512 and which setting selects the right kernels
/// (never set by TrainScope). Reads /proc through ProcessSampler every kIntervalMs while shown
/// (the engine writes the same figures to system.csv).
class SystemPanel : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kIntervalMs = 1000;
  SystemPanel(const DeviceInfo& info, RunCommands* controller, QWidget* parent = nullptr);
  /// Reads the figures now and shows them (the timer calls it).
  void refresh();
  void retranslate();
  /// The newest reading (for tests).
  const std::optional<ProcessSample>& lastSample() const { return sample_; }
  /// The warning's text, empty when the threads fit (for tests).
  QString warningText() const;
  /// The shown run's torch intra-op threads (RunInfo::num_threads; set at each run's start).
  void setTorchThreads(int threads);
  /// Counts the training processes with `processes` instead of /proc (tests).
  void setProcessCountForTest(int processes) { processes_for_test_ = processes; }

 protected:
  void showEvent(QShowEvent* e) override;
  void hideEvent(QHideEvent* e) override;
  void changeEvent(QEvent* e) override;

 private:
  void addStep(const StepRecord& s);
  void showFigures();
  RunCommands* controller_;
  DeviceInfo info_;
  BlasKernel blas_;
  ProcessSampler sampler_;
  std::optional<ProcessSample> sample_;
  QTimer timer_;
  int torch_threads_ = 0;  ///< the shown run's (0: no run yet)
  int processes_ = 0;      ///< training processes on this machine at the last reading
  std::optional<int> processes_for_test_;
  // steps since the last reading
  qint64 step_samples_ = 0;
  double step_wait_ = 0;
  double rate_ = -1, wait_share_ = -1;  ///< of the last reading's interval; -1: no steps
  qint64 last_ms_ = 0;
  QLabel* cpu_;
  CoreBars* cores_;
  QLabel* threads_;
  QLabel* memory_;
  QLabel* throughput_;
  QLabel* warning_;
  QLabel* blas_label_;
  QLabel* caption_;
  QLabel* cpu_title_;
  QLabel* cores_title_;
  QLabel* threads_title_;
  QLabel* memory_title_;
  QLabel* throughput_title_;
  QLabel* blas_title_;
};

}  // namespace trainscope

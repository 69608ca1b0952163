#pragma once
/// The run's progress row (progress bar, elapsed time and ETA, run folder) and the status bar.
#include <QStatusBar>
#include <QWidget>
#include <optional>

#include "core/run/records.h"
#include "gui/engine/run_state.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace trainscope {

/// Progress bar (`runProgressBar`), elapsed time and ETA (`timeLabel`), the run folder
/// (`runDirLabel`) and a button that opens it (`openRunFolderButton`).
class RunProgressPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RunProgressPanel(QWidget* parent = nullptr);
  /// A new run: empty bar, "0:00", its folder.
  void startRun(const QString& runDir);
  /// Progress after `step` of `totalSteps`, `elapsedSeconds` of training (pauses and the speed
  /// limit's waiting excluded). The ETA counts each remaining step at the slower of the
  /// measured seconds per step and 1 / `stepsPerSecond` (the speed limit; 0 = none).
  void showProgress(qint64 step, qint64 totalSteps, double elapsedSeconds,
                    double stepsPerSecond = 0);
  /// The run ended after `wallSeconds` of training (pauses excluded): "Training time 0:09
  /// (pauses excluded)", no ETA any more.
  void showEnded(double wallSeconds);
  /// Opens the run folder with the desktop's file manager; when there is none, says so and
  /// offers to copy the path.
  void openRunFolder();
  void retranslate();
  /// "m:ss" or "h:mm:ss"; "–" for negative or non-finite values.
  static QString formatDuration(double seconds);

 private:
  QString run_dir_;
  QProgressBar* progress_ = nullptr;
  QLabel* time_ = nullptr;
  QLabel* dir_caption_ = nullptr;
  QLabel* dir_ = nullptr;
  QPushButton* open_ = nullptr;
  double elapsed_ = 0, eta_ = -1, wall_ = -1;
};

/// The status bar's permanent fields: epoch, step, the last epoch's validation result and
/// learning rate, throughput, the device the run trains on (`deviceLabel`: "CPU, 2 threads",
/// "cuda:0"; the device lesson points at it), seed (`seedLabel`, selectable). Each field is as
/// wide as its text, so nothing is cut short.
class RunStatusBar : public QStatusBar {
  Q_OBJECT
 public:
  explicit RunStatusBar(QWidget* parent = nullptr);
  /// Placeholders ("Epoch –", ...).
  void reset();
  void showRunInfo(const RunInfo& info);
  /// The run's teaching.mistakes: a red field (mistakesLabel, "TEACHING: 2 mistakes on", the
  /// list in its tool tip) while shown; hidden without. reset() hides it.
  void showMistakes(const std::vector<std::string>& names);
  /// The step just trained and the epoch it belongs to.
  void showStep(const StepRecord& step, qint64 totalEpochs);
  void showEpoch(const EpochRecord& epoch, qint64 totalEpochs);
  /// A learning rate set while the run is active (config_changed "optimizer.lr"): shown at
  /// once, until the next step or epoch record says otherwise.
  void showLearningRate(double lr);
  /// The run ended: throughput becomes the run's mean over its epochs (total samples / total
  /// training time), not the last epoch's.
  void showRunEnded();
  /// The run state as a temporary message ("Training...", "Paused", ...; none when idle).
  void showState(RunState state);
  void retranslate();
  /// Compact (presentation mode): the throughput and the seed are left out, so that the
  /// epoch, step, metric, device and mistakes fit a projector's width at large text.
  void setCompact(bool compact);

 private:
  void setField(QLabel* label, const QString& text);
  void render();

  std::optional<RunInfo> info_;
  std::optional<StepRecord> step_record_;
  std::optional<EpochRecord> epoch_record_;
  std::optional<double> lr_;  ///< the learning rate in force (live changes included)
  qint64 total_epochs_ = 0;
  double inverse_rate_sum_ = 0;  ///< sum over epochs of 1 / samples_per_second
  int rated_epochs_ = 0;
  bool ended_ = false;
  QLabel* epoch_ = nullptr;
  QLabel* step_ = nullptr;
  QLabel* metrics_ = nullptr;
  QLabel* speed_ = nullptr;
  QLabel* seed_ = nullptr;
  QLabel* device_ = nullptr;
  QLabel* mistakes_ = nullptr;
  bool compact_ = false;
  std::vector<std::string> mistake_names_;
};

}  // namespace trainscope

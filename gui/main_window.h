#pragma once
/// TrainScope's main window: settings, run controls, device and data panels, live plots, events.
#include <QMainWindow>
#include <QTimer>
#include <optional>
#include <vector>

#include "core/system/device_info.h"
#include "gui/event_text.h"
#include "gui/training_controller.h"

class QAction;
class QCheckBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace trainscope {

class DevicePanel;
class LivePlot;
class RunSummaryPanel;
class SettingsPanel;

/// The dashboard. Owns a TrainingController (worker thread bridge); all widgets and plots live
/// on the GUI thread. Records arrive as controller signals; plot data is buffered and drawn by a
/// ~30 Hz timer with one batched add per graph and one queued replot.
class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Folder under which each run gets its own directory. Default: QSettings "runsRoot", else
  /// <Documents or home>/TrainScope/runs. Not saved to QSettings (use the File menu for that).
  void setRunsRoot(const QString& dir);
  QString runsRoot() const { return runs_root_; }
  /// The default runs root: <Documents, else home>/TrainScope/runs.
  static QString defaultRunsRoot();

  /// Ask before closing while a run is active (default true; off for automation and tests).
  void setConfirmClose(bool confirm) { confirm_close_ = confirm; }
  /// Stop the run after `epochs` epochs (0 = never).
  void setQuitAfterEpochs(int epochs) { quit_after_epochs_ = epochs; }
  /// Quit the application (exit code 0) when the run ends, after taking the screenshot.
  void setQuitWhenRunEnds(bool quit) { quit_when_run_ends_ = quit; }
  /// Save a grab of this window to `path` just before quitting.
  void setScreenshotPath(const QString& path) { screenshot_path_ = path; }

  /// Loads a built-in preset into the settings. On failure returns false, sets `error` and
  /// keeps the previous settings.
  bool loadPreset(const QString& name, QString* error = nullptr);
  /// Loads a (possibly partial) config file merged over the defaults. On failure returns false,
  /// sets `error` (naming the key) and keeps the previous settings.
  bool openConfigFile(const QString& path, QString* error = nullptr);
  /// Saves the current settings as a config file. On failure returns false and sets `error`.
  bool saveConfigFile(const QString& path, QString* error = nullptr);

  /// The config a run started now would use (settings panel values applied).
  TrainConfig currentConfig() const;
  /// The run directory of the current/last run (empty before the first run).
  QString runDirectory() const { return run_dir_; }
  TrainingController* controller() const { return controller_; }
  /// Renders the window (plots up to date) into an image, as --screenshot saves it.
  QImage grabWindowImage();

 public slots:
  /// Starts a new run with the current settings (Start button).
  void startRun();
  /// Pause/resume toggle (Pause button).
  void togglePause();
  /// One batch; from idle or after a run, starts a new run paused after its first step.
  void stepBatch();
  /// To the end of the current epoch, then pause.
  void stepEpoch();
  /// Ends the run; summary.json is written.
  void stopRun();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildUi();
  void buildMenus();
  void setupPlots();
  bool beginRun(bool pausedAfterFirstStep);
  void resetRunView();
  void updateActions();
  void flushPlots();
  void updateProgress();
  void addEventLine(const QString& text, EventText::Severity severity);
  void finishAndQuit(int exitCode);
  /// Saves the --screenshot image now; false (with a warning) when it cannot be written.
  bool saveScreenshot();

  void onStateChanged(TrainingController::State state);
  void onRunStarted(const RunInfo& info);
  void onStepRecorded(const StepRecord& step);
  void onEpochFinished(const EpochRecord& epoch);
  void onEventOccurred(const Event& event);
  void onRunFinished(const RunSummary& summary);
  void onRunFailed(const RunFailure& failure);
  void onOpenConfig();
  void onSaveConfig();
  void onOpenRunFolder();
  void onChooseRunsRoot();
  void onLogScaleToggled(bool logarithmic);

  TrainingController* controller_ = nullptr;
  DeviceInfo device_info_;

  SettingsPanel* settings_ = nullptr;
  DevicePanel* device_panel_ = nullptr;
  RunSummaryPanel* summary_panel_ = nullptr;
  QPushButton* start_button_ = nullptr;
  QPushButton* pause_button_ = nullptr;
  QPushButton* step_button_ = nullptr;
  QPushButton* step_epoch_button_ = nullptr;
  QPushButton* stop_button_ = nullptr;
  LivePlot* loss_plot_ = nullptr;
  LivePlot* grad_plot_ = nullptr;
  QCheckBox* log_scale_ = nullptr;
  QListWidget* events_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* time_label_ = nullptr;
  QLabel* run_dir_label_ = nullptr;
  QPushButton* open_folder_button_ = nullptr;
  QLabel* epoch_status_ = nullptr;
  QLabel* step_status_ = nullptr;
  QLabel* metrics_status_ = nullptr;
  QLabel* speed_status_ = nullptr;
  QLabel* seed_status_ = nullptr;
  QAction* open_config_action_ = nullptr;
  QAction* save_config_action_ = nullptr;
  QAction* open_run_folder_action_ = nullptr;
  QAction* runs_root_action_ = nullptr;

  // Plot data waiting for the next flush (GUI thread only).
  QVector<double> pending_step_keys_, pending_step_loss_, pending_grad_, pending_grad_clipped_;
  QVector<double> pending_epoch_keys_, pending_train_loss_, pending_val_loss_;
  bool plots_dirty_ = false;
  QTimer flush_timer_;

  QString runs_root_;
  QString run_dir_;
  QString screenshot_path_;
  bool screenshot_saved_ = false;
  int quit_exit_code_ = 0;  ///< exit code for a --quit-after-epochs quit (1: screenshot failed)  ///< taken live at epoch N under --quit-after-epochs
  bool confirm_close_ = true;
  bool quit_when_run_ends_ = false;
  bool quitting_ = false;
  int quit_after_epochs_ = 0;
  bool clip_enabled_ = false;
  double clip_max_norm_ = 0;
  qint64 total_steps_ = 0;
  qint64 total_epochs_ = 0;
  std::optional<StepRecord> last_step_;
};

}  // namespace trainscope

#pragma once
/// TrainScope's main window: composes the panels and plots, the menus and the close logic.
#include <QMainWindow>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <QStringList>
#include <QTimer>

class QSplitter;

#include "core/config/config_fwd.h"
#include "core/system/device_info.h"
#include "gui/engine/record_types.h"
#include "gui/engine/run_state.h"

namespace trainscope {

class CheckpointPanel;
class DevicePanel;
class EventsPanel;
class MainMenu;
class GradNormPlot;
class LossPlot;
class PlotArea;
class LessonPanel;
class Presentation;
class RunControlsPanel;
class RunCommands;
enum class FollowState;
class RunInfoPanel;
class RunsWindow;
class SweepsWindow;
struct SweepLaunch;
class RunProgressPanel;
class RunStatusBar;
class SettingsPanel;
class RunSession;

/// The dashboard. Owns a RunSession (the run, its worker thread and its history); all
/// widgets live on the GUI thread. Records arrive as controller signals and are drawn by a
/// ~30 Hz timer, whatever the step rate.
class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Folder under which each run gets its own directory. Default: QSettings "runsRoot", else
  /// <Documents or home>/TrainScope/runs. Not saved to QSettings (use the File menu for that).
  void setRunsRoot(const QString& dir) { runs_root_ = dir; }
  QString runsRoot() const { return runs_root_; }

  /// Ask before closing while a run is active (default true; off for automation and tests).
  void setConfirmClose(bool confirm) { confirm_close_ = confirm; }
  /// Runs at full speed whatever the speed slider remembers (automation, screenshots), also
  /// after a preset, config file or lesson is loaded.
  void setFullSpeed();

  /// Loads a built-in preset into the settings; false with `error` set for an unknown name.
  bool loadPreset(const QString& name, QString* error = nullptr);
  /// Loads a (possibly partial) config file; false with `error` (naming the key) on failure,
  /// the previous settings kept.
  bool openConfigFile(const QString& path, QString* error = nullptr);
  /// Saves the current settings as a config file; false with `error` on failure.
  bool saveConfigFile(const QString& path, QString* error = nullptr);
  /// Opens a checkpoint without asking: its run waits paused at its step, curves restored (see
  /// CheckpointPanel::load). False with `error` naming the file; nothing changes then.
  bool loadCheckpoint(const QString& path, QString* error = nullptr);
  /// Shows the finished run in the folder `dir` (RunSession::openRun) with its settings;
  /// false with `error` naming the folder or file, nothing changed then.
  bool openRun(const QString& dir, QString* error = nullptr);

  /// The config a run started now would use (settings panel values applied).
  TrainConfig currentConfig() const;
  /// The run directory of the current/last run (empty before the first run).
  QString runDirectory() const;
  /// The run session (tests and the window's own wiring; include
  /// gui/engine/run_session.h to use it).
  RunSession* controller() const { return controller_; }
  /// The session's commands and state (automation).
  RunCommands* commands() const;
  /// The Runs window once opened (showRunsWindow), else null.
  RunsWindow* runsWindow() const { return runs_window_; }
  /// The Sweeps window once opened (showSweepsWindow), else null.
  SweepsWindow* sweepsWindow() const { return sweeps_window_; }
  /// Starts the sweep `launch` (File > New sweep..., a lesson's sweep action) in the runs
  /// folder and shows it in the Sweeps window; false with `error` naming the key and the
  /// problem, nothing started then. Defined in main_window_sweeps.cpp.
  bool startSweep(const SweepLaunch& launch, QString* error = nullptr);
  /// Opens a lesson (File > Lessons, --lesson): a built-in lesson's name or a lesson file
  /// (.tslesson or .json with a "lesson" section); its settings replace the current ones and
  /// the lesson panel shows its first step. False with `error` naming the file or name (and
  /// the built-in names) when it cannot be read or a run is active; nothing changes then.
  /// Defined in main_window_lessons.cpp, as the next two.
  bool openLesson(const QString& nameOrFile, QString* error = nullptr);
  /// Saves the current settings as a lesson file titled `title` (the open lesson's steps, else
  /// one step that starts the run), written atomically; false with `error` naming the file.
  bool saveLesson(const QString& file, const QString& title, QString* error = nullptr);
  LessonPanel* lessonPanel() const { return lesson_panel_; }
  /// Brings the plot area's view `key` (lessonViewNames: "evaluation", "embedding", "system",
  /// ...) to the front (--view); false when no view has that key.
  bool showView(const QString& key);
  /// Presentation mode (View > Presentation mode, F5).
  Presentation* presentation() const { return presentation_; }
  /// Renders the window (plots up to date) into an image, as --screenshot saves it.
  QImage grabWindowImage();

 public slots:
  /// Opens the Runs window (File > Runs...) on the runs folder: Show opens a run here (as
  /// openRun), Continue loads its last.pt (as loadCheckpoint), Run again loads its config.json.
  /// One window, raised when open. Defined in main_window_runs.cpp.
  void showRunsWindow();
  /// Opens the Sweeps window (File > Sweeps...) on the sweep folder `dir`, else the newest
  /// sweep in the runs folder: Open shows a trial here (as openRun), Beside the live run draws
  /// it as the ghost. One window, raised when open. Defined in main_window_sweeps.cpp.
  void showSweepsWindow(const QString& dir = QString());
  /// File > New sweep...: a sweep of the current settings (NewSweepDialog).
  void newSweep();
  /// Starts a new run with the current settings (Start button); resumes a paused one.
  /// False when the run could not start (the events panel says why).
  bool startRun();
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
  void changeEvent(QEvent* event) override;

 private:
  /// The classroom pace of `preset` (RunControlsPanel::suggestedPace; full speed for any other
  /// name, empty for one's own config), not remembered; nothing after setFullSpeed().
  void applyPaceFor(const QString& preset);
  void buildUi();
  void buildMenus();  // main_window_menus.cpp, with retranslate() and changeEvent()
  /// The window's size, splitters and tabs in front, remembered in QSettings ("layout/...")
  /// when it closes and put back when one opens (main_window_menus.cpp). Presentation mode's
  /// own arrangement is not remembered, only its scale (Presentation).
  void saveLayout();
  void restoreLayout();
  /// Names the lesson, else the preset, in the window title (main_window_lessons.cpp).
  void updateTitle();
  /// A lesson's sweep action: a sweep of the current settings, shown in the Sweeps window on its
  /// objective against the first parameter (main_window_sweeps.cpp).
  bool startLessonSweep(const nlohmann::json& sweep, QString* error);
  /// showSweepsWindow, then `then` once the sweep in `dir` could be read.
  void showSweepsWindowThen(const QString& dir, std::function<void(SweepsWindow*)> then);
  /// A lesson's start: startRun, or with `paused` a new run paused after its first batch.
  bool startLessonRun(bool paused);
  void onOpenLessonFile();
  /// File > Lessons lists the built-in lessons by their titles in the interface language.
  void listBuiltInLessons();
  void onSaveLesson();
  /// File > Show the PyTorch code: the current settings as a script (PythonCodeDialog).
  void onShowPythonCode();
  /// A lesson's run at the classroom pace: a pace that lets the run `info` plans take about 25 s.
  void fitLessonPace(const RunInfo& info);
  /// File > Export run report: the shown run's report (writeRunReport) to a chosen file.
  void onExportReport();
  void onExportModel();
  /// A window's Show / Beside the live run on a run folder (the Runs and Sweeps windows):
  /// shows it here or draws it as the ghost, telling `from` why not (main_window_runs.cpp).
  void showRunFrom(QWidget* from, const QString& dir);
  void ghostRunFrom(QWidget* from, const QString& dir);
  /// Sets every text of the window in the current language (Language menu, --lang).
  void retranslate();
  void flush();
  void onStateChanged(RunState state);
  void onRunStarted(const RunInfo& info);
  void onEpochFinished(const EpochRecord& epoch);
  void onEventOccurred(const Event& event);
  void onRunFinished(const RunSummary& summary);
  void onRunFailed(const RunFailure& failure);
  void onChooseRunsRoot();
  void onOpenRun();
  /// A run another process writes, shown with openRun: its state in the status bar
  /// (main_window_runs.cpp).
  void onFollowStatus(trainscope::FollowState state, double idleSeconds);
  /// A run is shown: names the loss plot's ghost and marks the run's teaching mistakes on the
  /// loss plot (the status bar marks them from the RunInfo).
  void showRunMarks(const RunInfo& info);

  RunSession* controller_ = nullptr;
  DeviceInfo device_info_;
  SettingsPanel* settings_ = nullptr;
  RunControlsPanel* controls_ = nullptr;
  CheckpointPanel* checkpoint_ = nullptr;
  DevicePanel* device_panel_ = nullptr;
  RunInfoPanel* info_panel_ = nullptr;
  RunProgressPanel* progress_ = nullptr;
  LossPlot* loss_plot_ = nullptr;
  GradNormPlot* grad_plot_ = nullptr;
  PlotArea* plot_area_ = nullptr;
  EventsPanel* events_ = nullptr;
  RunStatusBar* status_ = nullptr;
  MainMenu* menu_ = nullptr;
  RunsWindow* runs_window_ = nullptr;
  SweepsWindow* sweeps_window_ = nullptr;
  Presentation* presentation_ = nullptr;
  LessonPanel* lesson_panel_ = nullptr;
  QSplitter* columns_ = nullptr;  ///< the settings column | the plots
  QSplitter* rows_ = nullptr;     ///< the columns over the events panel
  QTimer flush_timer_;
  quint64 flushed_ = ~quint64{0};  ///< history appendCount() at the last flush
  /// The shown run's live changes and roll-backs ("step: message"; the PyTorch code dialog
  /// says they make that run differ from the script) and the step of the first.
  QStringList live_changes_;
  qint64 live_change_step_ = 0;
  QString runs_root_;
  bool confirm_close_ = true;
  bool full_speed_ = false;  ///< setFullSpeed(): loading a preset, config or lesson keeps it
};

}  // namespace trainscope

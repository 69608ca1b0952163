#pragma once
/// Scripted runs of the dashboard: --autostart, --quit-after-epochs, --screenshot, --runs-dir.
#include <QObject>

#include "gui/app/app_options.h"
#include "gui/engine/record_types.h"
#include "gui/engine/run_commands.h"
#include "gui/model/run_store.h"

namespace trainscope {

class MainWindow;

/// Drives a MainWindow from the command-line options (scripts and documentation use them):
/// starts the run, stops it exactly at the end of epoch N (the engine pauses at that epoch's
/// end, so no step of epoch N+1 runs), saves a grab of the window (once the run's end is shown
/// after epoch N or at the run's end; at a pause nobody asked for, such as a non-finite value
/// under the "pause" policy, of the paused state with its panel)
/// and quits with 0, 1 when the screenshot could not be saved, or 2 when the run could not
/// start (the reason goes to stderr).
class Automation : public QObject {
  Q_OBJECT
 public:
  /// Applies `options` to `window` (runs root, close question) and connects to its controller.
  Automation(MainWindow* window, const AppOptions& options, QObject* parent = nullptr);
  /// Starts the run when the options ask for it (from the event loop).
  void begin();

 signals:
  /// The window was grabbed for --screenshot while the run was in `state`.
  void screenshotTaken(trainscope::RunState state);

 private:
  void startRun();
  void onEpoch(const EpochRecord& epoch);
  void onEvent(const Event& event);
  /// Saves the screenshot of the state now (an unplanned pause), stops the run; the quit
  /// follows its end.
  void finishScripted();
  void onRunEnded();
  void onRunFailed(const RunFailure& failure);
  bool saveScreenshot();
  void quit(int exitCode);

  MainWindow* window_;
  AppOptions options_;
  bool screenshot_saved_ = false;
  bool quitting_ = false;
  bool stop_at_pause_ = false;  ///< epoch N (before the planned end) reached: stop at its pause
  int exit_code_ = 0;
};

}  // namespace trainscope

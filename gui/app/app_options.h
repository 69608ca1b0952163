#pragma once
/// Command-line flags of the `trainscope` executable.
#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace trainscope {

/// What the command line asked for.
struct AppOptions {
  QString preset;             ///< --preset NAME
  QString config_file;        ///< --config FILE
  QString checkpoint;         ///< --checkpoint FILE: open it paused at its step
  QString open_run;           ///< --open-run DIR: show that finished run (nothing trains)
  QString runs_dir;           ///< --runs-dir DIR (empty: from QSettings / the default)
  QString lesson;             ///< --lesson NAME|FILE: a built-in lesson or a lesson file
  QString view;               ///< --view KEY: the view brought to the front (lessonViewNames)
  QString screenshot;         ///< --screenshot FILE
  QString language;           ///< --lang en|zh_CN (empty: remembered choice, else the system)
  QString report;             ///< --report DIR: write that run's report and quit (no window)
  QString report_file;        ///< --report-file FILE: .html or .pdf
  bool autostart = false;     ///< --autostart (also implied by the two flags below)
  bool presentation = false;  ///< --presentation: presentation mode, not full screen
  int quit_after_epochs = 0;  ///< --quit-after-epochs N (0 = never)
  /// Quit when the run ends (--quit-after-epochs, or --screenshot without it).
  /// Not with --open-run: nothing runs; --screenshot then saves the shown run and quits.
  bool quitWhenRunEnds() const {
    return open_run.isEmpty() && (quit_after_epochs > 0 || !screenshot.isEmpty());
  }
};

/// Outcome of parsing.
struct AppOptionsResult {
  enum class Status { Ok, Help, Version, Error };
  Status status = Status::Ok;
  AppOptions options;
  QString text;  ///< help text, version text or the error message
};

/// Parses `arguments` (argv, program name first) with QCommandLineParser. Does not need a
/// QApplication instance and does not exit; the caller prints `text` and chooses the exit code.
/// Checks flag syntax only; the preset and config file are checked when they are loaded.
class AppOptionsParser {
 public:
  static AppOptionsResult parse(const QStringList& arguments);
  /// The hint printed after a usage error ("Try 'trainscope --help'.").
  static QString helpHint();
};

}  // namespace trainscope

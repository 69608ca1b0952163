#pragma once
/// SIGINT/SIGTERM for the dashboard: turned into a Qt signal on the GUI thread, so a killed
/// window stops its run cleanly (files flushed, summary.json written) instead of dying mid-line.
#include <QObject>

class QSocketNotifier;

namespace trainscope {

/// Installs handlers for SIGINT and SIGTERM that write to a socket pair (the only
/// async-signal-safe hand-over); a QSocketNotifier reads it on the GUI thread and emits
/// received(). The pattern of Qt's "Calling Qt Functions From Unix Signal Handlers".
/// Create at most one, on the GUI thread, after the QApplication.
class UnixSignalNotifier : public QObject {
  Q_OBJECT
 public:
  explicit UnixSignalNotifier(QObject* parent = nullptr);
  ~UnixSignalNotifier() override;

 signals:
  /// A SIGINT or SIGTERM arrived (signal number).
  void received(int signal_number);

 private:
  void onReadable();
  QSocketNotifier* notifier_ = nullptr;
};

}  // namespace trainscope

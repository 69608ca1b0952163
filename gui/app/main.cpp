// trainscope: the GUI executable. Parses the command line and starts the main window; all
// behaviour lives in the trainscope_gui library.
#include <QApplication>
#include <QDateTime>
#include <QEvent>
#include <QTimer>
#include <csignal>
#include <cstdio>
#include <memory>

#include "gui/app/app_options.h"
#include "gui/teaching/presentation.h"
#include "gui/app/automation.h"
#include "gui/app/translations.h"
#include "gui/app/unix_signals.h"
#include "gui/main_window.h"
#include "gui/teaching/run_report.h"

namespace {
void printTo(FILE* stream, const QString& text) {
  std::fputs(qPrintable(text), stream);
  if (!text.endsWith(QLatin1Char('\n'))) std::fputc('\n', stream);
}

/// TRAINSCOPE_FIRST_FRAME=1 (bench/first_frame.sh): once the window has painted for the first
/// time (the first paint of any widget), prints "first_frame_unix_s=S" (wall clock, seconds since the epoch, to the millisecond)
/// on stdout and quits, so a script can time a start from its own clock.
class FirstFrameProbe : public QObject {
 public:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Paint && !seen_) {
      seen_ = true;
      // After this paint and its flush to the screen: the next turn of the event loop.
      QTimer::singleShot(0, qApp, [] {
        std::printf("first_frame_unix_s=%.6f\n",
                    static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
        std::fflush(stdout);
        QCoreApplication::exit(0);
      });
    }
    return QObject::eventFilter(watched, event);
  }

 private:
  bool seen_ = false;
};

QStringList argumentList(int argc, char** argv) {
  QStringList list;
  for (int i = 0; i < argc; ++i) list << QString::fromLocal8Bit(argv[i]);
  return list;
}
}  // namespace

int main(int argc, char** argv) {
  // A file size limit (ulimit -f): a write past it fails with EFBIG, which the run writer and
  // the report handle as a full disk, instead of SIGXFSZ killing the dashboard mid-record.
  std::signal(SIGXFSZ, SIG_IGN);
  // --help, --version and usage errors work without a display: no QApplication for them.
  const trainscope::AppOptionsResult preparsed =
      trainscope::AppOptionsParser::parse(argumentList(argc, argv));
  const bool gui_needed = preparsed.status == trainscope::AppOptionsResult::Status::Ok;
  std::unique_ptr<QCoreApplication> app;
  // A report draws its plots offscreen: no display needed (a server, trainscope-cli report).
  if (!preparsed.options.report.isEmpty()) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Without a desktop session Qt warns that XDG_RUNTIME_DIR is unset: noise for a report.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
      if (type == QtWarningMsg && message.startsWith(QLatin1String("QStandardPaths:"))) return;
      printTo(stderr, message);
    });
  }
  if (!gui_needed) {
    app = std::make_unique<QCoreApplication>(argc, argv);
  } else {
    app = std::make_unique<QApplication>(argc, argv);
  }
  QCoreApplication::setOrganizationName(QStringLiteral("TrainScope"));
  QCoreApplication::setApplicationName(QStringLiteral("TrainScope"));
  // Language: --lang, else the choice remembered from the Language menu, else the system's.
  const QString language = trainscope::startupLanguage(preparsed.options.language);
  QLocale::setDefault(QLocale(language));
  trainscope::installTranslations(*app, QLocale(language));

  const trainscope::AppOptionsResult parsed =
      trainscope::AppOptionsParser::parse(QCoreApplication::arguments());
  using Status = trainscope::AppOptionsResult::Status;
  switch (parsed.status) {
    case Status::Help:
    case Status::Version:
      printTo(stdout, parsed.text);
      return 0;
    case Status::Error:
      printTo(stderr, QStringLiteral("trainscope: %1").arg(parsed.text));
      printTo(stderr, trainscope::AppOptionsParser::helpHint());
      return 2;
    case Status::Ok:
      break;
  }
  if (!qobject_cast<QApplication*>(app.get())) return 2;  // unreachable: parsed differently
  const trainscope::AppOptions& options = parsed.options;
  if (!options.report.isEmpty()) {
    QString error;
    bool write_failed = false;
    if (!trainscope::writeRunReport(options.report, options.report_file, QString(), &error,
                                    &write_failed)) {
      printTo(stderr, QStringLiteral("trainscope: %1").arg(error));
      return write_failed ? 1 : 2;  // a full disk is not bad input
    }
    return 0;
  }

  trainscope::MainWindow window;
  QString error;
  if (!options.preset.isEmpty() && !window.loadPreset(options.preset, &error)) {
    printTo(stderr, QStringLiteral("trainscope: %1").arg(error));
    return 2;
  }
  if (!options.config_file.isEmpty() && !window.openConfigFile(options.config_file, &error)) {
    // Without its last line, "The previous settings are kept.": at start there are none.
    printTo(stderr, QStringLiteral("trainscope: %1").arg(error.section(QLatin1Char('\n'), 0, -2)));
    return 2;
  }
  trainscope::Automation automation(&window, options);  // applies --runs-dir
  if (!options.checkpoint.isEmpty() && !window.loadCheckpoint(options.checkpoint, &error)) {
    printTo(stderr, QStringLiteral("trainscope: %1").arg(error));
    return 2;
  }
  // Before a lesson starts its first run: its pictures are then all in presentation style.
  if (options.presentation) window.presentation()->setActive(true);
  if (!options.lesson.isEmpty() && !window.openLesson(options.lesson, &error)) {
    printTo(stderr, QStringLiteral("trainscope: %1").arg(error));
    return 2;
  }
  if (!options.view.isEmpty()) window.showView(options.view);
  if (!options.open_run.isEmpty() && !window.openRun(options.open_run, &error)) {
    printTo(stderr, QStringLiteral("trainscope: %1").arg(error));
    return 2;
  }
  // Ctrl-C or SIGTERM: close as the window's close button does, without asking, so the run
  // stops cleanly and summary.json is written.
  trainscope::UnixSignalNotifier signals_notifier;
  QObject::connect(&signals_notifier, &trainscope::UnixSignalNotifier::received, &window,
                   [&window](int) {
                     window.setConfirmClose(false);
                     window.close();
                   });
  FirstFrameProbe first_frame;
  if (qEnvironmentVariable("TRAINSCOPE_FIRST_FRAME") == QLatin1String("1"))
    app->installEventFilter(&first_frame);
  window.show();
  automation.begin();
  return app->exec();
}

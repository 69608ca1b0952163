// trainscope: the GUI executable. Parses the command line and starts the main window; all
// behaviour lives in the trainscope_gui library.
#include <QApplication>
#include <QTimer>
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

QStringList argumentList(int argc, char** argv) {
  QStringList list;
  for (int i = 0; i < argc; ++i) list << QString::fromLocal8Bit(argv[i]);
  return list;
}
}  // namespace

int main(int argc, char** argv) {
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
    if (!trainscope::writeRunReport(options.report, options.report_file, QString(), &error)) {
      printTo(stderr, QStringLiteral("trainscope: %1").arg(error));
      return 2;
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
    printTo(stderr, QStringLiteral("trainscope: %1").arg(error));
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
  window.show();
  automation.begin();
  return app->exec();
}

#include "gui/app/app_options.h"

#include <algorithm>

#include "core/train/teaching/lesson.h"

#include <QCommandLineParser>

#include "core/system/device_info.h"
#include "gui/teaching/lessons.h"
#include "gui/tr.h"

namespace trainscope {
namespace {

std::string joinedViewNames() {
  std::string out;
  for (const std::string& n : lessonViewNames()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace


QString AppOptionsParser::helpHint() { return Tr::tr("Try 'trainscope --help'."); }

AppOptionsResult AppOptionsParser::parse(const QStringList& arguments) {
  AppOptionsResult result;
  QCommandLineParser parser;
  parser.setApplicationDescription(
      Tr::tr("TrainScope: train a neural network with libtorch and watch it learn."));
  const QCommandLineOption help = parser.addHelpOption();
  const QCommandLineOption version = parser.addVersionOption();
  const QCommandLineOption preset(QStringLiteral("preset"),
                                  Tr::tr("Start with the built-in preset <name>."), Tr::tr("name"));
  const QCommandLineOption config(QStringLiteral("config"),
                                  Tr::tr("Start with the settings of the config file <file>."),
                                  Tr::tr("file"));
  const QCommandLineOption checkpoint(
      QStringLiteral("checkpoint"),
      Tr::tr("Open the checkpoint <file>: its run waits paused at the step it was saved at, with "
             "its curves; Start (or --autostart) continues it."),
      Tr::tr("file"));
  const QCommandLineOption open_run(
      QStringLiteral("open-run"),
      Tr::tr("Show the finished run in the folder <dir>: its curves, events and diagnosis. "
             "Nothing is trained; with --screenshot, the picture is saved and TrainScope quits."),
      Tr::tr("dir"));
  const QCommandLineOption autostart(QStringLiteral("autostart"),
                                     Tr::tr("Start training as soon as the window opens."));
  const QCommandLineOption quit_after(
      QStringLiteral("quit-after-epochs"),
      Tr::tr("Start training, stop after <n> epochs and quit (exit code 0)."), Tr::tr("n"));
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      Tr::tr("Save a picture of the window to <file> just before quitting. Alone, it starts "
             "training and quits when the run ends."),
      Tr::tr("file"));
  const QCommandLineOption runs_dir(QStringLiteral("runs-dir"),
                                    Tr::tr("Create run folders under <dir>."), Tr::tr("dir"));
  const QCommandLineOption lang(
      QStringLiteral("lang"),
      Tr::tr("Interface language: en or zh_CN (default: the one chosen in the Language menu, "
             "else the system's)."),
      Tr::tr("language"));
  const QCommandLineOption presentation(
      QStringLiteral("presentation"),
      Tr::tr("Start in presentation mode (View > Presentation mode, F5), in the window's size."));
  const QCommandLineOption lesson(
      QStringLiteral("lesson"),
      Tr::tr("Open a lesson: a built-in one by name (%1) or a lesson file.")
          .arg(builtInLessonNames().join(QStringLiteral(", "))),
      Tr::tr("name-or-file"));
  const QCommandLineOption report(
      QStringLiteral("report"),
      Tr::tr("Write the run report of the run folder <dir> to --report-file and quit, without "
             "a window (trainscope-cli report runs this)."),
      Tr::tr("dir"));
  const QCommandLineOption report_file(
      QStringLiteral("report-file"),
      Tr::tr("The report's file: .html (one file, plots inside) or .pdf."), Tr::tr("file"));
  const QCommandLineOption view(
      QStringLiteral("view"),
      Tr::tr("Bring the view <key> to the front: %1.")
          .arg(QString::fromStdString(joinedViewNames())),
      Tr::tr("key"));
  parser.addOptions({preset, config, checkpoint, open_run, autostart, quit_after, screenshot,
                     runs_dir, lang, presentation, lesson, report, report_file, view});

  if (!parser.parse(arguments)) {
    result.status = AppOptionsResult::Status::Error;
    result.text = parser.errorText();
    return result;
  }
  if (parser.isSet(help)) {
    result.status = AppOptionsResult::Status::Help;
    result.text = parser.helpText();
    return result;
  }
  if (parser.isSet(version)) {
    result.status = AppOptionsResult::Status::Version;
    result.text = QStringLiteral("trainscope %1").arg(QString::fromLatin1(trainscopeVersion()));
    return result;
  }
  if (!parser.positionalArguments().isEmpty()) {
    result.status = AppOptionsResult::Status::Error;
    result.text = Tr::tr("Unexpected argument: %1").arg(parser.positionalArguments().first());
    return result;
  }
  if (int(parser.isSet(preset)) + int(parser.isSet(config)) + int(parser.isSet(checkpoint)) > 1) {
    result.status = AppOptionsResult::Status::Error;
    result.text = Tr::tr("Use only one of --preset, --config and --checkpoint.");
    return result;
  }
  if (parser.isSet(lesson) && (parser.isSet(preset) || parser.isSet(config) ||
                                parser.isSet(checkpoint) || parser.isSet(open_run) ||
                                parser.isSet(quit_after) || parser.isSet(autostart))) {
    result.status = AppOptionsResult::Status::Error;
    result.text = Tr::tr("--lesson brings its own settings and runs: use it without --preset, "
                         "--config, --checkpoint, --open-run, --autostart and "
                         "--quit-after-epochs.");
    return result;
  }
  if (parser.values(lesson).size() > 1) {
    result.status = AppOptionsResult::Status::Error;
    result.text = Tr::tr("--lesson is given %1 times: open one lesson at a time.")
                      .arg(parser.values(lesson).size());
    return result;
  }
  if (parser.isSet(open_run) &&
      (parser.isSet(preset) || parser.isSet(config) || parser.isSet(checkpoint) ||
       parser.isSet(autostart) || parser.isSet(quit_after))) {
    result.status = AppOptionsResult::Status::Error;
    result.text = Tr::tr(
        "--open-run shows a finished run: use it without --preset, --config, "
        "--checkpoint, --autostart and --quit-after-epochs.");
    return result;
  }
  if (parser.isSet(report) != parser.isSet(report_file)) {
    result.status = AppOptionsResult::Status::Error;
    result.text = Tr::tr("--report and --report-file go together: the run folder and the file.");
    return result;
  }
  if (parser.isSet(report) &&
      (parser.isSet(preset) || parser.isSet(config) || parser.isSet(checkpoint) ||
       parser.isSet(open_run) || parser.isSet(autostart) || parser.isSet(quit_after) ||
       parser.isSet(screenshot) || parser.isSet(lesson) || parser.isSet(presentation))) {
    result.status = AppOptionsResult::Status::Error;
    result.text = Tr::tr("--report writes a file and opens no window: use it only with "
                         "--report-file and --lang.");
    return result;
  }
  // An empty value would read as "not given" below (--open-run "" trained the default preset).
  for (const QCommandLineOption* option :
       {&open_run, &config, &checkpoint, &runs_dir, &screenshot, &lesson, &report, &report_file, &view}) {
    if (parser.isSet(*option) && parser.value(*option).isEmpty()) {
      result.status = AppOptionsResult::Status::Error;
      result.text = Tr::tr("--%1 needs a value, not an empty one.").arg(option->names().constFirst());
      return result;
    }
  }
  if (parser.isSet(view)) {
    const std::vector<std::string>& names = lessonViewNames();
    if (std::find(names.begin(), names.end(), parser.value(view).toStdString()) == names.end()) {
      result.status = AppOptionsResult::Status::Error;
      result.text = Tr::tr("--view %1: no such view (one of %2).")
                        .arg(parser.value(view), QString::fromStdString(joinedViewNames()));
      return result;
    }
  }
  AppOptions& o = result.options;
  o.view = parser.value(view);
  o.open_run = parser.value(open_run);
  o.preset = parser.value(preset);
  o.config_file = parser.value(config);
  o.checkpoint = parser.value(checkpoint);
  o.runs_dir = parser.value(runs_dir);
  o.screenshot = parser.value(screenshot);
  o.autostart = parser.isSet(autostart);
  o.presentation = parser.isSet(presentation);
  o.lesson = parser.value(lesson);
  o.report = parser.value(report);
  o.report_file = parser.value(report_file);
  if (parser.isSet(quit_after)) {
    bool ok = false;
    o.quit_after_epochs = parser.value(quit_after).toInt(&ok);
    if (!ok || o.quit_after_epochs < 1) {
      result.status = AppOptionsResult::Status::Error;
      result.text = Tr::tr("--quit-after-epochs needs a whole number of at least 1, got \"%1\".")
                        .arg(parser.value(quit_after));
      return result;
    }
  }
  if (parser.isSet(lang)) {
    o.language = parser.value(lang);
    if (o.language != QLatin1String("en") && o.language != QLatin1String("zh_CN")) {
      result.status = AppOptionsResult::Status::Error;
      result.text = Tr::tr("--lang must be en or zh_CN, got \"%1\".").arg(o.language);
      return result;
    }
  }
  if (parser.isSet(preset) && o.preset.isEmpty()) {
    result.status = AppOptionsResult::Status::Error;
    result.text = Tr::tr("--preset needs a name.");
    return result;
  }
  if (o.quitWhenRunEnds()) o.autostart = true;
  return result;
}

}  // namespace trainscope

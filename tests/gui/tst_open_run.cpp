// Showing a past run: File > Show a past run... draws a finished run from its
// folder through the run reader: the same curves the files hold (read here independently with
// the tests' CSV reader), the run's events and its summary, the state Finished, and no new
// folder and no checkpoint needed. A folder that is not a run, or a run with a broken file,
// changes nothing; nor does asking while a run is active.
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/config/config_json.h"
#include "gui/app/app_options.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/events_panel.h"
#include "gui/model/run_history.h"
#include "run_files.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_open_run_suite {

using trainscope::MainWindow;
using trainscope::RunStore;
using trainscope::RunSession;
using State = trainscope::RunSession::State;
namespace series = trainscope::series;

class TstOpenRun : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void showsTheRunAsItsFilesHoldIt();
  void whatIsNotARunChangesNothing();
  void aKilledRunEndsWithoutFinishing();
  void notWhileARunIsActive();
  void emptyArgumentsAreRefused();

 private:
  std::unique_ptr<MainWindow> makeWindow();
  /// The finished run of `w`'s settings (moons, 4 epochs), trained in the window.
  QString trainRun(MainWindow& w, int epochs);

  QTemporaryDir dir_;
};

void TstOpenRun::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(dir_.isValid());
}

std::unique_ptr<MainWindow> TstOpenRun::makeWindow() {
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setFullSpeed();
  w->setRunsRoot(dir_.filePath(QStringLiteral("runs")));
  w->show();
  return w;
}

QString TstOpenRun::trainRun(MainWindow& w, int epochs) {
  QString error;
  if (!w.loadPreset(QStringLiteral("moons"), &error)) return QString();
  QFile f(dir_.filePath(QStringLiteral("moons.json")));
  f.open(QIODevice::WriteOnly);
  f.write(QStringLiteral(R"({"preset": "moons", "training": {"epochs": %1, "seed": 5,
                             "layer_stats_every": 7}})")
              .arg(epochs)
              .toUtf8());
  f.close();
  if (!w.openConfigFile(f.fileName(), &error)) return QString();
  QSignalSpy finished(w.controller()->store(), &RunStore::runFinished);
  if (!w.startRun() || !finished.wait(120000)) return QString();
  return w.runDirectory();
}

void TstOpenRun::showsTheRunAsItsFilesHoldIt() {
  auto trainer = makeWindow();
  const QString run = trainRun(*trainer, 4);
  QVERIFY(!run.isEmpty());
  trainer.reset();
  const QStringList runs_before =
      QDir(dir_.filePath(QStringLiteral("runs"))).entryList(QDir::Dirs | QDir::NoDotAndDotDot);

  auto w = makeWindow();
  QSignalSpy finished(w->controller()->store(), &RunStore::runFinished);
  QSignalSpy events(w->controller()->store(), &RunStore::eventOccurred);
  QString error;
  QVERIFY2(w->openRun(run, &error), qPrintable(error));
  QCOMPARE(w->controller()->state(), State::Finished);
  QCOMPARE(w->runDirectory(), QFileInfo(run).absoluteFilePath());
  QCOMPARE(finished.count(), 1);
  QVERIFY(w->windowTitle().contains(QFileInfo(run).fileName()));
  // The curves: every metrics.csv and steps.csv row, as the files hold them.
  const auto metrics = testfiles::readCsv(QDir(run).filePath(QStringLiteral("metrics.csv")));
  const auto steps = testfiles::readCsv(QDir(run).filePath(QStringLiteral("steps.csv")));
  QVERIFY(metrics && steps);
  const auto& h = w->controller()->store()->history();
  const auto* val = h.find(series::kEpochValLoss);
  const auto* acc = h.find(series::kEpochValAccuracy);
  const auto* loss = h.find(series::kStepLoss);
  QVERIFY(val && acc && loss);
  QCOMPARE(val->values().size(), size_t(metrics->rows.size()));
  QCOMPARE(int(metrics->rows.size()), 4);
  for (int i = 0; i < metrics->rows.size(); ++i) {
    QCOMPARE(val->values().points()[i].x, metrics->number(i, QStringLiteral("step")));
    QCOMPARE(val->values().points()[i].y, metrics->number(i, QStringLiteral("val_loss")));
    QCOMPARE(acc->values().points()[i].y, metrics->number(i, QStringLiteral("val_accuracy")));
  }
  QCOMPARE(loss->values().size(), size_t(steps->rows.size()));
  for (int i = 0; i < steps->rows.size(); ++i)
    QCOMPARE(loss->values().points()[i].y, steps->number(i, QStringLiteral("loss")));
  QVERIFY(h.find(series::layerGradNorm("0.weight")));
  // The run's events and its end, as events.jsonl and summary.json say.
  const QStringList lines =
      testfiles::readLines(QDir(run).filePath(QStringLiteral("events.jsonl")));
  QCOMPARE(events.count(), lines.size());
  const QJsonObject summary =
      testfiles::readJsonObject(QDir(run).filePath(QStringLiteral("summary.json")));
  QCOMPARE(w->controller()->store()->lastStep()->step, summary.value("global_step").toInteger());
  QCOMPARE(w->controller()->store()->totalEpochs(), qint64(4));
  // The model view says the folder keeps no picture of the model, rather than promising one.
  auto* model_empty = w->findChild<QLabel*>(QStringLiteral("modelViewEmpty"));
  QVERIFY(model_empty);
  QVERIFY2(model_empty->text().contains(QStringLiteral("read back")),
           qPrintable(model_empty->text()));
  QVERIFY(w->controller()->store()->isReadBack());
  // Nothing trained, no folder made.
  QCOMPARE(QDir(dir_.filePath(QStringLiteral("runs"))).entryList(QDir::Dirs | QDir::NoDotAndDotDot),
           runs_before);
  // Start trains a new run from the shown run's settings, in a new folder.
  QSignalSpy again(w->controller()->store(), &RunStore::runFinished);
  QVERIFY(w->startRun());
  QVERIFY(again.wait(120000));
  QVERIFY(w->runDirectory() != QFileInfo(run).absoluteFilePath());
  QCOMPARE(w->controller()->store()->config().training.epochs, int64_t{4});
  QVERIFY(!w->controller()->store()->isReadBack());
  QVERIFY(!model_empty->text().contains(QStringLiteral("read back")));
  // The shown run is now the previous run (the ghost under the new one): its own history,
  // with the epochs its files hold.
  QVERIFY(w->controller()->store()->hasGhost());
  const auto* previous_val = w->controller()->store()->previousRun().find(series::kEpochValLoss);
  QVERIFY(previous_val);
  QCOMPARE(previous_val->values().size(), size_t(metrics->rows.size()));
  for (int i = 0; i < metrics->rows.size(); ++i)
    QCOMPARE(previous_val->values().points()[i].y, metrics->number(i, QStringLiteral("val_loss")));
}

// A run without summary.json that no process writes (killed, crashed) is shown as the runs
// table and `follow` call it: ended without finishing, with the epochs and steps its files
// hold, and no made-up time; a finished run keeps its "Run finished" line.
void TstOpenRun::aKilledRunEndsWithoutFinishing() {
  auto trainer = makeWindow();
  const QString run = trainRun(*trainer, 2);
  QVERIFY(!run.isEmpty());
  trainer.reset();
  const auto steps = testfiles::readCsv(QDir(run).filePath(QStringLiteral("steps.csv")));
  QVERIFY(steps);

  auto finished_window = makeWindow();
  QString error;
  QVERIFY2(finished_window->openRun(run, &error), qPrintable(error));
  QVERIFY(!finished_window->controller()->store()->endedUnfinished());
  auto* finished_events = finished_window->findChild<trainscope::EventsPanel*>();
  QVERIFY(finished_events->lineText(finished_events->lineCount() - 1)
              .startsWith(QStringLiteral("Run finished (completed)")));
  finished_window.reset();

  QVERIFY(QFile::remove(QDir(run).filePath(QStringLiteral("summary.json"))));  // as if killed
  auto w = makeWindow();
  QVERIFY2(w->openRun(run, &error), qPrintable(error));
  QVERIFY(w->controller()->store()->endedUnfinished());
  QVERIFY(!w->controller()->isFollowing());
  auto* events = w->findChild<trainscope::EventsPanel*>();
  const QString last = events->lineText(events->lineCount() - 1);
  const QString expected =
      QStringLiteral("The run ended without finishing (killed or crashed: no summary.json): 2 "
                     "epoch(s) and %1 step(s) recorded.")
          .arg(steps->rows.size());
  QVERIFY2(last.endsWith(expected), qPrintable(last));
  QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("stopped without finishing")),
           qPrintable(w->statusBar()->currentMessage()));
}

void TstOpenRun::whatIsNotARunChangesNothing() {
  auto trainer = makeWindow();
  const QString run = trainRun(*trainer, 2);
  QVERIFY(!run.isEmpty());
  trainer.reset();
  auto w = makeWindow();
  QString error;
  QVERIFY2(w->openRun(run, &error), qPrintable(error));
  const quint64 appended = w->controller()->store()->history().appendCount();
  const QString shown = w->runDirectory();

  // A broken copy of the run: metrics.csv with a row that is not numbers.
  const QString broken = dir_.filePath(QStringLiteral("broken"));
  QDir().mkpath(broken);
  for (const char* name : {"config.json", "run.json", "steps.csv", "events.jsonl"})
    QVERIFY(QFile::copy(QDir(run).filePath(QLatin1String(name)),
                        QDir(broken).filePath(QLatin1String(name))));
  QFile m(QDir(broken).filePath(QStringLiteral("metrics.csv")));
  QVERIFY(m.open(QIODevice::WriteOnly));
  m.write("epoch,step,train_loss,val_loss\n1,10,0.5,zero\n");
  m.close();
  QFile plain(dir_.filePath(QStringLiteral("plain.txt")));
  QVERIFY(plain.open(QIODevice::WriteOnly));
  plain.close();
  QDir().mkpath(dir_.filePath(QStringLiteral("empty")));

  const struct {
    QString dir, says;
  } cases[] = {
      {dir_.filePath(QStringLiteral("missing")), QStringLiteral("does not exist")},
      {plain.fileName(), QStringLiteral("is not a run directory")},
      {dir_.filePath(QStringLiteral("empty")), QStringLiteral("has no config.json")},
      {broken, QStringLiteral("metrics.csv, line 2")},
  };
  for (const auto& c : cases) {
    error.clear();
    QVERIFY2(!w->openRun(c.dir, &error), qPrintable(c.dir));
    QVERIFY2(error.contains(c.says), qPrintable(error));
    QCOMPARE(w->runDirectory(), shown);
    QCOMPARE(w->controller()->store()->history().appendCount(), appended);
    QCOMPARE(w->controller()->state(), State::Finished);
  }
}

void TstOpenRun::notWhileARunIsActive() {
  auto trainer = makeWindow();
  const QString run = trainRun(*trainer, 2);
  QVERIFY(!run.isEmpty());
  trainer.reset();
  auto w = makeWindow();
  QString error;
  QVERIFY(w->loadPreset(QStringLiteral("overfit-sine"), &error));
  QVERIFY(w->startRun());
  QTRY_VERIFY(w->controller()->isActive());
  QVERIFY(!w->openRun(run, &error));
  QVERIFY2(error.contains(QStringLiteral("a run is active")), qPrintable(error));
  QVERIFY(w->controller()->isActive());
  QSignalSpy finished(w->controller()->store(), &RunStore::runFinished);
  w->controller()->stop();
  QVERIFY(finished.wait(60000));
}

void TstOpenRun::emptyArgumentsAreRefused() {
  // `--open-run ""` read as "not given" and trained the default preset into a new folder.
  using trainscope::AppOptionsParser;
  using Status = trainscope::AppOptionsResult::Status;
  for (const char* option : {"--open-run", "--config", "--checkpoint", "--runs-dir", "--screenshot"}) {
    const auto r = AppOptionsParser::parse({QStringLiteral("trainscope"), QString::fromLatin1(option),
                                            QString()});
    QCOMPARE(r.status, Status::Error);
    QVERIFY2(r.text.contains(QString::fromLatin1(option)), qPrintable(r.text));
  }
  const auto ok = AppOptionsParser::parse(
      {QStringLiteral("trainscope"), QStringLiteral("--open-run"), dir_.path()});
  QCOMPARE(ok.status, Status::Ok);
  QCOMPARE(ok.options.open_run, dir_.path());
}

TRAINSCOPE_GUI_TEST_MAIN(TstOpenRun)
}  // namespace tst_open_run_suite
#include "tst_open_run.moc"

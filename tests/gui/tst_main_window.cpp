// Drives the main window like a user: start, pause, resume, stop, step from idle, config files,
// an unloadable dataset and closing mid-run. Small seeded sine data so runs are fast on a CPU.
#include <qcustomplot.h>

#include <QCheckBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/run_status.h"
#include "gui/plots/live_plot.h"
#include "gui/widgets/scientific_spin_box.h"
#include "run_files.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_main_window_suite {

using trainscope::MainWindow;
using trainscope::RunStore;
using trainscope::RunSession;
using State = trainscope::RunSession::State;

class TstMainWindow : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void etaCountsTheSpeedLimit();
  void startPauseResumeStop();
  void stepFromIdleRunsOneStepThenPauses();
  void badConfigFileKeepsPreviousSettings();
  void presetLoadsItsValues();
  void unloadableDatasetLeavesWindowIdle();
  void closingMidRunStopsCleanly();

 private:
  /// A window with its own runs root and the test config loaded; no close question.
  std::unique_ptr<MainWindow> makeWindow();
  QString writeFile(const QString& name, const QByteArray& content);
  QJsonObject readSummary(const QString& runDir);
  QPushButton* button(MainWindow& w, const char* name);

  QTemporaryDir dir_;
  QString config_path_;
};

void TstMainWindow::initTestCase() {
  // QSettings (the remembered pace, runs root) go to a test location, not the user's.
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(dir_.isValid());
  // 200 sine samples -> 160 train / 40 val; batch 8 -> 20 steps per epoch. Many epochs with a
  // small learning rate, so the run is far from over when the test pauses and stops it.
  config_path_ = writeFile(QStringLiteral("small.json"), R"({
    "name": "gui-test",
    "data": {"source": "sine", "n_samples": 200, "seed": 3},
    "model": {"hidden": [16, 16]},
    "optimizer": {"name": "sgd", "lr": 0.001},
    "training": {"epochs": 5000, "batch_size": 8, "seed": 123, "num_threads": 1}
  })");
}

QString TstMainWindow::writeFile(const QString& name, const QByteArray& content) {
  const QString path = dir_.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(content);
  return path;
}

std::unique_ptr<MainWindow> TstMainWindow::makeWindow() {
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setFullSpeed();
  w->setRunsRoot(dir_.filePath(QStringLiteral("runs")));
  QString error;
  if (!w->openConfigFile(config_path_, &error)) qFatal("%s", qPrintable(error));
  w->show();
  return w;
}

QPushButton* TstMainWindow::button(MainWindow& w, const char* name) {
  auto* b = w.findChild<QPushButton*>(QString::fromLatin1(name));
  if (!b) qFatal("no button %s", name);
  return b;
}

QJsonObject TstMainWindow::readSummary(const QString& runDir) {
  return testfiles::readJsonObject(runDir + QStringLiteral("/summary.json"));
}

void TstMainWindow::startPauseResumeStop() {
  auto w = makeWindow();
  RunSession* c = w->controller();
  QSignalSpy epochs(c->store(), &RunStore::epochFinished);
  QSignalSpy events(c->store(), &RunStore::eventOccurred);
  QSignalSpy finished(c->store(), &RunStore::runFinished);
  QVERIFY(epochs.isValid());
  QVERIFY(events.isValid());
  QVERIFY(finished.isValid());
  QCOMPARE(button(*w, "pauseButton")->isEnabled(), false);

  QTest::mouseClick(button(*w, "startButton"), Qt::LeftButton);
  QVERIFY(epochs.wait(60000));
  QCOMPARE(c->state(), State::Running);
  QVERIFY(!button(*w, "startButton")->isEnabled());
  QVERIFY(button(*w, "stopButton")->isEnabled());

  // The ~30 Hz flush puts per-step and per-epoch points on both plots.
  namespace series = trainscope::series;
  auto* loss = w->findChild<trainscope::LivePlot*>(QStringLiteral("lossPlot"));
  auto* grad = w->findChild<trainscope::LivePlot*>(QStringLiteral("gradNormPlot"));
  QVERIFY(loss && grad);
  QTRY_VERIFY(loss->pointCount(series::kStepLoss) > 0);
  QTRY_VERIFY(loss->pointCount(series::kEpochTrainLoss) > 0);
  QTRY_VERIFY(loss->pointCount(series::kEpochValLoss) > 0);
  QTRY_VERIFY(grad->pointCount(series::kStepGradNorm) > 0);
  QTRY_VERIFY(grad->pointCount(series::kStepGradNormClipped) > 0);

  // Pause: after the engine reports it waits, no step arrives for 300 ms.
  QTest::mouseClick(button(*w, "pauseButton"), Qt::LeftButton);
  QCOMPARE(c->state(), State::Paused);
  QCOMPARE(button(*w, "pauseButton")->text().remove(QLatin1Char('&')), QStringLiteral("Resume"));
  auto sawPaused = [&events] {
    for (const QList<QVariant>& args : events) {
      if (args.at(0).value<trainscope::Event>().kind == trainscope::EventKind::Paused) return true;
    }
    return false;
  };
  QTRY_VERIFY_WITH_TIMEOUT(sawPaused(), 10000);
  QTest::qWait(50);
  const qint64 paused_at = c->store()->stepCount();
  QTest::qWait(300);
  QCOMPARE(c->store()->stepCount(), paused_at);

  // Resume: steps flow again.
  QTest::mouseClick(button(*w, "pauseButton"), Qt::LeftButton);
  QCOMPARE(c->state(), State::Running);
  QTRY_VERIFY_WITH_TIMEOUT(c->store()->stepCount() > paused_at, 10000);

  // Stop: the run ends with stop_reason "stopped" in summary.json.
  QTest::mouseClick(button(*w, "stopButton"), Qt::LeftButton);
  QVERIFY(finished.wait(30000));
  QCOMPARE(c->state(), State::Finished);
  QVERIFY(!c->isActive());
  QCOMPARE(readSummary(w->runDirectory()).value(QStringLiteral("stop_reason")).toString(),
           QStringLiteral("stopped"));
  QVERIFY(button(*w, "startButton")->isEnabled());
  QVERIFY(!button(*w, "stopButton")->isEnabled());
  QVERIFY(w->findChild<QListWidget*>(QStringLiteral("eventsPanel"))->count() >= 2);
  QVERIFY(w->close());
}

void TstMainWindow::stepFromIdleRunsOneStepThenPauses() {
  auto w = makeWindow();
  RunSession* c = w->controller();
  QSignalSpy steps(c->store(), &RunStore::stepRecorded);
  QSignalSpy finished(c->store(), &RunStore::runFinished);
  QVERIFY(steps.isValid());
  QVERIFY(finished.isValid());

  QTest::mouseClick(button(*w, "stepButton"), Qt::LeftButton);
  QCOMPARE(c->state(), State::Paused);
  QVERIFY(steps.wait(60000));
  QTest::qWait(300);  // still exactly one step: the engine waits paused after it
  QCOMPARE(steps.count(), 1);
  QCOMPARE(c->store()->stepCount(), 1);
  QCOMPARE(steps.at(0).at(0).value<trainscope::StepRecord>().step, 1);
  QCOMPARE(c->state(), State::Paused);

  // One more batch while paused.
  QTest::mouseClick(button(*w, "stepButton"), Qt::LeftButton);
  QTRY_COMPARE(c->store()->stepCount(), 2);
  QTest::qWait(200);
  QCOMPARE(c->store()->stepCount(), 2);

  // Step epoch from paused: the rest of epoch 1, then the window shows Paused again (it once
  // stayed on "Training..." because the engine did not announce the second pause).
  QSignalSpy epochs(c->store(), &RunStore::epochFinished);
  QVERIFY(epochs.isValid());
  QTest::mouseClick(button(*w, "stepEpochButton"), Qt::LeftButton);
  QVERIFY(epochs.wait(60000));
  QTRY_COMPARE(c->state(), State::Paused);
  const auto epoch = epochs.at(0).at(0).value<trainscope::EpochRecord>();
  QCOMPARE(c->store()->stepCount(), epoch.step);  // nothing ran past the epoch's end
  QCOMPARE(button(*w, "pauseButton")->text().remove(QLatin1Char('&')), QStringLiteral("Resume"));

  QTest::mouseClick(button(*w, "stopButton"), Qt::LeftButton);
  QVERIFY(finished.wait(30000));
  QCOMPARE(readSummary(w->runDirectory()).value(QStringLiteral("stop_reason")).toString(),
           QStringLiteral("stopped"));
}

void TstMainWindow::badConfigFileKeepsPreviousSettings() {
  auto w = makeWindow();
  auto* lr = w->findChild<trainscope::ScientificSpinBox*>(QStringLiteral("learningRateSpinBox"));
  QVERIFY(lr);
  QCOMPARE(lr->value(), 0.001);
  QCOMPARE(w->currentConfig().training.batch_size, 8);

  const QString invalid = writeFile(QStringLiteral("invalid.json"),
                                    R"({"optimizer": {"lr": 0.5}, "training": {"batch_size": 0}})");
  QString error;
  QVERIFY(!w->openConfigFile(invalid, &error));
  QVERIFY2(error.contains(QStringLiteral("training.batch_size")), qPrintable(error));

  const QString unknown =
      writeFile(QStringLiteral("unknown.json"), R"({"training": {"bogus_key": 1}})");
  QVERIFY(!w->openConfigFile(unknown, &error));
  QVERIFY2(error.contains(QStringLiteral("bogus_key")), qPrintable(error));

  const QString broken = writeFile(QStringLiteral("broken.json"), "{ not json");
  QVERIFY(!w->openConfigFile(broken, &error));
  QVERIFY(!w->openConfigFile(dir_.filePath(QStringLiteral("missing.json")), &error));

  // Valid for core but beyond a spin box: refused, never silently clamped.
  const QString huge = writeFile(QStringLiteral("huge.json"), R"({"optimizer": {"lr": 1e6}})");
  QVERIFY(!w->openConfigFile(huge, &error));
  QVERIFY2(error.contains(QStringLiteral("optimizer.lr")), qPrintable(error));

  // Small values the widgets can hold arrive exactly (no rounding to the spin box's decimals).
  const QString tiny = writeFile(QStringLiteral("tiny.json"),
                                 R"({"optimizer": {"lr": 1.234567e-9}, "name": "tiny",
                                     "training": {"clip": {"enabled": true, "max_norm": 2.5e-5}}})");
  QVERIFY2(w->openConfigFile(tiny, &error), qPrintable(error));
  QCOMPARE(w->currentConfig().optimizer.lr, 1.234567e-9);
  QCOMPARE(w->currentConfig().training.clip.max_norm, 2.5e-5);
  // A lesson file naming a "preset" base runs on that preset (defaults < preset < the file):
  // moons's data and hidden layers, the file's learning rate.
  const QString lesson = writeFile(QStringLiteral("lesson.json"),
                                   R"({"preset": "moons", "optimizer": {"lr": 0.5}})");
  QVERIFY2(w->openConfigFile(lesson, &error), qPrintable(error));
  const trainscope::TrainConfig moons = trainscope::resolveConfig("moons", {}, {});
  QCOMPARE(w->currentConfig().data.source, moons.data.source);
  QCOMPARE(w->currentConfig().data.source, std::string("moons"));
  QCOMPARE(w->currentConfig().model.hidden, moons.model.hidden);
  QCOMPARE(w->currentConfig().training.epochs, moons.training.epochs);
  QCOMPARE(w->currentConfig().optimizer.lr, 0.5);
  QVERIFY(w->openConfigFile(writeFile(QStringLiteral("back.json"),
                                      R"({"optimizer": {"lr": 0.001}, "name": "gui-test",
                                          "training": {"batch_size": 8}})"),
                            &error));

  // Nothing of the rejected files leaked into the settings.
  QCOMPARE(lr->value(), 0.001);
  QCOMPARE(w->currentConfig().optimizer.lr, 0.001);
  QCOMPARE(w->currentConfig().training.batch_size, 8);
  QCOMPARE(w->currentConfig().name, std::string("gui-test"));
}

void TstMainWindow::presetLoadsItsValues() {
  auto w = makeWindow();
  QString error;
  QVERIFY(!w->loadPreset(QStringLiteral("no-such-preset"), &error));
  QCOMPARE(w->currentConfig().name, std::string("gui-test"));
  const std::string name = trainscope::defaultPresetName();
  QVERIFY2(w->loadPreset(QString::fromStdString(name), &error), qPrintable(error));
  const trainscope::TrainConfig expected = trainscope::presetConfig(name);
  const trainscope::TrainConfig shown = w->currentConfig();
  QCOMPARE(shown.name, expected.name);
  QCOMPARE(shown.optimizer.lr, expected.optimizer.lr);
  QCOMPARE(shown.training.epochs, expected.training.epochs);
  QCOMPARE(shown.training.batch_size, expected.training.batch_size);
  QCOMPARE(shown.training.seed, expected.training.seed);

  // Widget values override the preset when the run starts.
  auto* seed = w->findChild<QCheckBox*>(QStringLiteral("seedCheckBox"));
  QVERIFY(seed);
  seed->setChecked(false);
  QVERIFY(!w->currentConfig().training.seed.has_value());
}

void TstMainWindow::unloadableDatasetLeavesWindowIdle() {
  auto w = makeWindow();
  const QString cfg = writeFile(QStringLiteral("missing-data.json"), R"({
    "name": "missing-data",
    "data": {"source": "fashion-mnist", "path": "/nonexistent/trainscope-test-data"},
    "training": {"epochs": 1, "seed": 1}
  })");
  QString error;
  QVERIFY2(w->openConfigFile(cfg, &error), qPrintable(error));
  RunSession* c = w->controller();
  QSignalSpy failed(c->store(), &RunStore::runFailed);
  QVERIFY(failed.isValid());
  auto* events = w->findChild<QListWidget*>(QStringLiteral("eventsPanel"));
  const int before = events->count();

  QTest::mouseClick(button(*w, "startButton"), Qt::LeftButton);
  QVERIFY(failed.wait(60000));
  const auto failure = failed.at(0).at(0).value<trainscope::RunFailure>();
  QVERIFY(failure.typed);
  QCOMPARE(failure.code, trainscope::ErrorCode::Data);
  QTRY_VERIFY(!c->isActive());
  QCOMPARE(c->state(), State::Idle);
  QVERIFY(button(*w, "startButton")->isEnabled());
  QVERIFY(!button(*w, "stopButton")->isEnabled());
  QVERIFY(events->count() > before);
  QVERIFY(events->item(events->count() - 1)->text().contains(QStringLiteral("/nonexistent")));
  // Nothing was written: no empty run folder is left behind, and none is offered to open.
  const QStringList left = QDir(dir_.filePath(QStringLiteral("runs")))
                               .entryList({QStringLiteral("missing-data-*")}, QDir::Dirs);
  QVERIFY2(left.isEmpty(), qPrintable(left.join(", ")));
  QVERIFY(w->runDirectory().isEmpty());
}

void TstMainWindow::closingMidRunStopsCleanly() {
  auto w = makeWindow();
  RunSession* c = w->controller();
  QSignalSpy epochs(c->store(), &RunStore::epochFinished);
  QVERIFY(epochs.isValid());
  QTest::mouseClick(button(*w, "startButton"), Qt::LeftButton);
  QVERIFY(epochs.wait(60000));
  const QString run_dir = w->runDirectory();
  QElapsedTimer timer;
  timer.start();
  QVERIFY(w->close());  // no question: setConfirmClose(false)
  QVERIFY(!c->isActive());
  QVERIFY2(timer.elapsed() < 5000, "closing must not wait for the run to finish");
  QCOMPARE(readSummary(run_dir).value(QStringLiteral("stop_reason")).toString(),
           QStringLiteral("stopped"));
}

TRAINSCOPE_GUI_TEST_MAIN(TstMainWindow)
void TstMainWindow::etaCountsTheSpeedLimit() {
  // 10 of 100 steps trained in 1 s: 0.1 s a step, 90 left = 9 s at full speed; under a
  // 2 steps/s limit each step takes 0.5 s, so 45 s; a limit faster than the machine (100/s)
  // changes nothing.
  trainscope::RunProgressPanel p;
  auto* time = p.findChild<QLabel*>(QStringLiteral("timeLabel"));
  QVERIFY(time);
  p.showProgress(10, 100, 1.0);
  QVERIFY2(time->text().endsWith(trainscope::RunProgressPanel::formatDuration(9)),
           qPrintable(time->text()));
  p.showProgress(10, 100, 1.0, 2.0);
  QVERIFY2(time->text().endsWith(trainscope::RunProgressPanel::formatDuration(45)),
           qPrintable(time->text()));
  p.showProgress(10, 100, 1.0, 100.0);
  QVERIFY2(time->text().endsWith(trainscope::RunProgressPanel::formatDuration(9)),
           qPrintable(time->text()));
}

}  // namespace tst_main_window_suite
#include "tst_main_window.moc"

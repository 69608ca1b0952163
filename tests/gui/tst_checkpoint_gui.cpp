// The checkpoint panel as a user meets it: Save while running shows the file in the events
// panel; overfit-sine 100 epochs, Save, quit, reopen, Load, 100 more equals a 200-epoch run;
// Load of a stopped run's mid-epoch checkpoint continues from the next batch with its curves;
// a file that is not a checkpoint changes nothing.
#include <QApplication>
#include <QDialog>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/train/state/checkpoint.h"
#include "core/train/trainer.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/checkpoint_panel.h"
#include "gui/plots/live_plot.h"
#include "gui/widgets/scientific_spin_box.h"
#include "run_files.h"
#include "python_runner.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_checkpoint_gui_suite {

using trainscope::CheckpointPanel;
using trainscope::MainWindow;
using trainscope::RunStore;
using trainscope::RunSession;
using State = trainscope::RunSession::State;
namespace series = trainscope::series;

class TstCheckpointGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void saveWhileRunningShowsTheFile();
  void saveDialogHoldsTheRunAtTheNamedStep();
  void saveQuitReopenLoadContinuesExactly();
  void midEpochCheckpointOfAStoppedRunContinuesFromTheNextBatch();
  void unusableFileLeavesTheRunAsItWas();
  void hostileCheckpointsChangeNothing();
  void loadDialogShowsWhatTheFileHoldsAndAsks();
  void importedWeightsStartTheNextRuns();

 private:
  std::unique_ptr<MainWindow> makeWindow(const QString& runs);
  static CheckpointPanel* panel(MainWindow& w) {
    return w.findChild<CheckpointPanel*>(QStringLiteral("checkpointPanel"));
  }
  static QPushButton* button(MainWindow& w, const char* name) {
    return w.findChild<QPushButton*>(QLatin1String(name));
  }
  /// Runs `w`'s current settings to the end.
  static void runToEnd(MainWindow& w);
  /// metrics.csv / steps.csv rows without the wall-clock columns.
  static QStringList rows(const QString& runDir, const char* file);
  QString writeFile(const QString& name, const QByteArray& content);

  QTemporaryDir dir_;
  QString small_config_;
};

void TstCheckpointGui::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(dir_.isValid());
  // 200 sine samples -> 160 train / 40 val; batch 8 -> 20 steps per epoch; dropout so the
  // global generator matters too.
  small_config_ = writeFile(QStringLiteral("small.json"), R"({
    "name": "gui-checkpoint-test",
    "data": {"source": "sine", "n_samples": 200, "seed": 3},
    "model": {"hidden": [16, 16], "dropout": 0.1},
    "optimizer": {"name": "sgd", "lr": 0.01, "momentum": 0.9},
    "training": {"epochs": 3, "batch_size": 8, "seed": 123, "num_threads": 1}
  })");
}

QString TstCheckpointGui::writeFile(const QString& name, const QByteArray& content) {
  const QString path = dir_.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(content);
  return path;
}

std::unique_ptr<MainWindow> TstCheckpointGui::makeWindow(const QString& runs) {
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setFullSpeed();
  w->setRunsRoot(dir_.filePath(runs));
  w->show();
  return w;
}

void TstCheckpointGui::runToEnd(MainWindow& w) {
  QSignalSpy finished(w.controller()->store(), &RunStore::runFinished);
  QVERIFY(w.startRun());
  QVERIFY(finished.wait(120000));
}

QStringList TstCheckpointGui::rows(const QString& runDir, const char* file) {
  // wall-clock columns differ between runs
  auto csv = testfiles::readCsvValues(QDir(runDir).filePath(QLatin1String(file)).toStdString());
  if (!csv) return {QStringLiteral("missing ") + QLatin1String(file)};
  QStringList out;
  for (const QStringList& r : csv->rows) out << r.join(QLatin1Char(','));
  return out;
}

void TstCheckpointGui::saveWhileRunningShowsTheFile() {
  auto w = makeWindow(QStringLiteral("runs-save"));
  QString error;
  QVERIFY2(w->openConfigFile(small_config_, &error), qPrintable(error));
  CheckpointPanel* p = panel(*w);
  QVERIFY(p);
  QVERIFY(!button(*w, "saveCheckpointButton")->isEnabled());  // nothing to save yet
  QVERIFY(button(*w, "loadCheckpointButton")->isEnabled());

  RunSession* c = w->controller();
  QSignalSpy steps(c->store(), &RunStore::stepRecorded);
  QSignalSpy events(c->store(), &RunStore::eventOccurred);
  c->setPace(200);  // slow enough to save mid-run
  QVERIFY(w->startRun());
  QVERIFY(steps.wait(30000));
  QVERIFY(button(*w, "saveCheckpointButton")->isEnabled());
  QVERIFY(!button(*w, "loadCheckpointButton")->isEnabled());  // not while running

  const QString file = dir_.filePath(QStringLiteral("while-running.pt"));
  QVERIFY(p->saveTo(file, &error));
  auto saved = [&]() -> std::optional<trainscope::Event> {
    for (const QList<QVariant>& args : events) {
      auto e = args.at(0).value<trainscope::Event>();
      if (e.kind == trainscope::EventKind::CheckpointSaved) return e;
    }
    return std::nullopt;
  };
  QTRY_VERIFY_WITH_TIMEOUT(saved().has_value(), 20000);
  QCOMPARE(QString::fromStdString(saved()->file), file);
  const trainscope::CheckpointInfo info = trainscope::inspectCheckpoint(file.toStdString());
  QCOMPARE(info.global_step, saved()->step);
  // The events panel names the file.
  auto* list = w->findChild<QListWidget*>(QStringLiteral("eventsPanel"));
  QTRY_VERIFY(!list->findItems(file, Qt::MatchContains).isEmpty());

  QSignalSpy finished(c->store(), &RunStore::runFinished);
  w->stopRun();
  QVERIFY(finished.wait(30000));
  QVERIFY(w->close());
}

void TstCheckpointGui::saveDialogHoldsTheRunAtTheNamedStep() {
  // Save... proposes step-N.pt for the newest step N. The run would go on while the dialog is
  // open (100 steps in the half second below): it is held at N, the file holds step N, and the
  // run continues once the dialog closes.
  const QString config = writeFile(QStringLiteral("long.json"), R"({
    "name": "gui-save-dialog-test",
    "data": {"source": "sine", "n_samples": 200, "seed": 3},
    "model": {"hidden": [16, 16]},
    "optimizer": {"name": "sgd", "lr": 0.01},
    "training": {"epochs": 100, "batch_size": 8, "seed": 123, "num_threads": 1}
  })");
  auto w = makeWindow(QStringLiteral("runs-save-dialog"));
  QString error;
  QVERIFY2(w->openConfigFile(config, &error), qPrintable(error));
  RunSession* c = w->controller();
  QSignalSpy steps(c->store(), &RunStore::stepRecorded);
  QSignalSpy events(c->store(), &RunStore::eventOccurred);
  c->setPace(200);
  QVERIFY(w->startRun());
  QVERIFY(steps.wait(30000));
  QTRY_VERIFY_WITH_TIMEOUT(c->store()->stepCount() >= 5, 20000);

  QString proposed;
  qint64 while_open = -1;
  State state_while_open = State::Idle;
  QTimer poll;  // saveDialog may process events before its dialog opens: look until it does
  poll.setInterval(10);
  connect(&poll, &QTimer::timeout, this, [&] {
    auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    if (!d) return;
    poll.stop();
    proposed = d->selectedFiles().value(0);
    const qint64 before = c->store()->stepCount();
    QTest::qWait(500);
    while_open = c->store()->stepCount() - before;
    state_while_open = c->state();
    QMetaObject::invokeMethod(d, "accept");
  });
  poll.start();
  panel(*w)->saveDialog();
  poll.stop();
  QVERIFY2(proposed.endsWith(QStringLiteral(".pt")), qPrintable(proposed));
  const QString name = QFileInfo(proposed).fileName();
  QVERIFY2(name.startsWith(QStringLiteral("step-")), qPrintable(name));
  const qint64 named = name.mid(5, name.size() - 8).toLongLong();
  QCOMPARE(while_open, qint64(0));
  QCOMPARE(state_while_open, State::Paused);
  auto saved = [&]() -> std::optional<trainscope::Event> {
    for (const QList<QVariant>& args : events) {
      auto e = args.at(0).value<trainscope::Event>();
      if (e.kind == trainscope::EventKind::CheckpointSaved) return e;
    }
    return std::nullopt;
  };
  QTRY_VERIFY_WITH_TIMEOUT(saved().has_value(), 20000);
  QCOMPARE(QString::fromStdString(saved()->file), proposed);
  QCOMPARE(trainscope::inspectCheckpoint(proposed.toStdString()).global_step, named);
  // And the run goes on.
  QTRY_COMPARE_WITH_TIMEOUT(c->state(), State::Running, 10000);
  const qint64 after = c->store()->stepCount();
  QTRY_VERIFY_WITH_TIMEOUT(c->store()->stepCount() > after + 5, 20000);
  QSignalSpy finished(c->store(), &RunStore::runFinished);
  w->stopRun();
  QVERIFY(finished.wait(30000));
  QVERIFY(w->close());
}

void TstCheckpointGui::saveQuitReopenLoadContinuesExactly() {
  // The issue's "done when": overfit-sine 100 epochs, Save, quit, reopen, Load, 100 more.
  const QString saved = dir_.filePath(QStringLiteral("overfit-sine-100.pt"));
  QString first_run;
  {
    auto w = makeWindow(QStringLiteral("runs-a"));
    QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));
    w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(100);
    runToEnd(*w);
    first_run = w->runDirectory();
    QVERIFY(button(*w, "saveCheckpointButton")->isEnabled());  // the ended run left last.pt
    QString error;
    QVERIFY2(panel(*w)->saveTo(saved, &error), qPrintable(error));
    QVERIFY(w->close());
  }
  QString resumed_run;
  {
    auto w = makeWindow(QStringLiteral("runs-b"));
    RunSession* c = w->controller();
    QSignalSpy started(c->store(), &RunStore::runStarted);
    QString error;
    // A finished 100-epoch run continues for 100 more unless told otherwise.
    QVERIFY2(panel(*w)->load(saved, /*ask=*/false, &error), qPrintable(error));
    QCOMPARE(c->state(), State::Paused);
    QVERIFY(started.wait(30000));
    QCOMPARE(c->store()->totalEpochs(), 200);
    QCOMPARE(w->currentConfig().training.epochs, 200);  // the settings show the loaded run
    // The first 100 epochs are on the plots before anything trains.
    auto* loss = w->findChild<trainscope::LivePlot*>(QStringLiteral("lossPlot"));
    QTRY_COMPARE(loss->pointCount(series::kEpochValLoss), 100);
    QTRY_COMPARE(loss->pointCount(series::kStepLoss), 100);  // one batch per epoch
    QTest::qWait(200);
    QCOMPARE(c->store()->stepCount(), 0);  // paused at the checkpoint's step
    QSignalSpy finished(c->store(), &RunStore::runFinished);
    QVERIFY(w->startRun());  // Start resumes the paused run
    QVERIFY(finished.wait(120000));
    QTRY_COMPARE(loss->pointCount(series::kEpochValLoss), 200);
    resumed_run = w->runDirectory();
    QVERIFY(resumed_run != first_run);
    QVERIFY(w->close());
  }
  QString straight_run;
  {
    auto w = makeWindow(QStringLiteral("runs-c"));
    QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));
    w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(200);
    runToEnd(*w);
    straight_run = w->runDirectory();
    QVERIFY(w->close());
  }
  const QStringList resumed_metrics = rows(resumed_run, "metrics.csv");
  QCOMPARE(resumed_metrics.size(), 200);
  QCOMPARE(resumed_metrics, rows(straight_run, "metrics.csv"));
  QCOMPARE(rows(resumed_run, "steps.csv"), rows(straight_run, "steps.csv"));
}

void TstCheckpointGui::midEpochCheckpointOfAStoppedRunContinuesFromTheNextBatch() {
  QString stopped_run, resumed_run, straight_run;
  {
    auto w = makeWindow(QStringLiteral("runs-mid"));
    QString error;
    QVERIFY2(w->openConfigFile(small_config_, &error), qPrintable(error));
    RunSession* c = w->controller();
    QSignalSpy steps(c->store(), &RunStore::stepRecorded);
    w->stepBatch();  // from idle: one step, then paused
    QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
    for (int i = 0; i < 6; ++i) {
      w->stepBatch();
      QTRY_COMPARE_WITH_TIMEOUT(steps.count(), i + 2, 30000);
    }
    QSignalSpy finished(c->store(), &RunStore::runFinished);
    w->stopRun();
    QVERIFY(finished.wait(30000));
    stopped_run = w->runDirectory();
    const QString last = QDir(stopped_run).filePath(QStringLiteral("checkpoints/last.pt"));
    const trainscope::CheckpointInfo info = trainscope::inspectCheckpoint(last.toStdString());
    QCOMPARE(info.global_step, 7);
    QCOMPARE(info.batch_in_epoch, 7);

    QSignalSpy started(c->store(), &RunStore::runStarted);
    QVERIFY2(panel(*w)->load(last, /*ask=*/false, &error), qPrintable(error));
    QVERIFY(started.wait(30000));
    QCOMPARE(c->store()->totalEpochs(), 3);  // the stopped run's plan
    auto* loss = w->findChild<trainscope::LivePlot*>(QStringLiteral("lossPlot"));
    QTRY_COMPARE(loss->pointCount(series::kStepLoss), 7);
    QCOMPARE(c->store()->lastStep()->step, 7);
    QSignalSpy resumed_steps(c->store(), &RunStore::stepRecorded);
    QSignalSpy done(c->store(), &RunStore::runFinished);
    w->stepBatch();  // Step continues with the next batch
    QVERIFY(resumed_steps.wait(30000));
    QCOMPARE(resumed_steps.at(0).at(0).value<trainscope::StepRecord>().step, 8);
    QCOMPARE(resumed_steps.at(0).at(0).value<trainscope::StepRecord>().batch, 8);
    QVERIFY(w->startRun());
    QVERIFY(done.wait(60000));
    resumed_run = w->runDirectory();
    QVERIFY(w->close());
  }
  {
    auto w = makeWindow(QStringLiteral("runs-mid-straight"));
    QString error;
    QVERIFY2(w->openConfigFile(small_config_, &error), qPrintable(error));
    runToEnd(*w);
    straight_run = w->runDirectory();
    QVERIFY(w->close());
  }
  QCOMPARE(rows(resumed_run, "steps.csv").size(), 60);
  QCOMPARE(rows(resumed_run, "steps.csv"), rows(straight_run, "steps.csv"));
  QCOMPARE(rows(resumed_run, "metrics.csv"), rows(straight_run, "metrics.csv"));
}

void TstCheckpointGui::unusableFileLeavesTheRunAsItWas() {
  auto w = makeWindow(QStringLiteral("runs-bad"));
  QString error;
  QVERIFY2(w->openConfigFile(small_config_, &error), qPrintable(error));
  RunSession* c = w->controller();
  QSignalSpy steps(c->store(), &RunStore::stepRecorded);
  w->stepBatch();
  QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
  QTRY_COMPARE(c->state(), State::Paused);
  const QString run_dir = c->store()->runDirectory();
  const quint64 generation = c->store()->history().generation();

  QByteArray random(4096, '\0');
  for (int i = 0; i < random.size(); ++i) random[i] = static_cast<char>((i * 7919 + 13) % 251);
  const QStringList bad = {writeFile(QStringLiteral("random.pt"), random),
                           writeFile(QStringLiteral("empty.pt"), QByteArray()),
                           dir_.filePath(QStringLiteral("missing.pt"))};
  for (const QString& file : bad) {
    error.clear();
    QVERIFY2(!panel(*w)->load(file, /*ask=*/false, &error), qPrintable(file));
    QVERIFY2(error.contains(file), qPrintable(error));  // names the file
    QCOMPARE(c->state(), State::Paused);
    QCOMPARE(c->store()->runDirectory(), run_dir);
    QCOMPARE(c->store()->history().generation(), generation);
    QVERIFY(c->isActive());
  }
  // The paused run still steps.
  w->stepBatch();
  QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 2, 30000);
  QVERIFY(w->close());
}

void TstCheckpointGui::hostileCheckpointsChangeNothing() {
  // tests/data/make_hostile_checkpoints.py's files, from a moons run's last.pt.
  trainscope::TrainConfig moons = trainscope::resolveConfig("moons", {}, {});
  moons.training.epochs = 2;
  trainscope::TrainerOptions o;
  o.run_dir = dir_.filePath(QStringLiteral("hostile-source")).toStdString();
  QCOMPARE(static_cast<int>(trainscope::Trainer(moons, o).run().stop_reason),
           static_cast<int>(trainscope::StopReason::Completed));
  const QString hostile = dir_.filePath(QStringLiteral("hostile"));
  const testpython::Result py = testpython::run(
      {QStringLiteral(TRAINSCOPE_SOURCE_DIR "/tests/data/make_hostile_checkpoints.py"),
       QString::fromStdString((o.run_dir / "checkpoints" / "last.pt").string()), hostile},
      180000);
  QVERIFY2(py.ok, qPrintable(py.why));

  auto w = makeWindow(QStringLiteral("runs-hostile"));
  QString error;
  QVERIFY2(w->openConfigFile(small_config_, &error), qPrintable(error));
  RunSession* c = w->controller();
  QSignalSpy steps(c->store(), &RunStore::stepRecorded);
  w->stepBatch();
  QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 1, 30000);
  QTRY_COMPARE(c->state(), State::Paused);
  const QString run_dir = c->store()->runDirectory();
  const std::string settings = trainscope::configToJson(w->currentConfig()).dump();
  int refused = 0;
  for (const QString& line : testfiles::readLines(hostile + QStringLiteral("/manifest.tsv"))) {
    const QStringList f = line.split(QLatin1Char('\t'));
    if (f.size() != 3 || f[1][1] != QLatin1Char('r')) continue;  // Load... is a resume
    const QString file = hostile + QLatin1Char('/') + f[0];
    error.clear();
    QVERIFY2(!panel(*w)->load(file, /*ask=*/false, &error), qPrintable(f[0] + " " + f[2]));
    QVERIFY2(error.contains(file), qPrintable(error));
    // Nothing changed: the paused run, its folder and the settings (a refused file's config
    // replaced them before the fix, e.g. wrong_shape.pt, whose config is a valid moons run).
    QCOMPARE(c->state(), State::Paused);
    QCOMPARE(c->store()->runDirectory(), run_dir);
    QCOMPARE(trainscope::configToJson(w->currentConfig()).dump(), settings);
    ++refused;
  }
  QVERIFY(refused > 30);
  w->stepBatch();  // the paused run still steps
  QTRY_COMPARE_WITH_TIMEOUT(steps.count(), 2, 30000);
  // A valid one loads, including the one Python re-saved.
  QVERIFY2(panel(*w)->load(hostile + QStringLiteral("/python_resaved.pt"), false, &error),
           qPrintable(error));
  QTRY_COMPARE_WITH_TIMEOUT(c->state(), State::Paused, 30000);
  QCOMPARE(w->currentConfig().data.source, std::string("moons"));
  QVERIFY(w->close());
}

void TstCheckpointGui::loadDialogShowsWhatTheFileHoldsAndAsks() {
  // A finished 3-epoch run's last.pt: the dialog names its epochs, best loss and settings,
  // proposes 6 epochs in total; Cancel changes nothing, Load with 4 trains to epoch 4.
  QString last;
  auto w = makeWindow(QStringLiteral("runs-dialog"));
  QString error;
  QVERIFY2(w->openConfigFile(small_config_, &error), qPrintable(error));
  runToEnd(*w);
  last = QDir(w->runDirectory()).filePath(QStringLiteral("checkpoints/last.pt"));
  const QString finished_run = w->runDirectory();
  RunSession* c = w->controller();

  auto answer = [&](bool accept, int epochs, QString* text) {
    MainWindow* win = w.get();
    QTimer::singleShot(0, [=] {
      QDialog* d = nullptr;
      QTRY_VERIFY((d = win->findChild<QDialog*>(QStringLiteral("loadCheckpointDialog"))));
      QStringList texts;
      for (QLabel* l : d->findChildren<QLabel*>()) texts << l->text();
      *text = texts.join(QLatin1Char('\n'));
      auto* spin = d->findChild<QSpinBox*>(QStringLiteral("resumeEpochsSpinBox"));
      QCOMPARE(spin->value(), 6);
      if (const QByteArray dir = qgetenv("TRAINSCOPE_SCREENSHOT_DIR"); !dir.isEmpty())
        d->grab().save(
            QDir(QString::fromLocal8Bit(dir)).filePath(QStringLiteral("load-dialog.png")));
      spin->setValue(epochs);
      accept ? d->accept() : d->reject();
    });
  };
  QString text;
  answer(false, 6, &text);
  QVERIFY(!panel(*w)->load(last, /*ask=*/true, &error));
  QVERIFY(error.isEmpty());  // declined: nothing to report
  QCOMPARE(c->store()->runDirectory(), finished_run);
  QCOMPARE(c->state(), State::Finished);
  QVERIFY2(text.contains(QStringLiteral("Epochs completed: 3 (step 60)")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("Best validation loss: ")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("gui-checkpoint-test")), qPrintable(text));

  QSignalSpy started(c->store(), &RunStore::runStarted);
  answer(true, 4, &text);
  QVERIFY2(panel(*w)->load(last, /*ask=*/true, &error), qPrintable(error));
  QVERIFY(started.wait(30000));
  QCOMPARE(c->state(), State::Paused);
  QCOMPARE(c->store()->totalEpochs(), 4);
  QSignalSpy finished(c->store(), &RunStore::runFinished);
  QVERIFY(w->startRun());
  QVERIFY(finished.wait(60000));
  QCOMPARE(rows(c->store()->runDirectory(), "metrics.csv").size(), 4);
  QVERIFY(w->close());
}

void TstCheckpointGui::importedWeightsStartTheNextRuns() {
  // Weights of a trained run (its last.pt: a dict with model_state_dict), imported into a new
  // run that barely moves them (lr 1e-10): its first validation loss is the trained run's last.
  auto w = makeWindow(QStringLiteral("runs-import"));
  QString error;
  QVERIFY2(w->openConfigFile(small_config_, &error), qPrintable(error));
  runToEnd(*w);
  const QString trained = QDir(w->runDirectory()).filePath(QStringLiteral("checkpoints/last.pt"));
  const auto trained_metrics =
      testfiles::readCsv(QDir(w->runDirectory()).filePath(QStringLiteral("metrics.csv")));
  QVERIFY(trained_metrics && trained_metrics->rows.size() == 3);
  const double trained_val = trained_metrics->number(2, QStringLiteral("val_loss"));

  auto* label = w->findChild<QLabel*>(QStringLiteral("initWeightsLabel"));
  QVERIFY(label && !label->isVisible());
  QVERIFY(!panel(*w)->importWeights(writeFile(QStringLiteral("notweights.pt"), "hello"), &error));
  QVERIFY2(error.contains(QStringLiteral("notweights.pt")), qPrintable(error));
  QVERIFY(!label->isVisible());
  QVERIFY2(panel(*w)->importWeights(trained, &error), qPrintable(error));
  QVERIFY(label->isVisible());
  QVERIFY(label->text().contains(QStringLiteral("last.pt")));

  w->findChild<trainscope::ScientificSpinBox*>(QStringLiteral("learningRateSpinBox"))
      ->setValue(1e-10);
  w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(1);
  runToEnd(*w);
  const auto metrics =
      testfiles::readCsv(QDir(w->runDirectory()).filePath(QStringLiteral("metrics.csv")));
  QVERIFY(metrics && metrics->rows.size() == 1);
  QVERIFY2(
      std::abs(metrics->number(0, QStringLiteral("val_loss")) - trained_val) < 1e-6 * trained_val,
      qPrintable(metrics->cell(0, QStringLiteral("val_loss"))));

  // Another architecture: the run does not start, and says which keys do not fit.
  auto* hidden = w->findChild<QLineEdit*>(QStringLiteral("hiddenSizesLineEdit"));
  hidden->setText(QStringLiteral("8"));
  emit hidden->editingFinished();
  QSignalSpy failed(w->controller()->store(), &RunStore::runFailed);
  w->startRun();
  QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
  const auto failure = failed.at(0).at(0).value<trainscope::RunFailure>();
  QVERIFY2(QString::fromStdString(failure.message).contains(QStringLiteral("0.weight")),
           failure.message.c_str());
  // Clear: the next run starts from random weights and trains.
  QTest::mouseClick(w->findChild<QPushButton*>(QStringLiteral("clearInitWeightsButton")),
                    Qt::LeftButton);
  QVERIFY(!label->isVisible());
  QVERIFY(w->controller()->initWeights().isEmpty());
  QTRY_VERIFY(!w->controller()->isActive());
  runToEnd(*w);
  QVERIFY(w->close());
}

TRAINSCOPE_GUI_TEST_MAIN(TstCheckpointGui)
}  // namespace tst_checkpoint_gui_suite
#include "tst_checkpoint_gui.moc"

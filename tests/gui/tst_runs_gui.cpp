// The Runs window: the runs folder as a table with every run's status and metrics
// (values recomputed here from metrics.csv), a filter by config key, the settings that differ
// between selected runs, notes kept in notes.json only, a move to the trash folder, and Show
// drawing a run in the training view without creating a folder.
#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QScreen>
#include <QtTest>
#include <QSignalSpy>
#include <cmath>
#include <fstream>
#include <thread>

#include "core/config/train_config.h"
#include "core/run/run_reader.h"
#include "core/train/trainer.h"
#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/model/run_history.h"
#include "gui/plots/runs_overlay.h"
#include "gui/plots/training_plots.h"
#include "gui/runs/runs_window.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_runs_gui_suite {

using namespace trainscope;

namespace {

void train(const std::filesystem::path& dir, double lr) {
  TrainConfig c = presetConfig("overfit-sine");
  c.training.epochs = 4;
  c.data.n_samples = 60;
  c.optimizer.lr = lr;
  TrainerOptions o;
  o.run_dir = dir;
  Trainer(c, o).run();
}

QStringList directoryNames(const QString& dir) {
  return QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TstRunsGui : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void tableFilterDifferencesNotesTrash();
  void showOpensTheRunWithoutAFolder();
  void followsARunWrittenElsewhere();
  void chosenRunIsTheGhostOfTheNextRuns();
  void replayRepeatsARecordedRun();
  void anomaliesInTheInterfaceLanguage();
  void teachingMistakesAreMarked();
  void fitsAProjectorInPresentationMode();
};

// Issue 43 item 16: the Runs window was 1115 px wide at presentation mode's 1.5x fonts (nine
// buttons in one row); it fits 1024 px in both languages, and a cut name shows whole on hover.
void TstRunsGui::fitsAProjectorInPresentationMode() {
  QTemporaryDir tmp;
  const QString root = tmp.filePath("runs");
  train(std::filesystem::path(root.toStdString()) / "overfit-sine-with-a-long-name-20261205", 0.003);
  const QFont normal = QApplication::font();
  QFont big = normal;
  big.setPointSizeF(normal.pointSizeF() * 1.5);  // as presentation mode sets it
  for (const char* language : {"en", "zh_CN"}) {
    installTranslations(*QCoreApplication::instance(), QLocale(QString::fromLatin1(language)));
    QApplication::setFont(big);
    RunsWindow w(root);
    w.show();
    QVERIFY2(w.minimumSizeHint().width() <= 1024,
             qPrintable(QStringLiteral("%1: %2 px").arg(language).arg(w.minimumSizeHint().width())));
    auto* table = w.findChild<QTableWidget*>(QStringLiteral("runsTable"));
    QVERIFY(table && table->rowCount() == 1);
    QCOMPARE(table->item(0, 0)->toolTip(), QStringLiteral("overfit-sine-with-a-long-name-20261205"));
  }
  QApplication::setFont(normal);
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
}

void TstRunsGui::tableFilterDifferencesNotesTrash() {
  QTemporaryDir tmp;
  const QString root = tmp.filePath("runs");
  const std::filesystem::path r = root.toStdString();
  train(r / "slow", 0.0003);
  train(r / "fast", 0.01);
  QDir().mkpath(root + "/mine");
  QFile f(root + "/mine/notes.txt");
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write("not a run\n");
  f.close();

  RunsWindow w(root);
  w.show();
  QCOMPARE(w.shownRuns().size(), 3);
  auto* table = w.findChild<QTableWidget*>(QStringLiteral("runsTable"));
  QVERIFY(table);
  // best val loss of "fast", as metrics.csv has it
  double best = 1e300;
  for (const auto& e : readMetricsCsv(r / "fast" / "metrics.csv")) best = std::min(best, e.val_loss);
  int status_col = -1, best_col = -1;
  for (int c = 0; c < table->columnCount(); ++c) {
    if (table->horizontalHeaderItem(c)->text() == runColumnTitle("status")) status_col = c;
    if (table->horizontalHeaderItem(c)->text() == runColumnTitle("best_val_loss")) best_col = c;
  }
  QVERIFY(status_col >= 0 && best_col >= 0);
  bool found_fast = false, found_mine = false;
  for (int row = 0; row < table->rowCount(); ++row) {
    const QString name = table->item(row, 0)->text();
    if (name == "fast") {
      found_fast = true;
      QCOMPARE(table->item(row, status_col)->text(), runStatusTitle("completed"));
      QCOMPARE(table->item(row, best_col)->data(Qt::UserRole).toDouble(), best);
    }
    if (name == "mine") {
      found_mine = true;
      QCOMPARE(table->item(row, status_col)->text(), runStatusTitle("not a run"));
    }
  }
  QVERIFY(found_fast && found_mine);

  // filter by a config key
  auto* filter = w.findChild<QLineEdit*>(QStringLiteral("runsFilterLineEdit"));
  filter->setText(QStringLiteral("optimizer.lr=0.01"));
  QCOMPARE(w.shownRuns(), QStringList{root + "/fast"});
  filter->setText(QStringLiteral("nosuchkey=1"));  // an unknown key: said, nothing hidden
  QVERIFY(!filter->toolTip().isEmpty());
  filter->clear();
  QCOMPARE(w.shownRuns().size(), 3);

  // the settings that differ between the two runs: the learning rate only
  w.selectRuns({root + "/slow", root + "/fast"});
  QCOMPARE(w.differenceKeys(), QStringList{"optimizer.lr"});

  // any config key as a column: the values each run's config.json holds
  QVERIFY(!w.addConfigColumn(QStringLiteral("optimizer.nosuchkey")));
  QVERIFY(w.addConfigColumn(QStringLiteral("optimizer.lr")));
  QVERIFY(w.addConfigColumn(QStringLiteral("training.batch_size")));
  QCOMPARE(w.configColumns(), (QStringList{"optimizer.lr", "training.batch_size"}));
  int lr_col = -1, bs_col = -1;
  for (int c = 0; c < table->columnCount(); ++c) {
    if (table->horizontalHeaderItem(c)->text() == "optimizer.lr") lr_col = c;
    if (table->horizontalHeaderItem(c)->text() == "training.batch_size") bs_col = c;
  }
  QVERIFY(lr_col >= 0 && bs_col >= 0 && !table->isColumnHidden(lr_col));
  for (int row = 0; row < table->rowCount(); ++row) {
    const QString name = table->item(row, 0)->text();
    if (name == "mine") {
      QCOMPARE(table->item(row, lr_col)->text(), QString("-"));
      continue;
    }
    std::ifstream cin_((r / name.toStdString() / "config.json").string());
    const auto config = nlohmann::json::parse(cin_);
    QCOMPARE(table->item(row, lr_col)->data(Qt::UserRole).toDouble(),
             config["optimizer"]["lr"].get<double>());
    QCOMPARE(table->item(row, bs_col)->data(Qt::UserRole).toDouble(),
             config["training"]["batch_size"].get<double>());
  }
  table->sortByColumn(lr_col, Qt::DescendingOrder);  // numerically: 0.01 before 0.0003
  QCOMPARE(table->item(0, 0)->text(), QString("fast"));
  filter->setText(QStringLiteral("training.batch_size=999999"));  // the filter still applies
  QCOMPARE(w.shownRuns().size(), 0);
  filter->clear();
  w.removeConfigColumn(QStringLiteral("training.batch_size"));
  QCOMPARE(w.configColumns(), QStringList{"optimizer.lr"});
  QCOMPARE(table->columnCount(), int(runColumns().size()) + 1);
  w.reload();  // kept across a reload
  QCOMPARE(table->columnCount(), int(runColumns().size()) + 1);
  w.selectRuns({root + "/slow", root + "/fast"});

  // their curves on one plot: labelled by what differs, the points metrics.csv holds, the
  // read-out's % against the baseline computed here
  RunsOverlayDialog* overlay = w.compareSelected();
  QVERIFY(overlay);
  const QStringList names = overlay->legendNames();
  QCOMPARE(names.size(), 2);
  const int fast_i = names[0].startsWith("fast") ? 0 : 1;
  QVERIFY2(names[fast_i].contains("lr=0.01") && names[1 - fast_i].contains("lr=0.0003"),
           qPrintable(names.join(" | ")));
  QVERIFY(overlay->setMetric("val_loss"));
  QVERIFY(overlay->setXAxis("epoch"));
  {  // the legend above the curves, never over them (it covered where they start)
    auto* plot = overlay->findChild<QCustomPlot*>(QStringLiteral("overlayPlot"));
    QVERIFY(plot);
    overlay->show();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(plot->legend->visible() && plot->legend->itemCount() == 2);
    QVERIFY2(!plot->legend->outerRect().intersects(plot->axisRect()->rect()),
             qPrintable(QStringLiteral("legend %1,%2 %3x%4")
                            .arg(plot->legend->outerRect().x()).arg(plot->legend->outerRect().y())
                            .arg(plot->legend->outerRect().width()).arg(plot->legend->outerRect().height())));
  }
  overlay->setSmoothing(0);
  overlay->setBaseline(1 - fast_i);  // the slow run is the baseline
  const auto fast_epochs = readMetricsCsv(r / "fast" / "metrics.csv");
  const auto slow_epochs = readMetricsCsv(r / "slow" / "metrics.csv");
  const auto pts = overlay->points(fast_i);
  QCOMPARE(pts.size(), fast_epochs.size());
  for (size_t i = 0; i < pts.size(); ++i) {
    QCOMPARE(pts[i].first, double(fast_epochs[i].epoch));
    QCOMPARE(pts[i].second, fast_epochs[i].val_loss);
  }
  const double pct = (fast_epochs.back().val_loss - slow_epochs.back().val_loss) /
                     std::fabs(slow_epochs.back().val_loss) * 100;
  const QString want = QStringLiteral("%1%2 %").arg(pct >= 0 ? "+" : "").arg(QString::number(pct, 'f', 1));
  QVERIFY2(overlay->readout().contains(want), qPrintable(overlay->readout() + " / " + want));
  if (const QByteArray shots = qgetenv("TRAINSCOPE_SHOTS"); !shots.isEmpty()) {
    overlay->resize(1000, 600);
    overlay->grab().save(QString::fromLocal8Bit(shots) + "/runs-overlay.png");
    w.resize(1000, 640);
    w.grab().save(QString::fromLocal8Bit(shots) + "/runs-window.png");
  }
  QVERIFY(overlay->setXAxis("samples"));  // epoch x n_train
  const double n_train = double(readRun(r / "fast").info.data.n_train);
  QVERIFY(n_train > 0);
  QCOMPARE(overlay->points(fast_i).back().first, double(fast_epochs.back().epoch) * n_train);
  QVERIFY(overlay->setMetric("grad_norm"));  // per step: one point per steps.csv row
  QCOMPARE(overlay->points(fast_i).size(), readRunSteps(r / "fast").size());
  {  // per step against epochs: the steps of epoch e lie in (e - 1, e], the last one at e
    QVERIFY(overlay->setXAxis("epoch"));
    const auto steps = readRunSteps(r / "fast");
    const auto step_pts = overlay->points(fast_i);
    for (size_t i = 0; i < steps.size(); ++i)
      QVERIFY2(step_pts[i].first > steps[i].epoch - 1 && step_pts[i].first <= steps[i].epoch,
               qPrintable(QStringLiteral("step %1 at x %2").arg(steps[i].step).arg(step_pts[i].first)));
    QCOMPARE(step_pts.back().first, double(fast_epochs.back().epoch));
    // against training time: metrics.csv's epoch_seconds summed, pauses left out
    QVERIFY(overlay->setXAxis("time"));
    double seconds = 0;
    for (const auto& e : fast_epochs) seconds += e.epoch_seconds;
    QVERIFY(seconds > 0);
    QVERIFY2(std::fabs(overlay->points(fast_i).back().first - seconds) <= 1e-9 * seconds,
             qPrintable(QString::number(overlay->points(fast_i).back().first)));
  }
  overlay->close();

  // notes: notes.json only; the records stay as they were
  const QByteArray metrics_before = [&] {
    QFile m(root + "/fast/metrics.csv");
    m.open(QIODevice::ReadOnly);
    return m.readAll();
  }();
  w.selectRuns({root + "/fast"});
  w.findChild<QPlainTextEdit*>(QStringLiteral("runNotesEdit"))->setPlainText("too fast?");
  w.findChild<QLineEdit*>(QStringLiteral("runTagsLineEdit"))->setText(" sweep , lr ,");
  w.findChild<QPushButton*>(QStringLiteral("saveRunNotesButton"))->click();
  std::ifstream in((r / "fast" / "notes.json").string());
  const auto notes = nlohmann::json::parse(in);
  QCOMPARE(QString::fromStdString(notes["notes"].get<std::string>()), QString("too fast?"));
  QCOMPARE(notes["tags"], nlohmann::json({"sweep", "lr"}));
  QFile m(root + "/fast/metrics.csv");
  QVERIFY(m.open(QIODevice::ReadOnly));
  QCOMPARE(m.readAll(), metrics_before);
  filter->setText(QStringLiteral("sweep"));  // tags are searchable
  QCOMPARE(w.shownRuns(), QStringList{root + "/fast"});
  filter->clear();

  // a user's folder cannot be moved; a run goes to <root>/trash after the question
  w.selectRuns({root + "/mine"});
  QVERIFY(!w.findChild<QPushButton*>(QStringLiteral("trashRunButton"))->isEnabled());
  // a "trash" that is a link would move the run out of the runs folder: refused, said in the
  // dialog, nothing moved
  const QString elsewhere = tmp.filePath("elsewhere");
  QVERIFY(QDir().mkpath(elsewhere));
  QVERIFY(QFile::link(elsewhere, root + "/trash"));
  w.selectRuns({root + "/slow"});
  QString refusal;
  QTimer::singleShot(200, [&refusal] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
      box->button(QMessageBox::Yes)->click();
    QTimer::singleShot(200, [&refusal] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        refusal = box->text();
        box->button(QMessageBox::Ok)->click();
      }
    });
  });
  w.findChild<QPushButton*>(QStringLiteral("trashRunButton"))->click();
  QTRY_VERIFY(!refusal.isEmpty());
  QVERIFY2(refusal.contains(QStringLiteral("symbolic link")), qPrintable(refusal));
  QVERIFY(QDir(root + "/slow").exists());
  QVERIFY(directoryNames(elsewhere).isEmpty());
  QVERIFY(QFile::remove(root + "/trash"));
  w.selectRuns({root + "/slow"});
  QTimer::singleShot(200, [] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
      box->button(QMessageBox::Yes)->click();
  });
  w.findChild<QPushButton*>(QStringLiteral("trashRunButton"))->click();
  QCOMPARE(directoryNames(root + "/trash"), QStringList{"slow"});
  QVERIFY(!QDir(root + "/slow").exists());
  QCOMPARE(w.shownRuns().size(), 2);  // the trash folder is not listed
}

void TstRunsGui::showOpensTheRunWithoutAFolder() {
  QTemporaryDir tmp;
  const QString root = tmp.filePath("runs");
  train(std::filesystem::path(root.toStdString()) / "one", 0.003);
  MainWindow main;
  main.setConfirmClose(false);
  main.setRunsRoot(root);
  main.show();
  main.showRunsWindow();
  RunsWindow* w = main.runsWindow();
  QVERIFY(w && w->isVisible());
  w->selectRuns({root + "/one"});
  w->findChild<QPushButton*>(QStringLiteral("openSelectedRunButton"))->click();
  QVERIFY(main.controller()->store()->isReadBack());
  QCOMPARE(main.runDirectory(), root + "/one");
  QCOMPARE(directoryNames(root), QStringList{"one"});  // nothing created
}

// A run written by another trainer (here a thread holding the folder's lock, as another
// process would): opened while it trains, it is followed to its end; every epoch and step of
// its files arrives once, and the run's own summary ends it.
void TstRunsGui::followsARunWrittenElsewhere() {
  QTemporaryDir tmp;
  const std::filesystem::path dir = std::filesystem::path(tmp.path().toStdString()) / "live";
  const std::filesystem::path done = std::filesystem::path(tmp.path().toStdString()) / "done";
  train(done, 0.003);
  TrainConfig c = presetConfig("overfit-sine");
  c.training.epochs = 3000;
  c.data.n_samples = 60;
  std::thread writer([&] {
    TrainerOptions o;
    o.run_dir = dir;
    Trainer(c, o).run();
  });
  // wait until a few epochs are on disk
  for (int i = 0; i < 2000; ++i) {
    std::ifstream m((dir / "metrics.csv").string());
    int lines = 0;
    for (std::string l; std::getline(m, l);) ++lines;
    if (lines > 5) break;
    QTest::qWait(10);
  }
  RunSession controller;
  QSignalSpy finished(controller.store(), &RunStore::runFinished);
  QSignalSpy status(&controller, &RunSession::followStatusChanged);
  QString error;
  QVERIFY2(controller.openRun(QString::fromStdString(dir.string()), &error), qPrintable(error));
  const bool followed = controller.isFollowing();
  // The same run beside a finished one in the overlay: it grows there too.
  RunsOverlayDialog overlay({QString::fromStdString(dir.string()),
                             QString::fromStdString(done.string())});
  QVERIFY(overlay.setMetric("val_loss"));
  // It fits the screen (it opened 1100 px wide on a 1024x768 projector).
  QVERIFY(overlay.screen());
  QVERIFY2(overlay.width() <= overlay.screen()->availableGeometry().width(),
           qPrintable(QString::number(overlay.width())));
  const size_t first_points = overlay.points(0).size();
  // Only a followed run signals its end: on a loaded machine the writer may have finished all
  // its epochs before openRun read the folder (then nothing is followed, and nothing signals).
  if (followed) QVERIFY(finished.wait(120000) || finished.count() > 0);
  writer.join();
  while (overlay.refreshLive() > 0) QTest::qWait(50);  // the writer has ended: at most one more
  QCOMPARE(overlay.points(0).size(), readRun(dir).epochs.size());
  QCOMPARE(overlay.points(1).size(), readRun(done).epochs.size());
  if (!followed) QSKIP("the run ended before it was opened (machine too fast): nothing to follow");
  QVERIFY(first_points < overlay.points(0).size());
  QVERIFY(!controller.isFollowing());
  QVERIFY(status.count() >= 1);
  QVERIFY(status.first().at(0).value<FollowState>() == FollowState::Running);
  const RunRecord whole = readRun(dir);
  const auto* val = controller.store()->history().find(series::kEpochValLoss);
  QVERIFY(val);
  QCOMPARE(val->values().appended(), whole.epochs.size());  // each epoch once
  QCOMPARE(controller.store()->stepCount(), qint64(whole.steps.size()));
  QCOMPARE(finished.last().at(0).value<RunSummary>().global_step, whole.summary->global_step);
}

// Beside the live run: a run chosen in the Runs window is the loss plot's ghost, named as
// chosen, and stays through the runs started after it (its changes recomputed) until cleared.
void TstRunsGui::chosenRunIsTheGhostOfTheNextRuns() {
  QTemporaryDir tmp;
  const QString root = tmp.filePath("runs");
  const std::filesystem::path chosen = std::filesystem::path(root.toStdString()) / "chosen";
  train(chosen, 0.003);
  MainWindow main;
  main.setConfirmClose(false);
  main.setRunsRoot(root);
  main.show();
  main.showRunsWindow();
  RunsWindow* w = main.runsWindow();
  w->selectRuns({root + "/chosen"});
  auto* ghost = w->findChild<QPushButton*>(QStringLiteral("ghostRunButton"));
  QVERIFY(ghost->isEnabled());
  ghost->click();
  RunSession* c = main.controller();
  QVERIFY(c->store()->ghostChosen());
  QCOMPARE(c->store()->ghostName(), QString("chosen"));
  const auto* ghost_val = c->store()->previousRun().find(series::kEpochValLoss);
  QVERIFY(ghost_val);
  const RunRecord rec = readRun(chosen);
  QCOMPARE(ghost_val->values().appended(), rec.epochs.size());
  QCOMPARE(ghost_val->values().points().back().y, rec.epochs.back().val_loss);

  // a run with another learning rate: the chosen run stays, its difference is the lr
  TrainConfig next = presetConfig("overfit-sine");
  next.training.epochs = 2;
  next.data.n_samples = 60;
  next.optimizer.lr = 0.01;
  QSignalSpy finished(c->store(), &RunStore::runFinished);
  QVERIFY(c->start(next, root));
  QVERIFY(finished.wait(60000));
  QVERIFY(c->store()->ghostChosen());
  QCOMPARE(c->store()->ghostName(), QString("chosen"));
  QCOMPARE(c->store()->previousRun().find(series::kEpochValLoss)->values().appended(), rec.epochs.size());
  bool lr_changed = false;
  for (const ConfigChange& change : c->store()->ghostChanges()) lr_changed |= change.key == "optimizer.lr";
  QVERIFY(lr_changed);
  c->clearGhost();
  QVERIFY(!c->store()->ghostChosen());
  QVERIFY(c->store()->previousRun().empty());

  // a folder that is no run: refused, the ghost left as it was
  QString error;
  QVERIFY(!c->setGhostRun(tmp.path(), &error));
  QVERIFY(!error.isEmpty());
  QVERIFY(!c->store()->ghostChosen());
}

// Replay from the Runs window: a new run folder whose epochs repeat the recorded ones (the
// CLI's train --replay, whose bitwise equality tst_replay checks; here the GUI's thread count
// may differ, so to 1e-9).
void TstRunsGui::replayRepeatsARecordedRun() {
  QTemporaryDir tmp;
  const QString root = tmp.filePath("runs");
  train(std::filesystem::path(root.toStdString()) / "recorded", 0.01);
  MainWindow main;
  main.setConfirmClose(false);
  main.setRunsRoot(root);
  main.show();
  main.showRunsWindow();
  RunsWindow* w = main.runsWindow();
  w->selectRuns({root + "/recorded"});
  auto* replay = w->findChild<QPushButton*>(QStringLiteral("replayRunButton"));
  QVERIFY(replay->isEnabled());
  QSignalSpy finished(main.controller()->store(), &RunStore::runFinished);
  replay->click();
  QVERIFY(finished.wait(60000));
  const QStringList names = directoryNames(root);
  QCOMPARE(names.size(), 2);
  const QString made = names.at(0) == "recorded" ? names.at(1) : names.at(0);
  QCOMPARE(main.runDirectory(), root + "/" + made);
  const RunRecord a = readRun(std::filesystem::path(root.toStdString()) / "recorded");
  const RunRecord b = readRun(std::filesystem::path(root.toStdString()) / made.toStdString());
  QCOMPARE(b.epochs.size(), a.epochs.size());
  for (size_t i = 0; i < a.epochs.size(); ++i) {
    QVERIFY(std::fabs(a.epochs[i].val_loss - b.epochs[i].val_loss) <= 1e-9 * std::fabs(a.epochs[i].val_loss));
    QVERIFY(std::fabs(a.epochs[i].train_loss - b.epochs[i].train_loss) <= 1e-9 * std::fabs(a.epochs[i].train_loss));
  }
  QCOMPARE(b.config["optimizer"]["lr"], a.config["optimizer"]["lr"]);
}

// The anomalies column is written by core in English; the window says each part in the
// interface language (here English, the source texts) and keeps a part it does not know.
void TstRunsGui::anomaliesInTheInterfaceLanguage() {
  QCOMPARE(runAnomaliesTitle("non-finite x3, 2 steps skipped, diagnosis diverging, diverged @4, "
                             "overfitting @179, early stop @190, clip warning, something new"),
           QString("non-finite x3, 2 step(s) skipped, the loss is diverging: the updates are too large, "
                   "diverged at epoch 4, overfitting from epoch 179, early stop at epoch 190, "
                   "clip warning, something new"));
  QCOMPARE(runAnomaliesTitle("1 step skipped"), QString("1 step(s) skipped"));
  QCOMPARE(runAnomaliesTitle(""), QString());
}

// Inject a mistake: the switches edit teaching.mistakes (the two lr factors
// exclude each other); a run with one is marked in the status bar and above the loss plot, also
// when it is opened again; a run without is not.
void TstRunsGui::teachingMistakesAreMarked() {
  QTemporaryDir tmp;
  const QString root = tmp.filePath("runs");
  MainWindow main;
  main.setConfirmClose(false);
  main.setRunsRoot(root);
  main.show();
  auto* zero_grad = main.findChild<QCheckBox*>(QStringLiteral("mistake_no_zero_gradCheckBox"));
  auto* up = main.findChild<QCheckBox*>(QStringLiteral("mistake_lr_x1000CheckBox"));
  auto* down = main.findChild<QCheckBox*>(QStringLiteral("mistake_lr_x1e-6CheckBox"));
  QVERIFY(zero_grad && up && down);
  up->setChecked(true);
  down->setChecked(true);  // unchecks lr_x1000
  QVERIFY(!up->isChecked());
  down->setChecked(false);
  zero_grad->setChecked(true);
  TrainConfig c = main.currentConfig();
  QCOMPARE(c.teaching.mistakes, std::vector<std::string>{"no_zero_grad"});
  c.training.epochs = 2;
  c.data.n_samples = 60;
  QSignalSpy finished(main.controller()->store(), &RunStore::runFinished);
  QVERIFY(main.controller()->start(c, root));
  QVERIFY(finished.wait(60000));
  auto* label = main.findChild<QLabel*>(QStringLiteral("mistakesLabel"));
  QVERIFY(label && label->isVisibleTo(&main));
  QVERIFY(label->text().contains("1"));
  auto* loss = main.findChild<LossPlot*>();
  QVERIFY(loss);
  QVERIFY2(loss->mistakesBanner().contains("zero_grad"), qPrintable(loss->mistakesBanner()));
  const QString marked = main.runDirectory();
  // a run without mistakes: no marks
  c.teaching.mistakes.clear();
  QVERIFY(main.controller()->start(c, root));
  QVERIFY(finished.wait(60000));
  QVERIFY(!label->isVisibleTo(&main));
  QVERIFY(loss->mistakesBanner().isEmpty());
  // the marked run opened again from its folder: marked again
  QString error;
  QVERIFY2(main.controller()->openRun(marked, &error), qPrintable(error));
  QVERIFY(label->isVisibleTo(&main));
  QVERIFY(loss->mistakesBanner().contains("zero_grad"));
}

TRAINSCOPE_GUI_TEST_MAIN(TstRunsGui)
}  // namespace tst_runs_gui_suite
#include "tst_runs_gui.moc"

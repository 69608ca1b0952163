// The live view under stress: non-finite values on the plots, log scale with zeros and
// negatives, folding of repeated events, texts that stay readable at 1024x768, and a window
// that closes fast at a high step rate. Expected values are computed from the data fed in.
#include <QAbstractButton>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <limits>

#include "core/config/train_config.h"
#include "core/run/run_reader.h"
#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/events_panel.h"
#include "gui/plots/training_plots.h"
#include "run_files.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_live_view_suite {

using namespace trainscope;

namespace {
const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
}  // namespace

class TstLiveView : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void nonFiniteValuesAreMarkersAndNeverStretchAnAxis();
  void logScaleLeavesOutZerosAndNegatives();
  void repeatedEventsFoldIntoOneLine();
  void nonFiniteRunSpansEveryStepWithMarkers();
  void textsFitAt1024x768();
  void closingAtFullStepRateIsFast();
  void twoSessionsRunAtOnce();

 private:
  QTemporaryDir dir_;
};

void TstLiveView::initTestCase() {
  QSettings().clear();
  // QSettings (the remembered pace, runs root) go to a test location, not the user's.
  QStandardPaths::setTestModeEnabled(true);
  // English plural forms, as the application installs them.
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
}

void TstLiveView::nonFiniteValuesAreMarkersAndNeverStretchAnAxis() {
  RunHistory history;
  const double ys[] = {1, 0.5, kNan, 0.25, kInf, 0.2, 0.1, -kInf};
  for (int i = 0; i < 8; ++i) history.append(series::kStepLoss, i + 1, ys[i]);
  LossPlot plot;
  plot.resize(800, 400);
  plot.setHistory(&history);
  plot.sync();
  // Finite values 0.1 .. 1 with a 5% margin of the span (0.045) on each side.
  QCOMPARE(plot.yAxis->range().lower, 0.1 - 0.045);
  QCOMPARE(plot.yAxis->range().upper, 1.0 + 0.045);
  // Every step, the non-finite ones included.
  QCOMPARE(plot.xAxis->range().lower, 1.0);
  QCOMPARE(plot.xAxis->range().upper, 8.0);
  QCOMPARE(plot.markerCount(), 3);
  QCOMPARE(plot.pointCount(series::kStepLoss), 5);
}

void TstLiveView::logScaleLeavesOutZerosAndNegatives() {
  RunHistory history;
  const double ys[] = {0, -1, 0.01, 10, 0.1};
  for (int i = 0; i < 5; ++i) history.append(series::kStepLoss, i + 1, ys[i]);
  LossPlot plot;
  plot.resize(800, 400);
  plot.setHistory(&history);
  plot.setLogScale(true);
  // Positive values span 0.01 .. 10 (3 decades); the margin is a factor (10/0.01)^0.05.
  const double factor = std::pow(1000.0, 0.05);
  QCOMPARE(plot.yAxis->range().lower, 0.01 / factor);
  QCOMPARE(plot.yAxis->range().upper, 10 * factor);
  plot.setLogScale(false);
  QCOMPARE(plot.yAxis->range().lower, -1 - 0.05 * 11);
  QCOMPARE(plot.yAxis->range().upper, 10 + 0.05 * 11);
}

void TstLiveView::repeatedEventsFoldIntoOneLine() {
  EventsPanel panel;
  Event e;
  e.kind = EventKind::NonFinite;
  e.what = "loss";
  e.value = kNan;
  for (int step = 6; step <= 300; ++step) {
    e.step = step;
    panel.addEvent(e);
  }
  QCOMPARE(panel.lineCount(), 1);
  const QString line = panel.lineText(0);
  QVERIFY2(line.contains(QStringLiteral("steps 6–300")), qPrintable(line));
  QVERIFY2(line.contains(QStringLiteral("295 times")), qPrintable(line));
  // Another kind starts a new line; the same kind after it starts another.
  Event paused;
  paused.kind = EventKind::Paused;
  paused.step = 300;
  panel.addEvent(paused);
  e.step = 301;
  panel.addEvent(e);
  QCOMPARE(panel.lineCount(), 3);
  // An exploding run alternates a non-finite loss and a non-finite gradient norm at every step
  // (a fresh user's run: 32,000 events, 4 minutes of relayout): still one line.
  for (int step = 302; step <= 2300; ++step) {
    e.step = step;
    e.what = step % 2 ? "loss" : "grad_norm";
    panel.addEvent(e);
  }
  QCOMPARE(panel.lineCount(), 3);
  QVERIFY2(panel.lineText(2).contains(QStringLiteral("steps 301–2300")),
           qPrintable(panel.lineText(2)));
  e.what = "loss";
  // Bounded: never more than kMaxLines lines.
  for (int i = 0; i < EventsPanel::kMaxLines + 50; ++i) {
    paused.step = i;
    panel.addLine(QStringLiteral("line %1").arg(i), EventText::Severity::Info);
  }
  QCOMPARE(panel.lineCount(), EventsPanel::kMaxLines);
  // Live changes are never folded: AMP on, then off, are two lines (folded, "off" hid "on").
  EventsPanel changes;
  Event amp;
  amp.kind = EventKind::ConfigChanged;
  amp.what = "training.amp";
  amp.step = 10;
  amp.value = 1;
  changes.addEvent(amp);
  amp.step = 20;
  amp.value = 0;
  changes.addEvent(amp);
  QCOMPARE(changes.lineCount(), 2);
  QVERIFY2(changes.lineText(0).contains(QStringLiteral("on")) &&
               changes.lineText(1).contains(QStringLiteral("off")),
           qPrintable(changes.lineText(0) + " / " + changes.lineText(1)));
}

void TstLiveView::nonFiniteRunSpansEveryStepWithMarkers() {
  // The configuration a new user diverged with: SGD with lr 1 on a sine, policy "skip". The
  // loss overflows within a few steps and every later update is skipped.
  const QString config = dir_.filePath(QStringLiteral("diverge.json"));
  QFile f(config);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(R"({"name": "diverge", "data": {"source": "sine", "n_samples": 200, "noise": 0.1},
    "model": {"hidden": [32], "activation": "relu"}, "optimizer": {"name": "sgd", "lr": 1},
    "training": {"epochs": 30, "batch_size": 16, "seed": 1, "num_threads": 1,
                 "non_finite": "skip"}})");
  f.close();
  MainWindow w;
  w.setConfirmClose(false);
  w.setFullSpeed();
  w.setRunsRoot(dir_.filePath(QStringLiteral("diverge-runs")));
  QString error;
  QVERIFY2(w.openConfigFile(config, &error), qPrintable(error));
  w.show();
  QSignalSpy finished(w.controller()->store(), &RunStore::runFinished);
  QVERIFY(w.startRun());
  QVERIFY(finished.wait(60000));
  w.grabWindowImage();  // flushes the plots
  // 160 training samples / 16 = 10 steps per epoch, 30 epochs.
  const qint64 steps = 300;
  QCOMPARE(w.controller()->store()->stepCount(), steps);
  const qint64 skipped = w.controller()->store()->skippedSteps();
  QVERIFY(skipped > 250);
  for (const char* name : {"lossPlot", "gradNormPlot"}) {
    auto* plot = w.findChild<LivePlot*>(QLatin1String(name));
    QVERIFY(plot);
    QCOMPARE(plot->xAxis->range().lower, 1.0);
    QCOMPARE(plot->xAxis->range().upper, double(steps));
  }
  // Every skipped step had a non-finite loss or norm: the gradient plot marks each one.
  QCOMPARE(w.findChild<LivePlot*>(QStringLiteral("gradNormPlot"))->markerCount(), int(skipped));
  // One folded line for all the non-finite events, and the end line counts the skips.
  auto* events = w.findChild<EventsPanel*>();
  QVERIFY(events);
  int non_finite_lines = 0;
  for (int i = 0; i < events->lineCount(); ++i)
    if (events->lineText(i).contains(QStringLiteral("Non-finite"))) ++non_finite_lines;
  if (non_finite_lines != 1)
    for (int i = 0; i < events->lineCount(); ++i) qWarning("%s", qPrintable(events->lineText(i)));
  QCOMPARE(non_finite_lines, 1);
  const QString last = events->lineText(events->lineCount() - 1);
  QVERIFY2(last.contains(QStringLiteral("%1 optimizer updates skipped").arg(skipped)),
           qPrintable(last));
}

void TstLiveView::textsFitAt1024x768() {
  QVERIFY(dir_.isValid());
  MainWindow w;
  w.setConfirmClose(false);
  w.setFullSpeed();
  w.setRunsRoot(dir_.filePath(QStringLiteral("runs")));
  QVERIFY(w.minimumSizeHint().width() <= 1024);
  QVERIFY(w.minimumSizeHint().height() <= 768);
  w.resize(1024, 768);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  RunSession* c = w.controller();
  QSignalSpy finished(c->store(), &RunStore::runFinished);
  QVERIFY(w.loadPreset(QStringLiteral("overfit-sine")));
  QVERIFY(w.startRun());
  QVERIFY(finished.wait(120000));
  QTest::qWait(100);
  QCOMPARE(w.size(), QSize(1024, 768));
  // Every single-line label shows its whole text (no "Step 3" for step 300, no "ende..."),
  // in English and in Chinese.
  for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
    switchLanguage(language);
    QCoreApplication::processEvents();
    QTest::qWait(50);
    QCOMPARE(w.size(), QSize(1024, 768));
    for (QLabel* label : w.findChildren<QLabel*>()) {
      if (!label->isVisible() || label->wordWrap() || label->text().isEmpty()) continue;
      if (label->objectName() == QLatin1String("runDirLabel")) continue;  // elided, with tooltip
      QString shown = label->text();
      shown.remove(QLatin1Char('&'));  // mnemonic marks are not drawn
      const int needed = label->fontMetrics().horizontalAdvance(shown);
      QVERIFY2(label->contentsRect().width() >= needed,
               qPrintable(QStringLiteral("%1: '%2' needs %3 px, has %4")
                              .arg(language, label->text())
                              .arg(needed)
                              .arg(label->contentsRect().width())));
    }
    for (QAbstractButton* b : w.findChildren<QAbstractButton*>()) {
      if (!b->isVisible() || b->text().isEmpty()) continue;
      QVERIFY2(b->width() >= b->minimumSizeHint().width(), qPrintable(language + b->text()));
    }
    // The status bar's fields lie side by side, none drawn over another.
    QList<QLabel*> fields;
    for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
      if (l->isVisible() && !l->text().isEmpty()) fields << l;
    for (int i = 0; i < fields.size(); ++i)
      for (int j = i + 1; j < fields.size(); ++j)
        QVERIFY2(!fields[i]->geometry().intersects(fields[j]->geometry()),
                 qPrintable(fields[i]->text() + QStringLiteral(" / ") + fields[j]->text()));
  }
  switchLanguage(QStringLiteral("en"));
}

void TstLiveView::closingAtFullStepRateIsFast() {
  // moons, one hidden layer of 8, batch 1, SGD: the highest step rate the engine reaches.
  const QString config = dir_.filePath(QStringLiteral("fast.json"));
  QFile f(config);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(R"({"name": "fast", "data": {"source": "moons", "n_samples": 1000, "seed": 1},
    "model": {"hidden": [8]}, "optimizer": {"name": "sgd", "lr": 0.01},
    "training": {"epochs": 100000, "batch_size": 1, "seed": 1, "num_threads": 1}})");
  f.close();
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setFullSpeed();
  w->setRunsRoot(dir_.filePath(QStringLiteral("fast-runs")));
  QString error;
  QVERIFY2(w->openConfigFile(config, &error), qPrintable(error));
  w->show();
  QVERIFY(w->startRun());
  QTest::qWait(3000);
  QVERIFY(w->controller()->store()->stepCount() > 1000);
  const QString run_dir = w->runDirectory();
  QElapsedTimer timer;
  timer.start();
  w->close();
  const qint64 ms = timer.elapsed();
  QVERIFY2(ms < 1000, qPrintable(QStringLiteral("closing took %1 ms").arg(ms)));
  QVERIFY(!w->controller()->isActive());
  const QJsonObject summary = testfiles::readJsonObject(run_dir + QStringLiteral("/summary.json"));
  QCOMPARE(summary.value(QStringLiteral("stop_reason")).toString(), QStringLiteral("stopped"));
}

TRAINSCOPE_GUI_TEST_MAIN(TstLiveView)
// Two run sessions at once, each with its own store: neither sees the other's records, and
// each run is the one the same settings give alone (its steps.csv equals a run trained on its
// own, bit for bit on the CPU with one thread each). Sessions in one process share libtorch's
// global CPU generator, which seeds the initial weights and draws dropout: the second starts
// once the first has taken its first step (its weights made), and the model has no dropout.
// (A sweep's trials run in processes of their own.) The first is paced so that it is still
// training when the second starts; pacing changes no number of a run.
void TstLiveView::twoSessionsRunAtOnce() {
  const QString root = dir_.filePath(QStringLiteral("sessions"));
  auto config = [](int64_t seed) {
    TrainConfig c = presetConfig("moons");
    c.name = "moons-seed-" + std::to_string(seed);
    c.training.epochs = 4;
    c.training.seed = seed;
    c.training.num_threads = 1;
    c.model.dropout = 0;
    return c;
  };
  RunSession a, b;
  QSignalSpy a_done(a.store(), &RunStore::runFinished), b_done(b.store(), &RunStore::runFinished);
  a.setPace(100);  // 100 steps of 4 x 25 take a second
  QVERIFY(a.start(config(1), root));
  QTRY_VERIFY_WITH_TIMEOUT(a.store()->stepCount() > 0, 30000);
  QVERIFY(b.start(config(2), root));
  QVERIFY(a.isActive() && b.isActive());
  QTRY_VERIFY_WITH_TIMEOUT(a_done.count() == 1 && b_done.count() == 1, 120000);
  const QString a_dir = a.store()->runDirectory(), b_dir = b.store()->runDirectory();
  QVERIFY(a_dir != b_dir);
  for (const RunSession* c : {&a, &b}) {
    const RunRecord run = readRun(c->store()->runDirectory().toStdString());
    QCOMPARE(c->store()->stepCount(), qint64(run.steps.size()));
    QVERIFY(c->store()->lastStep().has_value());
    QCOMPARE(c->store()->lastStep()->loss, run.steps.back().loss);
    QCOMPARE(c->store()->history().find(series::kEpochValLoss)->values().size(), run.epochs.size());
  }
  // Seed 1 again, alone: the same steps as the concurrent run of seed 1.
  RunSession alone;
  QSignalSpy alone_done(alone.store(), &RunStore::runFinished);
  QVERIFY(alone.start(config(1), root));
  QTRY_VERIFY_WITH_TIMEOUT(alone_done.count() == 1, 120000);
  const QString steps = QStringLiteral("steps.csv");
  const QString alone_steps = QDir(alone.store()->runDirectory()).filePath(steps);
  COMPARE_RUN_CSV(alone_steps, QDir(a_dir).filePath(steps));
  const QString diff = testfiles::csvDifference(alone_steps, QDir(b_dir).filePath(steps));
  QVERIFY2(!diff.isEmpty(), "seed 2 trained the same steps as seed 1");
}

}  // namespace tst_live_view_suite
#include "tst_live_view.moc"

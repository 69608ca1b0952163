// Issue 9 in the dashboard: the AMP check box switches a paused run from its next step (a
// config_changed event, a mark on the plots, bf16 losses from then on); the reproducibility
// check on the current settings says "bitwise identical" with the seed on and shows the
// difference with it off; the AMP A/B report shows what core measured; the memory readout
// equals core's resident-memory figure; the loss-scale view explains its emptiness on the CPU;
// the effective batch size is shown. Expected values come from the spied records, the loss
// lists of the reports (recomputed here) and core's functions, not from the widgets.
#include <qcustomplot.h>

#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QPainter>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/system/memory.h"
#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/amp_report_dialog.h"
#include "gui/panels/device_panel.h"
#include "gui/panels/events_panel.h"
#include "gui/panels/repro_panel.h"
#include "gui/panels/repro_report_dialog.h"
#include "gui/plots/loss_scale_plot.h"
#include "gui/plots/plot_area.h"
#include "gui/plots/training_plots.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_amp_repro_gui_suite {

using namespace trainscope;
using State = RunSession::State;

class TstAmpReproGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void ampToggleWhilePausedAppliesFromTheNextStep();
  void ampBeforeARunOnlyChangesTheConfig();
  void verifyReproWithSeedIsBitwiseIdentical();
  void verifyReproWithoutSeedShowsTheDifference();
  void cancellingACheckShowsNoReport();
  void ampCompareReportShowsCoresFigures();
  void ampCompareOnABusyMachineShowsTheRangeNotOneFigure();
  void ampCompareTooSmallToTimeSaysSo();
  void memoryReadoutEqualsResidentMemory();
  void lossScaleViewDrawsTheScaleOrSaysWhyNot();
  /// Not a check: with TRAINSCOPE_DOCS_DIR set, writes the docs/ screenshots (1024x768) of
  /// the fashion-mnist-mlp A/B report, the reproducibility report and a run with AMP switched
  /// on mid-run, in the language of TRAINSCOPE_DOCS_LANG (en when unset).
  void docsScreenshots();

 private:
  std::unique_ptr<MainWindow> makeWindow(const QString& runs);
  /// Runs `w`'s settings to the end; the losses of its steps in order.
  static std::vector<double> runLosses(MainWindow& w, RunInfo* info = nullptr);
  static std::vector<double> losses(const QSignalSpy& steps);
  /// Clicks `button` and returns the report dialog the panel opens.
  static QDialog* reportOf(MainWindow& w, const char* button);
  template <class T>
  static T* child(MainWindow& w, const char* name) {
    T* t = w.findChild<T*>(QLatin1String(name));
    if (!t) qFatal("no %s", name);
    return t;
  }
  /// The progress dialog of the check in progress (closed ones may await deletion).
  static QProgressDialog* visibleProgress(MainWindow& w) {
    for (auto* d : w.findChildren<QProgressDialog*>(QStringLiteral("compareProgressDialog")))
      if (d->isVisible()) return d;
    return nullptr;
  }
  /// The AMP switch lines on `plot` at x (other features may add items of their own).
  static int switchLines(QCustomPlot* plot, double x) {
    int n = 0;
    for (int i = 0; i < plot->itemCount(); ++i)
      if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i)))
        n += line->point1->coords().x() == x && line->point2->coords().x() == x;
    return n;
  }
  static bool bitwiseEqual(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

  QTemporaryDir dir_;
};

void TstAmpReproGui::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(dir_.isValid());
}

std::unique_ptr<MainWindow> TstAmpReproGui::makeWindow(const QString& runs) {
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setFullSpeed();
  w->setRunsRoot(dir_.filePath(runs));
  w->show();
  return w;
}

std::vector<double> TstAmpReproGui::losses(const QSignalSpy& steps) {
  std::vector<double> out;
  for (const QList<QVariant>& args : steps) out.push_back(args.at(0).value<StepRecord>().loss);
  return out;
}

std::vector<double> TstAmpReproGui::runLosses(MainWindow& w, RunInfo* info) {
  QSignalSpy steps(w.controller()->store(), &RunStore::stepRecorded);
  QSignalSpy started(w.controller()->store(), &RunStore::runStarted);
  QSignalSpy finished(w.controller()->store(), &RunStore::runFinished);
  if (!w.startRun()) return {};
  if (!finished.wait(120000)) return {};
  if (info && !started.isEmpty()) *info = started.at(0).at(0).value<RunInfo>();
  return losses(steps);
}

QDialog* TstAmpReproGui::reportOf(MainWindow& w, const char* button) {
  auto* panel = child<ReproPanel>(w, "reproPanel");
  QSignalSpy shown(panel, &ReproPanel::reportShown);
  QSignalSpy failed(panel, &ReproPanel::checkFailed);
  auto* b = child<QPushButton>(w, button);
  if (!b->isEnabled()) return nullptr;
  b->click();
  // Off the GUI thread: the window is busy (modal progress) but the event loop runs.
  if (!visibleProgress(w) || !panel->job()) return nullptr;
  if (child<QPushButton>(w, "verifyReproButton")->isEnabled()) return nullptr;  // one at a time
  if (!shown.wait(180000)) {
    if (!failed.isEmpty()) qWarning("%s", qPrintable(failed.at(0).at(0).toString()));
    return nullptr;
  }
  if (panel->job()) return nullptr;  // the job has ended
  return panel->lastReport();
}

void TstAmpReproGui::ampToggleWhilePausedAppliesFromTheNextStep() {
  auto w = makeWindow(QStringLiteral("runs-toggle"));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));  // seed 42, one thread, 25 steps an epoch
  child<QSpinBox>(*w, "epochsSpinBox")->setValue(1);
  auto* amp = child<QCheckBox>(*w, "ampCheckBox");
  QVERIFY(!amp->isChecked());
  RunSession* c = w->controller();

  // The reference: float32 throughout.
  const std::vector<double> ref = runLosses(*w);
  QCOMPARE(ref.size(), std::size_t{25});

  // The same settings, paused after step 1; AMP switched on by a click; on to the end.
  QSignalSpy steps(c->store(), &RunStore::stepRecorded);
  QSignalSpy events(c->store(), &RunStore::eventOccurred);
  QSignalSpy finished(c->store(), &RunStore::runFinished);
  w->stepBatch();
  QTRY_COMPARE_WITH_TIMEOUT(c->state(), State::Paused, 60000);
  QTRY_COMPARE_WITH_TIMEOUT(steps.size(), 1, 10000);
  QVERIFY(amp->isEnabled());  // live while paused
  QVERIFY(!child<QSpinBox>(*w, "epochsSpinBox")->isEnabled());
  amp->click();
  QVERIFY(amp->isChecked());
  QVERIFY(w->startRun());  // resumes
  QVERIFY(finished.wait(60000));
  const std::vector<double> live = losses(steps);
  QCOMPARE(live.size(), ref.size());

  // One config_changed event: AMP on after step 1.
  std::vector<Event> amp_events;
  for (const QList<QVariant>& args : events) {
    const auto e = args.at(0).value<Event>();
    if (e.kind == EventKind::ConfigChanged && e.what == "training.amp") amp_events.push_back(e);
  }
  QCOMPARE(amp_events.size(), std::size_t{1});
  QCOMPARE(amp_events[0].step, int64_t{1});
  QCOMPARE(amp_events[0].value.value_or(-1), 1.0);

  // Step 1 is float32 in both runs, bit for bit; from step 2 the forward pass is bf16: the
  // loss of the same weights differs, within bf16's rounding (1e-2 relative).
  QVERIFY(bitwiseEqual(live[0], ref[0]));
  QVERIFY2(!bitwiseEqual(live[1], ref[1]), qPrintable(QString::number(live[1], 'g', 17)));
  QVERIFY2(std::fabs(live[1] - ref[1]) <= 1e-2 * std::fabs(ref[1]),
           qPrintable(QStringLiteral("%1 vs %2").arg(live[1]).arg(ref[1])));
  int differing = 0;
  for (std::size_t i = 1; i < live.size(); ++i) differing += !bitwiseEqual(live[i], ref[i]);
  QVERIFY2(differing >= 20, qPrintable(QString::number(differing)));

  // Events panel and plot marks.
  auto* panel = w->findChild<EventsPanel*>();
  QVERIFY(panel);
  bool shown = false;
  for (int i = 0; i < panel->lineCount(); ++i)
    shown = shown || panel->lineText(i).contains(QStringLiteral(
                         "AMP switched on after step 1: mixed precision from step 2"));
  QVERIFY(shown);
  auto* marks = w->findChild<AmpMarks*>(QStringLiteral("ampMarks"));
  QVERIFY(marks);
  QCOMPARE(marks->switches().size(), std::size_t{1});
  QCOMPARE(marks->switches()[0], std::make_pair(qint64{1}, true));
  auto* loss_plot = child<LossPlot>(*w, "lossPlot");
  // Between step 1 (float32) and step 2 (bf16), on the loss and gradient-norm plots.
  QCOMPARE(switchLines(loss_plot, 1.5), 1);
  QCOMPARE(switchLines(child<GradNormPlot>(*w, "gradNormPlot"), 1.5), 1);

  // A new run clears the marks.
  amp->click();  // off again: the run has ended, so only the settings change
  QVERIFY(!w->currentConfig().training.amp);
  const std::vector<double> again = runLosses(*w);
  QCOMPARE(again.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) QVERIFY(bitwiseEqual(again[i], ref[i]));
  QCOMPARE(marks->switches().size(), std::size_t{0});
  QCOMPARE(switchLines(loss_plot, 1.5), 0);
}

void TstAmpReproGui::ampBeforeARunOnlyChangesTheConfig() {
  auto w = makeWindow(QStringLiteral("runs-amp-start"));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  child<QSpinBox>(*w, "epochsSpinBox")->setValue(1);
  RunInfo info;
  const std::vector<double> fp32 = runLosses(*w, &info);
  QVERIFY(!info.amp);
  auto* amp = child<QCheckBox>(*w, "ampCheckBox");
  QSignalSpy events(w->controller()->store(), &RunStore::eventOccurred);
  amp->click();
  QVERIFY(w->currentConfig().training.amp);
  const std::vector<double> bf16 = runLosses(*w, &info);
  QVERIFY(info.amp);
  QCOMPARE(QString::fromStdString(info.amp_kind), QStringLiteral("bf16 autocast"));
  for (const QList<QVariant>& args : events)
    QVERIFY(args.at(0).value<Event>().kind != EventKind::ConfigChanged);
  // AMP from step 1: the first loss (same initial weights, same batch) is bf16's.
  QCOMPARE(bf16.size(), fp32.size());
  QVERIFY(!bitwiseEqual(bf16[0], fp32[0]));
  QVERIFY(std::fabs(bf16[0] - fp32[0]) <= 1e-2 * std::fabs(fp32[0]));
}

void TstAmpReproGui::verifyReproWithSeedIsBitwiseIdentical() {
  auto w = makeWindow(QStringLiteral("runs-repro"));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  QVERIFY(child<QCheckBox>(*w, "seedCheckBox")->isChecked());
  QCOMPARE(child<QSpinBox>(*w, "reproStepsSpinBox")->value(), 100);  // the CLI's default
  child<QSpinBox>(*w, "reproStepsSpinBox")->setValue(30);
  auto* dialog = qobject_cast<ReproReportDialog*>(reportOf(*w, "verifyReproButton"));
  QVERIFY(dialog);
  QVERIFY(dialog->isVisible());
  const ReproReport& r = dialog->report();
  QCOMPARE(r.steps_compared, int64_t{30});
  QCOMPARE(r.losses_a.size(), std::size_t{30});
  for (std::size_t i = 0; i < 30; ++i) QVERIFY(bitwiseEqual(r.losses_a[i], r.losses_b[i]));
  QVERIFY(r.identical);
  QCOMPARE(r.seed_a, int64_t{42});
  const QString verdict = dialog->findChild<QLabel*>(QStringLiteral("reproVerdictLabel"))->text();
  QVERIFY2(verdict.startsWith(QStringLiteral("Bitwise identical")), qPrintable(verdict));
  QCOMPARE(dialog->findChild<QLabel*>(QStringLiteral("reproMaxLossDiffLabel"))->text(),
           QStringLiteral("0"));
  QCOMPARE(dialog->findChild<QLabel*>(QStringLiteral("reproMaxWeightDiffLabel"))->text(),
           QStringLiteral("0"));
  QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("reproCausesLabel")));
  dialog->close();

  // The check ran the current settings: a dashboard run of them has the same first 30 losses.
  child<QSpinBox>(*w, "epochsSpinBox")->setValue(2);  // 50 steps, constant learning rate
  const std::vector<double> run = runLosses(*w);
  QCOMPARE(run.size(), std::size_t{50});
  for (std::size_t i = 0; i < 30; ++i)
    QVERIFY2(
        bitwiseEqual(run[i], r.losses_a[i]),
        qPrintable(QStringLiteral("step %1: %2 vs %3").arg(i + 1).arg(run[i]).arg(r.losses_a[i])));
}

void TstAmpReproGui::verifyReproWithoutSeedShowsTheDifference() {
  auto w = makeWindow(QStringLiteral("runs-repro-unseeded"));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  child<QCheckBox>(*w, "seedCheckBox")->click();
  QVERIFY(!w->currentConfig().training.seed.has_value());
  child<QSpinBox>(*w, "reproStepsSpinBox")->setValue(30);
  auto* dialog = qobject_cast<ReproReportDialog*>(reportOf(*w, "verifyReproButton"));
  QVERIFY(dialog);
  const ReproReport& r = dialog->report();
  QVERIFY(!r.identical);
  QVERIFY(r.seed_a != r.seed_b);
  double max_diff = 0;
  for (std::size_t i = 0; i < r.losses_a.size(); ++i)
    max_diff = std::max(max_diff, std::fabs(r.losses_a[i] - r.losses_b[i]));
  QVERIFY(max_diff > 0);
  QCOMPARE(r.max_loss_diff, max_diff);
  QCOMPARE(dialog->findChild<QLabel*>(QStringLiteral("reproMaxLossDiffLabel"))->text(),
           QLocale().toString(max_diff, 'g', 4));
  const QString verdict = dialog->findChild<QLabel*>(QStringLiteral("reproVerdictLabel"))->text();
  QVERIFY2(verdict.startsWith(QStringLiteral("Differs by ")), qPrintable(verdict));
  QVERIFY(verdict.contains(QLocale().toString(std::max(max_diff, r.max_weight_diff), 'g', 4)));
  const QString causes = dialog->findChild<QLabel*>(QStringLiteral("reproCausesLabel"))->text();
  QVERIFY2(causes.contains(QStringLiteral("The seed is off: each run drew its own seed (%1 and %2)")
                               .arg(r.seed_a)
                               .arg(r.seed_b)),
           qPrintable(causes));
  dialog->close();
}

void TstAmpReproGui::cancellingACheckShowsNoReport() {
  auto w = makeWindow(QStringLiteral("runs-cancel"));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  child<QSpinBox>(*w, "reproStepsSpinBox")->setValue(100000);
  auto* panel = child<ReproPanel>(*w, "reproPanel");
  QSignalSpy shown(panel, &ReproPanel::reportShown);
  QVERIFY(panel->verifyRepro());
  QVERIFY(!panel->verifyRepro());  // one check at a time
  QVERIFY(!child<QPushButton>(*w, "verifyReproButton")->isEnabled());
  QProgressDialog* progress = visibleProgress(*w);
  QVERIFY(progress);
  QTRY_VERIFY_WITH_TIMEOUT(progress->value() > 0, 30000);  // progress arrives while it runs
  auto* cancel = progress->findChild<QPushButton*>();
  QVERIFY(cancel);
  cancel->click();
  QTRY_VERIFY_WITH_TIMEOUT(!panel->job(), 30000);
  QVERIFY(child<QPushButton>(*w, "verifyReproButton")->isEnabled());
  QTest::qWait(100);
  QCOMPARE(shown.size(), 0);
}

void TstAmpReproGui::ampCompareReportShowsCoresFigures() {
  auto w = makeWindow(QStringLiteral("runs-ab"));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  child<QSpinBox>(*w, "reproStepsSpinBox")->setValue(40);
  auto* dialog = qobject_cast<AmpReportDialog*>(reportOf(*w, "ampCompareButton"));
  QVERIFY(dialog);
  const AmpCompareReport& r = dialog->report();
  QCOMPARE(r.steps, int64_t{40});
  QCOMPARE(r.seed, int64_t{42});
  double max_diff = 0, sum = 0;
  for (int i = 0; i < 40; ++i) {
    const double d = std::fabs(r.loss_fp32[i] - r.loss_amp[i]);
    max_diff = std::max(max_diff, d);
    sum += d;
  }
  QVERIFY(max_diff > 0);  // bf16 rounding
  QCOMPARE(r.max_loss_diff, max_diff);
  QCOMPARE(r.mean_loss_diff, sum / 40);
  QVERIFY(r.samples_per_second_fp32 > 0 && r.samples_per_second_amp > 0);
  // Both curves, point for point.
  auto* plot = dialog->findChild<QCustomPlot*>(QStringLiteral("ampComparePlot"));
  QVERIFY(plot);
  QCOMPARE(plot->graphCount(), 2);
  for (int k = 0; k < 2; ++k) {
    const std::vector<double>& ys = k == 0 ? r.loss_fp32 : r.loss_amp;
    QCOMPARE(plot->graph(k)->data()->size(), 40);
    for (int i = 0; i < 40; ++i) {
      QCOMPARE(plot->graph(k)->data()->at(i)->key, double(i + 1));
      QCOMPARE(plot->graph(k)->data()->at(i)->value, ys[i]);
    }
  }
  // Three interleaved rounds (CompareRequest's default): the speed-up is the median of the
  // rounds' own speed-ups, shown with their range, or only the range when they spread > 20%.
  QCOMPARE(r.rounds, 3);
  QCOMPARE(r.speedups.size(), std::size_t{3});
  std::vector<double> sorted = r.speedups;
  std::sort(sorted.begin(), sorted.end());
  QCOMPARE(r.speedup, sorted[1]);
  const bool busy = (sorted[2] - sorted[0]) / sorted[1] > 0.2;
  QCOMPARE(r.speedup_spread.busy, busy);
  const QString shown = dialog->findChild<QLabel*>(QStringLiteral("ampSpeedupLabel"))->text();
  const QLocale locale;
  if (busy) {
    QVERIFY2(shown.contains(locale.toString(sorted[0], 'f', 2) + QStringLiteral("×")) &&
                 shown.contains(locale.toString(sorted[2], 'f', 2) + QStringLiteral("×")) &&
                 shown.contains(QStringLiteral("busy")),
             qPrintable(shown));
  } else {
    QVERIFY2(shown.startsWith(locale.toString(sorted[1], 'f', 2) + QStringLiteral("×")) &&
                 shown.contains(QStringLiteral("median of 3 rounds")),
             qPrintable(shown));
  }
  const QString why = dialog->findChild<QLabel*>(QStringLiteral("ampExplanationLabel"))->text();
  QVERIFY(why.contains(QStringLiteral("bf16")));
  QVERIFY(why.contains(QStringLiteral("float32")));
  dialog->close();
}

void TstAmpReproGui::ampCompareOnABusyMachineShowsTheRangeNotOneFigure() {
  // The issue's three A/B figures minutes apart: 2.31x, 3.49x, 5.51x. Spread (5.51 - 2.31) /
  // 3.49 = 92% > 20%: the dialog gives the range and says the machine was busy.
  AmpCompareReport r;
  r.steps = r.timed_steps = 100;
  r.loss_fp32 = r.loss_amp = std::vector<double>(100, 0.5);
  r.samples_per_second_fp32 = 1000;
  r.samples_per_second_amp = 3490;
  r.speedups = {2.31, 5.51, 3.49};
  r.speedup_spread = rateSpread(r.speedups);
  r.speedup = r.speedup_spread.median;
  r.rounds = 3;
  r.device = "cpu";
  r.amp_kind = "bf16 autocast";
  QCOMPARE(r.speedup, 3.49);
  QVERIFY(std::fabs(r.speedup_spread.spread - (5.51 - 2.31) / 3.49) < 1e-12);
  QVERIFY(r.speedup_spread.busy);
  AmpReportDialog dialog(r, DeviceInfo{});
  const QLocale locale;
  const QString shown = dialog.findChild<QLabel*>(QStringLiteral("ampSpeedupLabel"))->text();
  QVERIFY2(shown.contains(locale.toString(2.31, 'f', 2) + QStringLiteral("×")), qPrintable(shown));
  QVERIFY2(shown.contains(locale.toString(5.51, 'f', 2) + QStringLiteral("×")), qPrintable(shown));
  QVERIFY2(shown.contains(QStringLiteral("busy")), qPrintable(shown));
  QVERIFY2(!shown.contains(locale.toString(3.49, 'f', 2)), qPrintable(shown));  // no single figure
  // Spread 10%: one figure, the median, with its range.
  r.speedups = {2.0, 2.1, 2.2};
  r.speedup_spread = rateSpread(r.speedups);
  r.speedup = r.speedup_spread.median;
  QVERIFY(!r.speedup_spread.busy);
  AmpReportDialog calm(r, DeviceInfo{});
  const QString one = calm.findChild<QLabel*>(QStringLiteral("ampSpeedupLabel"))->text();
  QVERIFY2(one.startsWith(locale.toString(2.1, 'f', 2) + QStringLiteral("×")), qPrintable(one));
  QVERIFY2(!one.contains(QStringLiteral("busy")), qPrintable(one));
}

void TstAmpReproGui::ampCompareTooSmallToTimeSaysSo() {
  // overfit-sine (the default preset) trains one step per epoch; 3 steps leave fewer than
  // AmpCompareReport::kMinTimedSteps timed: the report says so, and never "0 samples/s".
  auto w = makeWindow(QStringLiteral("runs-ab-small"));
  QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));
  child<QSpinBox>(*w, "reproStepsSpinBox")->setValue(3);
  auto* dialog = qobject_cast<AmpReportDialog*>(reportOf(*w, "ampCompareButton"));
  QVERIFY(dialog);
  QCOMPARE(dialog->report().timed_steps, int64_t{0});
  QString all;
  for (QLabel* label : dialog->findChildren<QLabel*>()) all += label->text() + QLatin1Char('\n');
  QVERIFY2(all.contains(QStringLiteral("too small to time")), qPrintable(all));
  QVERIFY2(!all.contains(QStringLiteral("0 samples/s")), qPrintable(all));
  QVERIFY2(!all.contains(QStringLiteral("0.00×")), qPrintable(all));
  dialog->close();
}

void TstAmpReproGui::memoryReadoutEqualsResidentMemory() {
  const QString config = dir_.filePath(QStringLiteral("accum.json"));
  QFile f(config);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(R"({"name": "accum", "data": {"source": "moons", "n_samples": 400, "seed": 1},
    "model": {"hidden": [16]}, "optimizer": {"name": "sgd", "lr": 0.05},
    "training": {"epochs": 2, "batch_size": 8, "grad_accum_steps": 4, "seed": 1,
                 "num_threads": 1}})");
  f.close();
  auto w = makeWindow(QStringLiteral("runs-memory"));
  QString error;
  QVERIFY2(w->openConfigFile(config, &error), qPrintable(error));
  auto* panel = child<DevicePanel>(*w, "devicePanel");
  auto* label = child<QLabel>(*w, "memoryLabel");
  QVERIFY(!panel->refreshing());
  QSignalSpy finished(w->controller()->store(), &RunStore::runFinished);
  QSignalSpy steps(w->controller()->store(), &RunStore::stepRecorded);
  w->controller()->setPace(50);
  QVERIFY(w->startRun());
  QVERIFY(steps.wait(30000));
  QVERIFY(panel->refreshing());  // about once a second while the run is active
  // The effective batch: 8 x 4 = 32 samples per optimizer step.
  QCOMPARE(child<QLabel>(*w, "effectiveBatchLabel")->text(),
           QStringLiteral("32 samples (8 × 4 accumulated micro-batches)"));
  QCOMPARE(steps.at(0).at(0).value<StepRecord>().batch_samples, int64_t{32});
  w->controller()->setPace(0);
  QVERIFY(!finished.isEmpty() || finished.wait(60000));
  QVERIFY(!panel->refreshing());

  panel->refreshMemory();
  const std::optional<int64_t> rss = residentMemoryBytes();
  QVERIFY(rss && *rss > 0);
  QString text = label->text();
  QVERIFY2(text.endsWith(QStringLiteral(" MB resident")), qPrintable(text));
  text.chop(QStringLiteral(" MB resident").size());
  bool ok = false;
  const double shown_mb = QLocale().toDouble(text, &ok);
  QVERIFY2(ok, qPrintable(text));
  const double core_mb = static_cast<double>(*rss) / 1e6;
  QVERIFY2(std::fabs(shown_mb - core_mb) <= 0.1 * core_mb,
           qPrintable(QStringLiteral("%1 MB shown, %2 MB from core").arg(shown_mb).arg(core_mb)));
  // Where `auto` trains on the CPU, the panel says why.
  const DeviceInfo info = probeDevices();
  if (info.cuda_unavailable_code == "built_without_cuda")
    QVERIFY(child<QLabel>(*w, "trainsOnLabel")
                ->text()
                .contains(QStringLiteral("this libtorch was built without CUDA")));
}

void TstAmpReproGui::lossScaleViewDrawsTheScaleOrSaysWhyNot() {
  // Fed by hand as a CUDA run would: scale per step, one skipped step (the scale then halves).
  RunHistory history;
  const double scales[] = {65536, 65536, 32768, 32768, 32768};
  for (int i = 0; i < 5; ++i) history.append(series::kStepLossScale, i + 1, scales[i]);
  history.append(series::kStepScalerSkipped, 2, 65536);
  LossScalePlot plot;
  plot.resize(600, 300);
  plot.setHistory(&history);
  QVERIFY(!plot.overlayText().isEmpty());  // before sync: nothing drawn yet
  plot.sync();
  QCOMPARE(plot.pointCount(series::kStepLossScale), 5);
  QCOMPARE(plot.pointCount(series::kStepScalerSkipped), 1);
  QCOMPARE(plot.graphFor(series::kStepScalerSkipped)->data()->at(0)->key, 2.0);
  QCOMPARE(plot.graphFor(series::kStepScalerSkipped)->data()->at(0)->value, 65536.0);
  QVERIFY(plot.overlayText().isEmpty());

  // In the window after a CPU run with AMP: no scaler, and the view says why.
  auto w = makeWindow(QStringLiteral("runs-scale"));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  child<QSpinBox>(*w, "epochsSpinBox")->setValue(1);
  child<QCheckBox>(*w, "ampCheckBox")->click();
  const std::vector<double> l = runLosses(*w);
  QCOMPARE(l.size(), std::size_t{25});
  auto* view = child<LossScalePlot>(*w, "lossScalePlot");
  QCOMPARE(view->pointCount(series::kStepLossScale), 0);
  QVERIFY2(view->overlayText().startsWith(QStringLiteral("No loss scaling on the CPU")),
           qPrintable(view->overlayText()));
}

void TstAmpReproGui::docsScreenshots() {
  const QString out = qEnvironmentVariable("TRAINSCOPE_DOCS_DIR");
  if (out.isEmpty()) QSKIP("TRAINSCOPE_DOCS_DIR is not set");
  const QString lang = qEnvironmentVariable("TRAINSCOPE_DOCS_LANG", QStringLiteral("en"));
  switchLanguage(lang);
  const QString suffix = lang == QLatin1String("en") ? QString() : QLatin1Char('-') + lang;
  auto w = makeWindow(QStringLiteral("runs-docs"));
  w->resize(1024, 768);
  QVERIFY(QTest::qWaitForWindowExposed(w.get()));
  QVERIFY(w->loadPreset(QStringLiteral("fashion-mnist-mlp")));
  // The window with a dialog over its middle, as a user sees it.
  auto save = [&](QDialog* dialog, const QString& name) {
    QImage image = w->grabWindowImage();
    if (dialog) {
      QCoreApplication::processEvents();
      const QImage d = dialog->grab().toImage();
      QPainter painter(&image);
      const int bar = 26;  // a plain title bar: offscreen windows have no decorations
      const QRect frame((image.width() - d.width()) / 2, (image.height() - d.height() - bar) / 2,
                        d.width(), d.height() + bar);
      painter.fillRect(frame.translated(4, 4), QColor(0, 0, 0, 60));  // shadow
      painter.fillRect(QRect(frame.topLeft(), QSize(frame.width(), bar)), QColor(64, 72, 84));
      painter.setPen(Qt::white);
      painter.drawText(QRect(frame.topLeft(), QSize(frame.width(), bar)), Qt::AlignCenter,
                       dialog->windowTitle());
      painter.drawImage(frame.topLeft() + QPoint(0, bar), d);
    }
    QVERIFY(image.save(QDir(out).filePath(name + suffix + QStringLiteral(".png"))));
  };
  const int steps = qEnvironmentVariableIntValue("TRAINSCOPE_DOCS_AB_STEPS");
  child<QSpinBox>(*w, "reproStepsSpinBox")->setValue(steps > 0 ? steps : 300);
  auto* ab = qobject_cast<AmpReportDialog*>(reportOf(*w, "ampCompareButton"));
  QVERIFY(ab);
  const AmpCompareReport& r = ab->report();
  qInfo(
      "fashion-mnist-mlp A/B, %lld steps, %d thread(s): float32 %.0f samples/s, AMP %.0f "
      "samples/s, speed-up %.3f, max |dloss| %.4g, mean |dloss| %.4g",
      static_cast<long long>(r.steps), r.threads, r.samples_per_second_fp32,
      r.samples_per_second_amp, r.speedup, r.max_loss_diff, r.mean_loss_diff);
  ab->resize(600, 680);
  save(ab, QStringLiteral("amp-ab-report"));
  ab->close();
  child<QSpinBox>(*w, "reproStepsSpinBox")->setValue(100);
  auto* repro = qobject_cast<ReproReportDialog*>(reportOf(*w, "verifyReproButton"));
  QVERIFY(repro);
  qInfo("fashion-mnist-mlp verify-repro, 100 steps: %s", qPrintable(repro->verdictText()));
  save(repro, QStringLiteral("verify-repro"));
  repro->close();
  child<QCheckBox>(*w, "seedCheckBox")->click();  // off: each run draws its seed
  auto* unseeded = qobject_cast<ReproReportDialog*>(reportOf(*w, "verifyReproButton"));
  QVERIFY(unseeded);
  save(unseeded, QStringLiteral("verify-repro-unseeded"));
  unseeded->close();
  child<QCheckBox>(*w, "seedCheckBox")->click();

  // A run with AMP switched on after epoch 1 (marked on the plots).
  child<QSpinBox>(*w, "epochsSpinBox")->setValue(3);
  QSignalSpy finished(w->controller()->store(), &RunStore::runFinished);
  QSignalSpy epochs(w->controller()->store(), &RunStore::epochFinished);
  QVERIFY(w->startRun());
  w->controller()->pauseAfterEpoch(1);
  QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Paused, 120000);
  child<QCheckBox>(*w, "ampCheckBox")->click();
  QVERIFY(w->startRun());
  QVERIFY(finished.wait(180000));
  QTest::qWait(200);
  save(nullptr, QStringLiteral("amp-live-toggle"));
  w->findChild<PlotArea*>()->showView(child<LossScalePlot>(*w, "lossScalePlot"));
  save(nullptr, QStringLiteral("loss-scale-cpu"));
  auto* device = child<DevicePanel>(*w, "devicePanel");
  QVERIFY(device->grab().save(
      QDir(out).filePath(QStringLiteral("device-panel") + suffix + QStringLiteral(".png"))));
  switchLanguage(QStringLiteral("en"));
}

TRAINSCOPE_GUI_TEST_MAIN(TstAmpReproGui)
}  // namespace tst_amp_repro_gui_suite
#include "tst_amp_repro_gui.moc"

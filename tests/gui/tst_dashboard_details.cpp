// Dashboard details a new user runs into ("Smaller defects"): skipping bad steps
// from the non-finite panel, settings for the non-finite policy and early stopping, a ghost
// only for a run on the same data (tst_plot_details: the plots themselves), screenshots of the
// finished state, a failed start, the status bar's live learning rate, time labels, number notation
// after a language round trip, the source of a checkpoint's settings, preset descriptions. Expected
// values come from the records the engine sent, from core, or from the arithmetic in the comments,
// never from the widget under test.
#include <QCheckBox>
#include <QComboBox>
#include <QDirIterator>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/run/run_reader.h"
#include "gui/app/automation.h"
#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/non_finite_panel.h"
#include "gui/panels/run_controls_panel.h"
#include "gui/panels/run_status.h"
#include "gui/plots/training_plots.h"
#include "gui/preset_text.h"
#include "gui/widgets/scientific_spin_box.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_dashboard_details_suite {

using namespace trainscope;

namespace {

/// The texts of the status bar's labels, joined.
QString statusTexts(MainWindow& w) {
  QStringList out;
  for (QLabel* l : w.statusBar()->findChildren<QLabel*>()) out << l->text();
  return out.join(QLatin1Char('|'));
}

}  // namespace

class TstDashboardDetails : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void skipBadStepsKeepsGoingWithoutPausing();
  void stoppingSettingsReachTheConfig();
  void ghostOnlyForARunOnTheSameData();
  void screenshotShowsTheFinishedRun();
  void failedStartLeavesNoLiveButtons();
  void statusBarLrFollowsALiveChange();
  void timesSayWhatTheyMeasure();
  void numbersKeepTheirNotationAfterALanguageRoundTrip();
  void checkpointSettingsSaySoInSource();
  void presetDescriptionsAreShownAndTranslated();

 private:
  std::unique_ptr<MainWindow> makeWindow(const QString& runs);
  QTemporaryDir dir_;
};

void TstDashboardDetails::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QSettings().clear();
  QVERIFY(dir_.isValid());
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
}

std::unique_ptr<MainWindow> TstDashboardDetails::makeWindow(const QString& runs) {
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setFullSpeed();
  w->setRunsRoot(dir_.filePath(runs));
  w->resize(1024, 768);
  w->show();
  return w;
}

void TstDashboardDetails::skipBadStepsKeepsGoingWithoutPausing() {
  auto w = makeWindow(QStringLiteral("skip"));
  QVERIFY(w->loadPreset(QStringLiteral("exploding")));
  RunSession* c = w->controller();
  std::vector<Event> events;
  connect(c->store(), &RunStore::eventOccurred, this,
          [&events](const Event& e) { events.push_back(e); });
  std::optional<RunSummary> summary;
  connect(c->store(), &RunStore::runFinished, this,
          [&summary](const RunSummary& s) { summary = s; });
  auto* panel = w->findChild<NonFinitePanel*>(QStringLiteral("nonFinitePanel"));
  QVERIFY(w->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible(), 60000);
  auto* skip = panel->findChild<QPushButton*>(QStringLiteral("nonFiniteSkipButton"));
  QVERIFY(skip && skip->isVisible() && skip->isEnabled());
  const std::size_t before = events.size();
  skip->click();
  QTRY_VERIFY_WITH_TIMEOUT(summary.has_value(), 120000);
  // The run went to its planned end: 100 epochs (the preset's), never paused again although
  // later steps were non-finite too (without clipping the weights stay where they overflow).
  QCOMPARE(summary->epochs_completed, int64_t(100));
  int paused = 0, non_finite = 0, policy = 0;
  for (std::size_t i = before; i < events.size(); ++i) {
    paused += events[i].kind == EventKind::Paused;
    non_finite += events[i].kind == EventKind::NonFinite;
    policy += events[i].kind == EventKind::ConfigChanged && events[i].what == "training.non_finite";
  }
  QCOMPARE(paused, 0);
  QVERIFY(non_finite > 1);
  QCOMPARE(policy, 1);
  // The settings show the policy now in force, and the next run keeps it.
  auto* combo = w->findChild<QComboBox*>(QStringLiteral("nonFiniteComboBox"));
  QVERIFY(combo);
  QCOMPARE(combo->currentData().toString(), QStringLiteral("skip"));
  QCOMPARE(w->currentConfig().training.non_finite.value_or(""), std::string("skip"));
}

void TstDashboardDetails::stoppingSettingsReachTheConfig() {
  auto w = makeWindow(QStringLiteral("stopping"));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  auto* policy = w->findChild<QComboBox*>(QStringLiteral("nonFiniteComboBox"));
  auto* early = w->findChild<QCheckBox*>(QStringLiteral("earlyStoppingCheckBox"));
  auto* patience = w->findChild<QSpinBox*>(QStringLiteral("patienceSpinBox"));
  auto* delta = w->findChild<ScientificSpinBox*>(QStringLiteral("minDeltaSpinBox"));
  QVERIFY(policy && early && patience && delta);
  // The preset leaves both unset: the dashboard's default policy (pause) and early stopping
  // off with the key table's defaults (patience 10, min_delta 0).
  QCOMPARE(policy->currentData().toString(), QStringLiteral("pause"));
  QVERIFY(!w->currentConfig().training.non_finite.has_value());  // unset stays unset
  QVERIFY(!early->isChecked());
  QCOMPARE(patience->value(), 10);
  policy->setCurrentIndex(policy->findData(QStringLiteral("stop")));
  early->setChecked(true);
  patience->setValue(3);
  delta->setValue(0.01);
  const TrainConfig c = w->currentConfig();
  QCOMPARE(c.training.non_finite.value_or(""), std::string("stop"));
  QVERIFY(c.training.early_stopping.enabled);
  QCOMPARE(c.training.early_stopping.patience, int64_t(3));
  QCOMPARE(c.training.early_stopping.min_delta, 0.01);
  // A config file's values are shown: saved and opened again, they are the same.
  const QString file = dir_.filePath(QStringLiteral("stopping.json"));
  QString error;
  QVERIFY2(w->saveConfigFile(file, &error), qPrintable(error));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  QVERIFY(!early->isChecked());
  QVERIFY2(w->openConfigFile(file, &error), qPrintable(error));
  QCOMPARE(policy->currentData().toString(), QStringLiteral("stop"));
  QVERIFY(early->isChecked());
  QCOMPARE(patience->value(), 3);
  QCOMPARE(delta->value(), 0.01);
  // A run uses them: moons with patience 1 and a min_delta no epoch can beat stops early.
  patience->setValue(1);
  delta->setValue(100);
  std::optional<RunSummary> summary;
  connect(w->controller()->store(), &RunStore::runFinished, this,
          [&summary](const RunSummary& r) { summary = r; });
  QVERIFY(w->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(summary.has_value(), 60000);
  const RunSummary s = *summary;
  QVERIFY2(s.stop_reason == StopReason::EarlyStop, toString(s.stop_reason).c_str());
  QCOMPARE(s.epochs_completed, int64_t(2));  // epoch 1 sets the best, epoch 2 is 1 without
}

void TstDashboardDetails::ghostOnlyForARunOnTheSameData() {
  auto w = makeWindow(QStringLiteral("ghost"));
  RunSession* c = w->controller();
  auto run = [&](const char* preset, double lr) {
    QVERIFY(w->loadPreset(QLatin1String(preset)));
    w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(1);
    w->findChild<ScientificSpinBox*>(QStringLiteral("learningRateSpinBox"))->setValue(lr);
    QSignalSpy finished(c->store(), &RunStore::runFinished);
    QVERIFY(w->startRun());
    QVERIFY(finished.wait(60000));
  };
  run("moons", 0.01);
  run("circles", 0.01);  // other data: no ghost of the moons run
  QVERIFY(!c->store()->hasGhost());
  run("circles", 0.005);  // the same data, another learning rate: the ghost of the first
  QVERIFY(c->store()->hasGhost());
  QCOMPARE(c->store()->ghostName(), QStringLiteral("circles"));
  const QString label = w->findChild<LossPlot*>(QStringLiteral("lossPlot"))->ghostDescription();
  QVERIFY2(label.contains(QStringLiteral("circles")) && label.contains(QStringLiteral("lr")),
           qPrintable(label));
}

void TstDashboardDetails::screenshotShowsTheFinishedRun() {
  for (const int epochs : {3, 5}) {  // stopped at epoch 3 of 5, and at the planned last epoch
    auto w = makeWindow(QStringLiteral("shot"));
    QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));  // one batch per epoch
    w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(5);
    AppOptions options;
    options.quit_after_epochs = epochs;
    options.screenshot = dir_.filePath(QStringLiteral("shot-%1.png").arg(epochs));
    Automation automation(w.get(), options);
    std::optional<RunSession::State> state;
    bool pause_enabled = true, stop_enabled = true;
    QString message, caption;
    connect(&automation, &Automation::screenshotTaken, this, [&](RunSession::State s) {
      state = s;
      pause_enabled = w->findChild<QPushButton*>(QStringLiteral("pauseButton"))->isEnabled();
      stop_enabled = w->findChild<QPushButton*>(QStringLiteral("stopButton"))->isEnabled();
      message = w->statusBar()->currentMessage();
      caption = w->findChild<QLabel*>(QStringLiteral("modelViewCaption"))->text();
    });
    automation.begin();
    QTRY_VERIFY_WITH_TIMEOUT(state.has_value(), 60000);
    QVERIFY(QFileInfo::exists(options.screenshot));
    QCOMPARE(*state, RunSession::State::Finished);
    QVERIFY(!pause_enabled);
    QVERIFY(!stop_enabled);
    QVERIFY2(message.isEmpty(), qPrintable(message));  // not "Training..."
    QVERIFY2(caption.contains(QStringLiteral("epoch %1").arg(epochs)), qPrintable(caption));
  }
}

void TstDashboardDetails::failedStartLeavesNoLiveButtons() {
  auto w = makeWindow(QStringLiteral("cuda"));
  const QString file = dir_.filePath(QStringLiteral("cuda.json"));
  {
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"training": {"device": "cuda", "epochs": 2}})");
  }
  QString error;
  QVERIFY2(w->openConfigFile(file, &error), qPrintable(error));
  bool failed = false, finished = false;
  // What the window shows when it reports the failure (a --screenshot is taken then, and a
  // user reads the message): after the window's own handlers, connected first.
  QStringList live_buttons;
  bool start_enabled = false;
  connect(w->controller()->store(), &RunStore::runFailed, this, [&] {
    failed = true;
    for (const char* name : {"pauseButton", "stopButton", "stepEpochButton"})
      if (w->findChild<QPushButton*>(QLatin1String(name))->isEnabled()) live_buttons << name;
    start_enabled = w->findChild<QPushButton*>(QStringLiteral("startButton"))->isEnabled();
  });
  connect(w->controller()->store(), &RunStore::runFinished, this, [&] { finished = true; });
  w->startRun();
  // This machine has no CUDA device: the run cannot start.
  QTRY_VERIFY_WITH_TIMEOUT(failed && !w->controller()->isActive(), 60000);
  QVERIFY(!finished);
  QVERIFY2(live_buttons.isEmpty(), qPrintable(live_buttons.join(QLatin1Char(' '))));
  QVERIFY(start_enabled);
  QCOMPARE(w->controller()->state(), RunSession::State::Idle);
}

void TstDashboardDetails::statusBarLrFollowsALiveChange() {
  auto w = makeWindow(QStringLiteral("lr"));
  QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));  // lr 3e-3, one batch per epoch
  RunSession* c = w->controller();
  QSignalSpy epochs(c->store(), &RunStore::epochFinished);
  w->findChild<QPushButton*>(QStringLiteral("stepButton"))->click();  // paused after step 1
  QTRY_VERIFY_WITH_TIMEOUT(epochs.count() == 1 && c->state() == RunSession::State::Paused,
                           60000);
  w->grabWindowImage();
  QVERIFY2(statusTexts(*w).contains(QStringLiteral("lr 0.003")), qPrintable(statusTexts(*w)));
  QVERIFY(c->setLearningRate(5e-4));
  // Shown as soon as the engine applied it (its config_changed event), still paused.
  QTRY_VERIFY_WITH_TIMEOUT(statusTexts(*w).contains(QStringLiteral("lr 5e-4")), 10000);
  QCOMPARE(c->state(), RunSession::State::Paused);
  c->stop();
  QTRY_VERIFY(!c->isActive());
}

void TstDashboardDetails::timesSayWhatTheyMeasure() {
  auto w = makeWindow(QStringLiteral("times"));
  QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));
  w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(5);
  std::optional<RunSummary> summary;
  connect(w->controller()->store(), &RunStore::runFinished, this,
          [&summary](const RunSummary& r) { summary = r; });
  QVERIFY(w->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(summary.has_value(), 60000);
  const RunSummary s = *summary;
  const QString time = w->findChild<QLabel*>(QStringLiteral("timeLabel"))->text();
  // The progress row: the training time (the last step's elapsed seconds), pauses excluded.
  QVERIFY2(time.contains(QStringLiteral("Training time")) &&
               time.contains(QStringLiteral("pauses excluded")) &&
               time.contains(
                   RunProgressPanel::formatDuration(w->controller()->store()->lastStep()->elapsed_seconds)),
           qPrintable(time));
  // The summary line: the wall-clock seconds, pauses included.
  auto* events = w->findChild<QListWidget*>(QStringLiteral("eventsPanel"));
  const QString line = events->item(events->count() - 1)->text();
  QVERIFY2(
      line.contains(QString::number(s.wall_seconds, 'f', 1) + QStringLiteral(" s (wall clock")),
      qPrintable(line));
}

void TstDashboardDetails::numbersKeepTheirNotationAfterALanguageRoundTrip() {
  switchLanguage(QStringLiteral("zh_CN"));
  switchLanguage(QStringLiteral("en"));
  RunStatusBar bar;
  EpochRecord e;
  e.epoch = 1;
  e.val_loss = 3.621e23;
  e.lr = 0.1;
  bar.showEpoch(e, 10);
  QStringList texts;
  for (QLabel* l : bar.findChildren<QLabel*>()) texts << l->text();
  const QString all = texts.join(QLatin1Char('|'));
  // QString::number(3.621e23, 'g', 4): C notation, as before the round trip.
  QVERIFY2(all.contains(QStringLiteral("3.621e+23")), qPrintable(all));
  static const QRegularExpression upper_exponent(QStringLiteral("\\dE[+-]?\\d"));
  QVERIFY2(!all.contains(upper_exponent), qPrintable(all));
  RunControlsPanel controls;
  controls.setPace(890, false);  // the slider's notch nearest 890 steps/s
  QStringList control_texts;
  for (QLabel* l : controls.findChildren<QLabel*>()) control_texts << l->text();
  QVERIFY2(!control_texts.join(QLatin1Char('|')).contains(upper_exponent),
           qPrintable(control_texts.join(QLatin1Char('|'))));
  QLocale::setDefault(QLocale::c());
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
}

void TstDashboardDetails::checkpointSettingsSaySoInSource() {
  auto w = makeWindow(QStringLiteral("source"));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(1);
  QSignalSpy finished(w->controller()->store(), &RunStore::runFinished);
  QVERIFY(w->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
  auto* source = w->findChild<QLabel*>(QStringLiteral("sourceLabel"));
  QVERIFY(source);
  QCOMPARE(source->text(), QStringLiteral("built-in preset \"moons\""));
  // The status bar names the device and its threads, as run.json records them (the device
  // lesson points at it).
  auto* device = w->findChild<QLabel*>(QStringLiteral("deviceLabel"));
  QVERIFY(device && device->isVisible());
  const RunInfo info = readRun(w->controller()->store()->runDirectory().toStdString()).info;
  QCOMPARE(info.device, std::string("cpu"));
  QCOMPARE(device->text(), info.num_threads == 1 ? QStringLiteral("CPU, 1 thread")
                                                 : QStringLiteral("CPU, %1 threads").arg(info.num_threads));
  const QString last = QDir(w->controller()->store()->runDirectory()).filePath("checkpoints/last.pt");
  QString error;
  QVERIFY2(w->loadCheckpoint(last, &error), qPrintable(error));
  QCOMPARE(source->text(), QStringLiteral("checkpoint last.pt"));
  w->controller()->stop();
  QTRY_VERIFY(!w->controller()->isActive());
}

void TstDashboardDetails::presetDescriptionsAreShownAndTranslated() {
  auto w = makeWindow(QStringLiteral("presets"));
  auto* label = w->findChild<QLabel*>(QStringLiteral("presetDescriptionLabel"));
  auto* combo = w->findChild<QComboBox*>(QStringLiteral("presetComboBox"));
  QVERIFY(label && combo);
  for (const PresetInfo& p : presets()) {
    const QString english = QString::fromStdString(p.description);  // the CLI's `presets` text
    QCOMPARE(PresetText::description(p), english);
    QVERIFY(w->loadPreset(QString::fromStdString(p.name)));
    QCOMPARE(label->text(), english);
    QVERIFY(label->isVisible());
    QVERIFY(combo->toolTip().contains(english));
    QCOMPARE(combo->itemData(combo->currentIndex(), Qt::ToolTipRole).toString(), english);
  }
  switchLanguage(QStringLiteral("zh_CN"));
  for (const PresetInfo& p : presets()) {
    const QString zh = PresetText::description(p);
    QVERIFY2(zh != QString::fromStdString(p.description), p.name.c_str());  // translated
    QVERIFY(w->loadPreset(QString::fromStdString(p.name)));
    QCOMPARE(label->text(), zh);
  }
  switchLanguage(QStringLiteral("en"));
  QLocale::setDefault(QLocale::c());
}

TRAINSCOPE_GUI_TEST_MAIN(TstDashboardDetails)
}  // namespace tst_dashboard_details_suite
#include "tst_dashboard_details.moc"

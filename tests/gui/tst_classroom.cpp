// The dashboard in front of a class: speed control, legends off the data, one epoch number
// everywhere, refused values, a modified preset, and switching the language at runtime.
#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/config/train_config.h"
#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/teaching/lesson_panel.h"
#include "gui/panels/events_panel.h"
#include "gui/plots/training_plots.h"
#include "gui/widgets/scientific_spin_box.h"
#include "gui/panels/run_controls_panel.h"
#include "gui/widgets/column_scroll_area.h"
#include "run_files.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_classroom_suite {

using namespace trainscope;

class TstClassroom : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void speedSliderPacesAndIsRemembered();
  void paceIsTheClassroomsOnlyForItsPresetsAndLessons();
  void wheelScrollsTheSettingsWithoutChangingThem();
  void legendNeverCoversTheLastFifthOfTheRun();
  void stepFromIdleAgreesOnTheEpoch();
  void zeroLearningRateIsRefused();
  void editedPresetIsMarkedModified();
  void languageSwitchesAtRuntimeBothWays();
  void commandLineLanguageBeatsRememberedOne();

 private:
  std::unique_ptr<MainWindow> makeWindow();
  QTemporaryDir dir_;
};

void TstClassroom::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QSettings().clear();
  QVERIFY(dir_.isValid());
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
}

std::unique_ptr<MainWindow> TstClassroom::makeWindow() {
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setFullSpeed();
  w->setRunsRoot(dir_.filePath(QStringLiteral("runs")));
  w->resize(1024, 768);
  w->show();
  return w;
}

void TstClassroom::speedSliderPacesAndIsRemembered() {
  auto w = makeWindow();
  auto* slider = w->findChild<QSlider*>(QStringLiteral("speedSlider"));
  QVERIFY(slider);
  QCOMPARE(w->controller()->pace(), 0.0);  // full speed (the last notch)
  QCOMPARE(slider->value(), slider->maximum());
  slider->setValue(20);  // 10^(20/20) = 10 steps per second
  QCOMPARE(w->controller()->pace(), 10.0);
  QCOMPARE(QSettings().value(QStringLiteral("pace")).toDouble(), 10.0);
  // A new window starts at the remembered pace.
  auto w2 = std::make_unique<MainWindow>();
  QCOMPARE(w2->controller()->pace(), 10.0);
  QSettings().remove(QStringLiteral("pace"));
}

void TstClassroom::paceIsTheClassroomsOnlyForItsPresetsAndLessons() {
  // Issue 43: a run from the user's own config crawled at the classroom pace (32 steps/s). The
  // presets README names (overfit-sine, moons) and lessons built on them get it; any other
  // preset, lesson or config file runs at full speed; none of it is remembered. (Without
  // setFullSpeed(), which automation and the other tests use to keep full speed throughout.)
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setRunsRoot(dir_.filePath(QStringLiteral("runs")));
  QSettings().setValue(QStringLiteral("pace"), 5.0);
  const double classroom = RunControlsPanel::suggestedPace(QStringLiteral("moons"));
  QCOMPARE(classroom, 32.0);
  // The slider's notch nearest 32 steps/s (10^(30/20) = 31.6): "about 32".
  const auto classroomPace = [&] { return std::abs(w->controller()->pace() - classroom) < 1; };
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  QVERIFY(classroomPace());
  QVERIFY(w->loadPreset(QStringLiteral("fashion-mnist-mlp")));
  QCOMPARE(w->controller()->pace(), 0.0);
  QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));
  QVERIFY(classroomPace());
  const QString file = dir_.filePath(QStringLiteral("mine.json"));
  QFile f(file);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(R"({"preset": "moons", "optimizer": {"lr": 0.01}})");
  f.close();
  QString error;
  QVERIFY2(w->openConfigFile(file, &error), qPrintable(error));
  QCOMPARE(w->controller()->pace(), 0.0);  // one's own config, even on a classroom preset
  // A lesson's first step may start a run: stopped before the next lesson opens.
  QVERIFY2(w->openLesson(QStringLiteral("amp"), &error), qPrintable(error));  // fashion-mnist
  QCOMPARE(w->controller()->pace(), 0.0);
  w->stopRun();
  QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->isActive(), 60000);
  QVERIFY2(w->openLesson(QStringLiteral("overfitting"), &error), qPrintable(error));
  QVERIFY(classroomPace());
  // Its 400-sample step (10x the steps): the pace rises so that the run takes about 25 s
  // (3 minutes at 32 steps/s), from the plan run.json records.
  for (int k = 0; k < 4; ++k) w->lessonPanel()->next();
  QTRY_VERIFY_WITH_TIMEOUT(w->controller()->isActive() && !w->controller()->store()->runDirectory().isEmpty(), 30000);
  QTRY_VERIFY_WITH_TIMEOUT(w->controller()->pace() > classroom, 10000);
  {
    const TrainConfig& c = w->controller()->store()->config();
    QCOMPARE(c.data.n_samples, int64_t{400});
    const double n_train = double(c.data.n_samples) - std::round(c.data.n_samples * c.data.val_fraction);
    const double planned = c.training.epochs * std::ceil(n_train / double(c.training.batch_size));
    QVERIFY2(planned / w->controller()->pace() <= 32,
             qPrintable(QStringLiteral("%1 steps at %2 steps/s").arg(planned).arg(w->controller()->pace())));
  }
  w->stopRun();
  QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->isActive(), 60000);
  QCOMPARE(QSettings().value(QStringLiteral("pace")).toDouble(), 5.0);  // the user's own
  // After setFullSpeed() (--screenshot, --quit-after-epochs) a classroom preset stays fast.
  w->setFullSpeed();
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  QCOMPARE(w->controller()->pace(), 0.0);
  QSettings().remove(QStringLiteral("pace"));
}

void TstClassroom::wheelScrollsTheSettingsWithoutChangingThem() {
  // Issue 43: scrolling the settings column with the wheel changed "When NaN/Inf" from pause
  // to skip as the pointer passed over it. Unfocused, the combo box hands the wheel to the
  // column (which scrolls); focused, the wheel sets it, as Qt does.
  auto w = makeWindow();
  w->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(w.get()));
  auto* combo = w->findChild<QComboBox*>(QStringLiteral("nonFiniteComboBox"));
  QVERIFY(combo);
  auto* area = qobject_cast<QScrollArea*>(w->findChild<ColumnScrollArea*>());
  QVERIFY(area);
  area->ensureWidgetVisible(combo);
  QCoreApplication::processEvents();
  const int before = combo->currentIndex();
  QVERIFY(before >= 0 && before + 1 < combo->count());
  w->findChild<QPushButton*>(QStringLiteral("startButton"))->setFocus();
  QVERIFY(!combo->hasFocus());
  auto wheel = [&](int delta) {
    const QPointF at(combo->width() / 2.0, combo->height() / 2.0);
    QWheelEvent e(at, combo->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(combo, &e);
  };
  const int scroll_before = area->verticalScrollBar()->value();
  wheel(-120);  // down: would pick the next entry
  QCOMPARE(combo->currentIndex(), before);
  QVERIFY(!combo->hasFocus());
  if (area->verticalScrollBar()->maximum() > scroll_before)
    QVERIFY(area->verticalScrollBar()->value() > scroll_before);  // the column scrolled
  combo->setFocus();
  QVERIFY(combo->hasFocus());
  wheel(-120);
  QCOMPARE(combo->currentIndex(), before + 1);
}

void TstClassroom::legendNeverCoversTheLastFifthOfTheRun() {
  auto w = makeWindow();
  QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));
  QSignalSpy finished(w->controller()->store(), &RunStore::runFinished);
  QVERIFY(w->startRun());
  QVERIFY(finished.wait(120000));
  w->grabWindowImage();
  auto* loss = w->findChild<LossPlot*>(QStringLiteral("lossPlot"));
  QVERIFY(loss && loss->legendShown());
  const QRect legend = loss->legend->outerRect();
  QVERIFY(!legend.isEmpty());
  const double last = loss->xAxis->range().upper;
  int checked = 0;
  for (const char* name : {series::kStepLoss, series::kEpochTrainLoss, series::kEpochValLoss}) {
    QCPGraph* g = loss->graphFor(name);
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
      if (it->key < 0.8 * last) continue;
      const QPointF p = g->coordsToPixels(it->key, it->value);
      QVERIFY2(!legend.contains(p.toPoint()),
               qPrintable(QStringLiteral("%1 at step %2 under the legend").arg(name).arg(it->key)));
      ++checked;
    }
  }
  QVERIFY(checked > 100);
}

void TstClassroom::stepFromIdleAgreesOnTheEpoch() {
  // overfit-sine trains one batch per epoch: step 1 ends epoch 1.
  auto w = makeWindow();
  QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));
  QSignalSpy events(w->controller()->store(), &RunStore::eventOccurred);
  QTest::mouseClick(w->findChild<QPushButton*>(QStringLiteral("stepButton")), Qt::LeftButton);
  QTRY_VERIFY_WITH_TIMEOUT(std::any_of(events.begin(), events.end(),
                                       [](const QList<QVariant>& a) {
                                         return a.at(0).value<Event>().kind == EventKind::Paused;
                                       }),
                           20000);
  w->grabWindowImage();  // flush
  auto* panel = w->findChild<EventsPanel*>();
  QString paused_line;
  for (int i = 0; i < panel->lineCount(); ++i)
    if (panel->lineText(i).contains(QStringLiteral("Paused"))) paused_line = panel->lineText(i);
  QVERIFY2(paused_line.contains(QStringLiteral("after step 1 (epoch 1)")), qPrintable(paused_line));
  bool status_says_epoch_1 = false;
  for (QLabel* l : w->statusBar()->findChildren<QLabel*>())
    if (l->text() == QStringLiteral("Epoch 1/800")) status_says_epoch_1 = true;
  QVERIFY(status_says_epoch_1);
  auto steps = testfiles::readCsv(w->runDirectory() + QStringLiteral("/steps.csv"));
  QVERIFY(steps);
  QCOMPARE(steps->rows.size(), 1);
  QCOMPARE(steps->cell(0, QStringLiteral("epoch")), QStringLiteral("1"));
  w->stopRun();
  QTRY_VERIFY(!w->controller()->isActive());
}

void TstClassroom::zeroLearningRateIsRefused() {
  auto w = makeWindow();
  auto* lr = w->findChild<ScientificSpinBox*>(QStringLiteral("learningRateSpinBox"));
  QVERIFY(lr);
  const double before = lr->value();
  QSignalSpy rejected(lr, &ScientificSpinBox::valueRejected);
  lr->setFocus();
  lr->selectAll();
  QTest::keyClicks(lr, QStringLiteral("0"));
  QTest::keyClick(lr, Qt::Key_Return);
  QTRY_COMPARE(rejected.count(), 1);
  QCOMPARE(lr->value(), before);  // not silently clamped to 1e-10
  QCOMPARE(w->currentConfig().optimizer.lr, before);
}

void TstClassroom::editedPresetIsMarkedModified() {
  auto w = makeWindow();
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  auto* combo = w->findChild<QComboBox*>(QStringLiteral("presetComboBox"));
  auto* epochs = w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"));
  QCOMPARE(combo->currentText(), QStringLiteral("moons"));
  const int original = epochs->value();
  epochs->setValue(original + 5);
  QCOMPARE(combo->currentText(), QStringLiteral("moons (modified)"));
  epochs->setValue(original);
  QCOMPARE(combo->currentText(), QStringLiteral("moons"));
}

void TstClassroom::languageSwitchesAtRuntimeBothWays() {
  auto w = makeWindow();
  auto* start = w->findChild<QPushButton*>(QStringLiteral("startButton"));
  auto* loss = w->findChild<LossPlot*>(QStringLiteral("lossPlot"));
  auto* chinese = w->findChild<QAction*>(QStringLiteral("actionLanguageChinese"));
  auto* english = w->findChild<QAction*>(QStringLiteral("actionLanguageEnglish"));
  QVERIFY(start && loss && chinese && english);
  auto fileMenu = [&w] { return w->menuBar()->actions().first()->text(); };
  QCOMPARE(start->text(), QStringLiteral("&Start"));
  QCOMPARE(loss->yAxis->label(), QStringLiteral("Loss"));
  QCOMPARE(fileMenu(), QStringLiteral("&File"));

  chinese->trigger();
  QTRY_COMPARE(start->text(), QStringLiteral("开始(&S)"));
  QCOMPARE(loss->yAxis->label(), QStringLiteral("损失"));
  QCOMPARE(loss->xAxis->label(), QStringLiteral("步数"));
  QCOMPARE(loss->graphFor(series::kEpochValLoss)->name(), QStringLiteral("验证损失（每轮）"));
  QCOMPARE(fileMenu(), QStringLiteral("文件(&F)"));
  QVERIFY(chinese->isChecked());
  QCOMPARE(QSettings().value(QStringLiteral("language")).toString(), QStringLiteral("zh_CN"));

  english->trigger();
  QTRY_COMPARE(start->text(), QStringLiteral("&Start"));
  QCOMPARE(loss->yAxis->label(), QStringLiteral("Loss"));
  QCOMPARE(loss->graphFor(series::kEpochValLoss)->name(),
           QStringLiteral("Validation loss (epoch)"));
  QCOMPARE(fileMenu(), QStringLiteral("&File"));
  QCOMPARE(QSettings().value(QStringLiteral("language")).toString(), QStringLiteral("en"));
}

void TstClassroom::commandLineLanguageBeatsRememberedOne() {
  QSettings().setValue(QStringLiteral("language"), QStringLiteral("zh_CN"));
  QCOMPARE(startupLanguage(QStringLiteral("en")), QStringLiteral("en"));
  QCOMPARE(startupLanguage(QString()), QStringLiteral("zh_CN"));
  QSettings().setValue(QStringLiteral("language"), QStringLiteral("en"));
  QCOMPARE(startupLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
  QSettings().remove(QStringLiteral("language"));
}

TRAINSCOPE_GUI_TEST_MAIN(TstClassroom)
}  // namespace tst_classroom_suite
#include "tst_classroom.moc"

// Teaching in the dashboard (issue 25): presentation mode. Entering it scales the interface's
// texts 1.5x and the plots' tick labels to 20 px, draws opaque curves at least 3 px wide in the
// projector palette, hides the settings and events, and puts the run controls on the keyboard
// (Space start/pause/resume, Right one batch, Shift+Right to the epoch's end, Esc leaves);
// leaving it restores every font, pen and panel exactly. (That the window still fits at
// 1024x768 and 1280x720 in both languages is tst_layout's.)
#include <QApplication>
#include <QFontInfo>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/app/translations.h"
#include "gui/engine/training_controller.h"
#include "gui/main_window.h"
#include "gui/panels/events_panel.h"
#include "gui/plots/palette.h"
#include "gui/plots/training_plots.h"
#include "gui/teaching/presentation.h"

using namespace trainscope;

namespace {

/// Every graph's pen and every axis font of a plot, to compare before and after the mode.
struct PlotLook {
  QList<QPen> pens;
  QList<QFont> fonts;
  bool operator==(const PlotLook& o) const { return pens == o.pens && fonts == o.fonts; }
};

PlotLook lookOf(QCustomPlot* plot) {
  PlotLook l;
  for (int i = 0; i < plot->graphCount(); ++i) l.pens << plot->graph(i)->pen();
  for (QCPAxis* a : plot->axisRect()->axes()) l.fonts << a->tickLabelFont() << a->labelFont();
  l.fonts << plot->legend->font();
  return l;
}

}  // namespace

class TstTeachingGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void presentationStylesAndRestores();
  void presentationKeysDriveTheRun();

 private:
  std::unique_ptr<MainWindow> makeWindow();
  QTemporaryDir dir_;
};

void TstTeachingGui::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QSettings().clear();
  QVERIFY(dir_.isValid());
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
}

std::unique_ptr<MainWindow> TstTeachingGui::makeWindow() {
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setFullSpeed();
  w->setRunsRoot(dir_.filePath(QStringLiteral("runs")));
  w->resize(1024, 768);
  w->show();
  return w;
}

void TstTeachingGui::presentationStylesAndRestores() {
  auto w = makeWindow();
  QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));
  w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(20);
  QSignalSpy finished(w->controller(), &TrainingController::runFinished);
  QVERIFY(w->startRun());
  QVERIFY(finished.wait(60000));
  auto* loss = w->findChild<LossPlot*>(QStringLiteral("lossPlot"));
  auto* settings = w->findChild<QWidget*>(QStringLiteral("settingsPanel"));
  auto* events = w->findChild<EventsPanel*>();
  auto* start = w->findChild<QPushButton*>(QStringLiteral("startButton"));
  QVERIFY(loss && settings && events && start);
  w->grabWindowImage();
  const PlotLook before = lookOf(loss);
  const QFont app_font = QApplication::font();
  const int base_px = QFontInfo(app_font).pixelSize();
  QVERIFY(QFontInfo(loss->xAxis->tickLabelFont()).pixelSize() < 20);

  Presentation* p = w->presentation();
  QCOMPARE(p->scale(), 1.5);  // the default
  p->setActive(true);
  w->grabWindowImage();  // a replot applies the style
  QVERIFY(p->active());
  QVERIFY(!settings->isVisible() && !events->isVisible());
  QVERIFY(start->isVisible());
  // Texts: the interface 1.5x, tick labels and axis titles 20 px.
  QCOMPARE(QFontInfo(QApplication::font()).pixelSize(), qRound(base_px * 1.5));
  for (QCPAxis* a : {loss->xAxis, loss->yAxis}) {
    QCOMPARE(QFontInfo(a->tickLabelFont()).pixelSize(), 20);
    QVERIFY(QFontInfo(a->labelFont()).pixelSize() >= 20);
  }
  // Lines: the epoch curves (opaque) at least 3 px, in the projector's blue and vermillion.
  QCPGraph* train = loss->graphFor(series::kEpochTrainLoss);
  QCPGraph* val = loss->graphFor(series::kEpochValLoss);
  QVERIFY(train->pen().widthF() >= 3 && val->pen().widthF() >= 3);
  QCOMPARE(train->pen().color(), QColor(0, 114, 178));
  QCOMPARE(val->pen().color(), QColor(213, 94, 0));
  for (int i = 0; i < loss->graphCount(); ++i) {
    const QPen pen = loss->graph(i)->pen();
    if (pen.style() != Qt::NoPen && pen.color().alpha() >= 200 && loss->graph(i)->visible())
      QVERIFY2(pen.widthF() >= 3, qPrintable(loss->graph(i)->name()));
  }
  // The scale: 2x gives tick labels of 20 * 2 / 1.5 = 27 px, and is remembered.
  p->setScale(2.0);
  w->grabWindowImage();
  QCOMPARE(QFontInfo(loss->xAxis->tickLabelFont()).pixelSize(), 27);
  QCOMPARE(QSettings().value(QStringLiteral("presentationScale")).toDouble(), 2.0);
  p->setScale(1.5);

  // A new run in the mode: pens its code sets anew are styled too.
  QVERIFY(w->startRun());
  QVERIFY(finished.wait(60000));
  w->grabWindowImage();
  QVERIFY(loss->graphFor(series::kEpochTrainLoss)->pen().widthF() >= 3);

  // Leaving: everything as designed again.
  p->setActive(false);
  w->grabWindowImage();
  QVERIFY(settings->isVisible() && events->isVisible());
  QCOMPARE(QApplication::font(), app_font);
  QVERIFY(lookOf(loss) == before);
  QCOMPARE(loss->graphFor(series::kEpochTrainLoss)->pen().color(), palette::kTrain);
}

void TstTeachingGui::presentationKeysDriveTheRun() {
  using S = TrainingController::State;
  auto w = makeWindow();
  QVERIFY(w->loadPreset(QStringLiteral("moons")));  // 25 batches per epoch
  w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(200);
  w->findChild<QSlider*>(QStringLiteral("speedSlider"))->setValue(40);  // 100 steps/s
  w->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(w.get()));
  TrainingController* c = w->controller();
  // Outside the mode Right is no shortcut.
  QTest::keyClick(w.get(), Qt::Key_Right);
  QTest::qWait(100);
  QCOMPARE(c->state(), S::Idle);

  w->presentation()->setActive(true);
  QTest::keyClick(w.get(), Qt::Key_Space);  // Start
  QTRY_COMPARE(c->state(), S::Running);
  QTRY_VERIFY(c->lastStep().has_value());
  const qint64 per_epoch = c->totalSteps() / c->totalEpochs();
  QVERIFY(per_epoch > 2);
  QTest::keyClick(w.get(), Qt::Key_Space);  // Pause
  QTRY_COMPARE(c->state(), S::Paused);
  QTest::qWait(300);  // the step it paused after has reached the window
  const qint64 at = c->lastStep()->step;
  QTest::keyClick(w.get(), Qt::Key_Right);  // one batch
  QTRY_COMPARE(c->lastStep()->step, at + 1);
  QTest::qWait(300);
  QCOMPARE(c->lastStep()->step, at + 1);  // one, not more
  QCOMPARE(c->state(), S::Paused);
  QTest::keyClick(w.get(), Qt::Key_Right, Qt::ShiftModifier);  // to the end of the epoch
  QTRY_VERIFY(c->lastStep()->step % per_epoch == 0 && c->lastStep()->step > at + 1);
  QTRY_COMPARE(c->state(), S::Paused);
  QTest::keyClick(w.get(), Qt::Key_Space);  // Resume
  QTRY_COMPARE(c->state(), S::Running);
  QTest::keyClick(w.get(), Qt::Key_Escape);  // leaves the mode; the run goes on
  QVERIFY(!w->presentation()->active());
  QCOMPARE(c->state(), S::Running);
  c->stop();
  QTRY_VERIFY(!c->isActive());
}

QTEST_MAIN(TstTeachingGui)
#include "tst_teaching_gui.moc"

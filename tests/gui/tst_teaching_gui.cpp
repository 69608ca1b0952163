// Teaching in the dashboard: presentation mode. Entering it scales the interface's
// texts 1.5x and the plots' tick labels to 20 px, draws opaque curves at least 3 px wide in the
// projector palette, hides the settings and events, and puts the run controls on the keyboard
// (Space start/pause/resume, Right one batch, Shift+Right to the epoch's end, Esc leaves);
// leaving it restores every font, pen and panel exactly. (That the window still fits at
// 1024x768 and 1280x720 in both languages is tst_layout's.) Plot exports: PNG, SVG and PDF of
// the requested size while a run trains, in the projector style without changing the plot,
// and the data as CSV, checked against the run's metrics.csv; bad file names refused.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFontInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QSvgRenderer>
#include <QtTest>
#include <array>

#include "gui/app/app_options.h"
#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/diagnosis_panel.h"
#include "gui/panels/events_panel.h"
#include "gui/plots/palette.h"
#include "gui/plots/plot_area.h"
#include "gui/plots/plot_export.h"
#include "gui/plots/training_plots.h"
#include "gui/teaching/lesson_panel.h"
#include "gui/teaching/lessons.h"
#include "gui/teaching/presentation.h"
#include "gui/teaching/python_code_dialog.h"
#include "gui/teaching/run_report.h"
#include "gui/tr.h"
#include "core/system/number_format.h"
#include "core/config/config_json.h"
#include "gui/panels/repro_report_dialog.h"
#include "layout_checks.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_teaching_gui_suite {

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
  void plotsExportImagesAndData();
  void layoutIsRemembered();
  void builtInLessonsWalkInPresentationMode();
  void presentationTextsAtLeastTickSize();
  void lessonPanelDrivesTheRun();
  void runReportAndPythonCode();
  void lessonAsksBeforeLoadingAModelFile();

 private:
  std::unique_ptr<MainWindow> makeWindow();
  QTemporaryDir dir_;
};

void TstTeachingGui::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QSettings().clear();
  QVERIFY(dir_.isValid());
  // To look at the exported files: TRAINSCOPE_KEEP_TEST_FILES=1 keeps the folder (printed).
  if (qEnvironmentVariableIsSet("TRAINSCOPE_KEEP_TEST_FILES")) {
    dir_.setAutoRemove(false);
    qInfo("files kept in %s", qPrintable(dir_.path()));
  }
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
  QSignalSpy finished(w->controller()->store(), &RunStore::runFinished);
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
  using S = RunSession::State;
  auto w = makeWindow();
  QVERIFY(w->loadPreset(QStringLiteral("moons")));  // 25 batches per epoch
  w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(200);
  w->findChild<QSlider*>(QStringLiteral("speedSlider"))->setValue(40);  // 100 steps/s
  w->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(w.get()));
  RunSession* c = w->controller();
  // Outside the mode Right is no shortcut.
  QTest::keyClick(w.get(), Qt::Key_Right);
  QTest::qWait(100);
  QCOMPARE(c->state(), S::Idle);

  w->presentation()->setActive(true);
  QTest::keyClick(w.get(), Qt::Key_Space);  // Start
  QTRY_COMPARE(c->state(), S::Running);
  QTRY_VERIFY(c->store()->lastStep().has_value());
  const qint64 per_epoch = c->store()->totalSteps() / c->store()->totalEpochs();
  QVERIFY(per_epoch > 2);
  QTest::keyClick(w.get(), Qt::Key_Space);  // Pause
  QTRY_COMPARE(c->state(), S::Paused);
  QTest::qWait(300);  // the step it paused after has reached the window
  const qint64 at = c->store()->lastStep()->step;
  QTest::keyClick(w.get(), Qt::Key_Right);  // one batch
  QTRY_COMPARE(c->store()->lastStep()->step, at + 1);
  QTest::qWait(300);
  QCOMPARE(c->store()->lastStep()->step, at + 1);  // one, not more
  QCOMPARE(c->state(), S::Paused);
  QTest::keyClick(w.get(), Qt::Key_Right, Qt::ShiftModifier);  // to the end of the epoch
  QTRY_VERIFY(c->store()->lastStep()->step % per_epoch == 0 && c->store()->lastStep()->step > at + 1);
  QTRY_COMPARE(c->state(), S::Paused);
  QTest::keyClick(w.get(), Qt::Key_Space);  // Resume
  QTRY_COMPARE(c->state(), S::Running);
  QTest::keyClick(w.get(), Qt::Key_Escape);  // leaves the mode; the run goes on
  QVERIFY(!w->presentation()->active());
  QCOMPARE(c->state(), S::Running);
  c->stop();
  QTRY_VERIFY(!c->isActive());
}

void TstTeachingGui::plotsExportImagesAndData() {
  auto w = makeWindow();
  QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));
  w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(400);
  w->findChild<QSlider*>(QStringLiteral("speedSlider"))->setValue(46);  // 200 steps/s
  auto* loss = w->findChild<LossPlot*>(QStringLiteral("lossPlot"));
  const QDir out(dir_.filePath(QStringLiteral("exports")));
  QVERIFY(QDir().mkpath(out.path()));
  QString error;
  // Mid-run: the images and the data are written while the run trains.
  QVERIFY(w->startRun());
  QTRY_VERIFY(w->controller()->store()->lastStep() && w->controller()->store()->lastStep()->step > 20);
  w->grabWindowImage();
  QCOMPARE(w->controller()->state(), RunSession::State::Running);
  const PlotLook before = lookOf(loss);
  QVERIFY2(exportPlotImage(loss, out.filePath("loss.png"), QSize(640, 400), 1.0, false, &error),
           qPrintable(error));
  QVERIFY2(exportPlotImage(loss, out.filePath("loss.svg"), QSize(640, 400), 1.0, false, &error),
           qPrintable(error));
  QVERIFY2(exportPlotImage(loss, out.filePath("loss.pdf"), QSize(640, 400), 1.0, false, &error),
           qPrintable(error));
  QVERIFY2(exportPlotCsv(loss, out.filePath("mid.csv"), &error), qPrintable(error));
  QVERIFY2(exportPlotImage(loss, out.filePath("projector.png"), QSize(640, 400), 2.0, true, &error),
           qPrintable(error));
  QVERIFY(lookOf(loss) == before);  // the projector style was for the picture only
  QCOMPARE(QImage(out.filePath("loss.png")).size(), QSize(640, 400));
  QCOMPARE(QImage(out.filePath("projector.png")).size(), QSize(1280, 800));  // 2 px per px
  QSvgRenderer svg(out.filePath("loss.svg"));
  QVERIFY(svg.isValid());
  QCOMPARE(svg.viewBox(), QRect(0, 0, 640, 400));
  QFile pdf(out.filePath("loss.pdf"));
  QVERIFY(pdf.open(QIODevice::ReadOnly));
  QVERIFY(pdf.read(5) == "%PDF-" && pdf.size() > 2000);
  QFile mid(out.filePath("mid.csv"));
  QVERIFY(mid.open(QIODevice::ReadOnly));
  QCOMPARE(mid.readLine(), QByteArray("curve,x,y\n"));
  QVERIFY(mid.readAll().count('\n') > 20);
  w->controller()->stop();
  QTRY_VERIFY(!w->controller()->isActive());
  w->grabWindowImage();

  // For a projector the texts follow the picture's size (14 px ticks on a
  // 1600x900 slide): the y axis sits right of its tick labels, so its distance from the left
  // edge grows with the texts from 800x450 to 1600x900 (fixed paddings aside; it stayed put
  // with fixed pixels); and a plot in
  // presentation mode exports the same slide.
  auto axisLineX = [](const QImage& img) {  // the first column dark over the plot's middle
    const int y0 = img.height() * 3 / 10, y1 = img.height() * 6 / 10;
    for (int x = 0; x < img.width() / 2; ++x) {
      int dark = 0;
      for (int y = y0; y < y1; ++y) dark += qGray(img.pixel(x, y)) < 160;
      if (dark >= (y1 - y0) * 9 / 10) return x;
    }
    return -1;
  };
  QVERIFY(exportPlotImage(loss, out.filePath("slide.png"), QSize(1600, 900), 1.0, true, &error));
  QVERIFY(exportPlotImage(loss, out.filePath("small.png"), QSize(800, 450), 1.0, true, &error));
  const int slide_x = axisLineX(QImage(out.filePath("slide.png")));
  const int small_x = axisLineX(QImage(out.filePath("small.png")));
  QVERIFY2(small_x > 0 && slide_x > 1.35 * small_x && slide_x < 2.4 * small_x,
           qPrintable(QStringLiteral("%1 / %2").arg(slide_x).arg(small_x)));
  QCOMPARE(projectorTickPixels(QSize(1600, 900)), 25.0);
  QCOMPARE(projectorTickPixels(QSize(433, 710)), 12.0);
  w->presentation()->setActive(true);
  w->grabWindowImage();
  QVERIFY(exportPlotImage(loss, out.filePath("slide2.png"), QSize(1600, 900), 1.0, true, &error));
  const int presented_x = axisLineX(QImage(out.filePath("slide2.png")));
  QVERIFY2(std::abs(presented_x - slide_x) <= slide_x / 10,
           qPrintable(QStringLiteral("%1 / %2").arg(presented_x).arg(slide_x)));
  QVERIFY(loss->property("trainscopePresenting").toBool());  // still presenting after it
  w->presentation()->setActive(false);
  // The dialog offers 16:9; ticking "for a projector" picks it over the plot's own size.
  {
    PlotExportDialog dialog(loss);
    auto* sizes = dialog.findChild<QComboBox*>(QStringLiteral("exportSizeComboBox"));
    QVERIFY(sizes && sizes->currentIndex() == 0);
    dialog.findChild<QCheckBox*>(QStringLiteral("exportProjectorCheckBox"))->setChecked(true);
    QCOMPARE(sizes->currentData().toSize(), QSize(1600, 900));
    QCOMPARE(dialog.findChild<QSpinBox*>(QStringLiteral("exportWidthSpinBox"))->value(), 1600);
    QCOMPARE(dialog.findChild<QSpinBox*>(QStringLiteral("exportHeightSpinBox"))->value(), 900);
    dialog.findChild<QSpinBox*>(QStringLiteral("exportHeightSpinBox"))->setValue(1000);
    QCOMPARE(sizes->currentIndex(), sizes->count() - 1);  // "Other"
  }

  // The data: the validation curve's points are metrics.csv's epochs and val_loss.
  QVERIFY2(exportPlotCsv(loss, out.filePath("loss.csv"), &error), qPrintable(error));
  QFile csv(out.filePath("loss.csv"));
  QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
  QMap<double, double> val;  // step -> val_loss
  const QString val_name = loss->graphFor(series::kEpochValLoss)->name();
  for (const QByteArray& line : csv.readAll().split('\n')) {
    const QList<QByteArray> f = line.split(',');
    if (f.size() == 3 && QString::fromUtf8(f[0]) == val_name) val[f[1].toDouble()] = f[2].toDouble();
  }
  QFile metrics(QDir(w->runDirectory()).filePath(QStringLiteral("metrics.csv")));
  QVERIFY(metrics.open(QIODevice::ReadOnly | QIODevice::Text));
  const QList<QByteArray> header = metrics.readLine().trimmed().split(',');
  const int c_step = header.indexOf("step"), c_val = header.indexOf("val_loss");
  int rows = 0;
  for (const QByteArray& line : metrics.readAll().split('\n')) {
    const QList<QByteArray> f = line.split(',');
    if (f.size() <= c_val) continue;
    ++rows;
    const double step = f[c_step].toDouble();
    QVERIFY2(val.contains(step), qPrintable(QString::number(step)));
    QCOMPARE(val[step], f[c_val].toDouble());
  }
  QVERIFY(rows > 5);
  QCOMPARE(val.size(), rows);

  // Refused: another suffix, a folder, a folder that cannot be written; nothing is left.
  QVERIFY(!exportPlotImage(loss, out.filePath("loss.txt"), {}, 1.0, false, &error));
  QVERIFY2(error.contains(QStringLiteral("loss.txt")) && error.contains(QStringLiteral(".png")),
           qPrintable(error));
  QVERIFY(!exportPlotImage(loss, out.path(), {}, 1.0, false, &error));
  QVERIFY(!exportPlotCsv(loss, out.path(), &error));
  QVERIFY(!exportPlotImage(loss, out.filePath("missing/loss.png"), {}, 1.0, false, &error));
  QVERIFY2(error.contains(QStringLiteral("missing")), qPrintable(error));
  QVERIFY(!QFile::exists(out.filePath("loss.txt")));
}

void TstTeachingGui::layoutIsRemembered() {
  std::vector<int> columns;
  {
    auto w = makeWindow();
    auto* split = w->findChild<QSplitter*>(QStringLiteral("columnsSplitter"));
    auto* tabs = w->findChild<QTabWidget*>(QStringLiteral("sideViewTabs"));
    QVERIFY(split && tabs && tabs->count() > 2);
    split->setSizes({380, 644});
    tabs->setCurrentIndex(2);
    QCoreApplication::processEvents();
    const QList<int> sizes = split->sizes();
    columns.assign(sizes.begin(), sizes.end());
    w->presentation()->setActive(true);  // closed in presentation mode: the normal layout is kept
    QVERIFY(w->close());
  }
  auto w = makeWindow();
  auto* split = w->findChild<QSplitter*>(QStringLiteral("columnsSplitter"));
  auto* tabs = w->findChild<QTabWidget*>(QStringLiteral("sideViewTabs"));
  QCOMPARE(tabs->currentIndex(), 2);
  QVERIFY(!w->presentation()->active());
  QCOMPARE(split->sizes().value(0), columns[0]);
  QSettings().remove(QStringLiteral("layout"));
}

namespace {

/// Waits until the run a lesson step started has settled (ended or paused), at most 3 min.
void settleRun(MainWindow& w) {
  using S = RunSession::State;
  QTRY_VERIFY_WITH_TIMEOUT(w.controller()->state() != S::Running &&
                               w.controller()->state() != S::Stopping,
                           180000);
  for (int i = 0; i < 3; ++i) {
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
  }
  w.grabWindowImage();
}

}  // namespace

// Done when: each built-in lesson walked from its first to its last step in
// presentation mode at 1024x768 in both languages. Each step: nothing clipped or overlapping,
// what it looks at framed and in view. TRAINSCOPE_LESSON_SHOTS=DIR saves a picture of every
// step there (lesson-language-step.png) to check by eye; TRAINSCOPE_LESSON_ONLY=NAME walks one.
void TstTeachingGui::builtInLessonsWalkInPresentationMode() {
  const QString shots = qEnvironmentVariable("TRAINSCOPE_LESSON_SHOTS");
  const QString only = qEnvironmentVariable("TRAINSCOPE_LESSON_ONLY");  // one lesson, to look at
  const QFont app_font = QApplication::font();
  QStringList problems;
  for (const char* lang : {"en", "zh_CN"}) {
    switchLanguage(QLatin1String(lang));
    for (const QString& name : builtInLessonNames()) {
      if (!only.isEmpty() && name != only) continue;
      auto w = makeWindow();
      w->presentation()->setActive(true);
      w->resize(1024, 768);
      QString error;
      QVERIFY2(w->openLesson(name, &error), qPrintable(error));
      LessonPanel* panel = w->lessonPanel();
      QVERIFY(panel->isVisible());
      QVERIFY(w->windowTitle().contains(QString::fromStdString(
          panel->lesson()->title.in(lang))));
      const int steps = static_cast<int>(panel->lesson()->steps.size());
      for (int k = 0; k < steps; ++k) {
        qInfo("%s %s step %d", qPrintable(name), lang, k + 1);
        if (k > 0) panel->next();
        QCOMPARE(panel->stepIndex(), k);
        settleRun(*w);
        const QString where = QStringLiteral("%1 %2 step %3: ").arg(name, QLatin1String(lang)).arg(k + 1);
        QStringList found;
        layout_checks::checkTexts(w.get(), &found);
        layout_checks::checkOverlaps(w.get(), &found);
        // also while the settings column narrows the plots (their step labels collided:
        // "255075", issue 43 item 22)
        layout_checks::checkPlots(w.get(), &found);
        for (const QString& f : found) problems << where + f;
        const LessonStep& step = panel->lesson()->steps[static_cast<size_t>(k)];
        if (!step.look_at.empty()) {
          QWidget* target = panel->highlighted();
          QVERIFY2(target && target->isVisible(), qPrintable(where + QString::fromStdString(step.look_at)));
          auto* frame = w->findChild<QWidget*>(QStringLiteral("lessonHighlight"));
          QVERIFY(frame && frame->isVisible());
          QVERIFY(frame->geometry().contains(
              QRect(target->mapTo(w.get(), QPoint()), target->size()).adjusted(1, 1, -1, -1)));
          // The plot a step looks at can be read (the clipping lesson's
          // gradient plot was 70 px tall, its y title cut to "Gradi..."): whole axis titles
          // and at least 200 px of height.
          QList<LivePlot*> plots = target->findChildren<LivePlot*>();
          if (auto* p = qobject_cast<LivePlot*>(target)) plots << p;
          for (LivePlot* p : plots) {
            if (!p->isVisible()) continue;
            for (QCPAxis* a : {p->xAxis, p->yAxis})
              if (a->label().contains(QChar(0x2026)) || a->label().contains(QStringLiteral("...")))
                problems << where + QStringLiteral("axis title cut: ") + a->label();
            if (p->height() < 200)
              problems << where + QStringLiteral("the plot looked at is %1 px tall").arg(p->height());
          }
        }
        if (!shots.isEmpty()) {
          w->grabWindowImage().save(
              QDir(shots).filePath(QStringLiteral("%1-%2-%3.png").arg(name, QLatin1String(lang)).arg(k + 1)));
          // and the Diagnosis tab in front, to read the verdict the class sees at that step
          auto* plots = w->findChild<PlotArea*>();
          auto* diagnosis = w->findChild<DiagnosisPanel*>();
          if (plots && diagnosis) {
            plots->showView(diagnosis);
            QCoreApplication::processEvents();
            w->grabWindowImage().save(QDir(shots).filePath(
                QStringLiteral("%1-%2-%3-diagnosis.png").arg(name, QLatin1String(lang)).arg(k + 1)));
          }
        }
      }
      panel->close();
      w->controller()->stop();
      QTRY_VERIFY(!w->controller()->isActive());
      w.reset();  // destroyed in presentation mode: the application font comes back
      QCOMPARE(QApplication::font(), app_font);
    }
  }
  switchLanguage(QStringLiteral("en"));
  for (const QString& p : problems) qInfo("%s", qPrintable(p));
  QVERIFY2(problems.isEmpty(), qPrintable(problems.value(0)));
}

namespace {

/// The tallest line of ink in `image` (pixels whose grey differs from the image's most common
/// grey by more than 80), in pixels: a line of capitals or digits measures its cap height, a
/// line with descenders a little more; 0 without ink.
int inkLineHeight(const QImage& image) {
  if (image.isNull()) return 0;
  std::array<int, 256> histogram{};
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) ++histogram[qGray(image.pixel(x, y))];
  const int background = int(std::max_element(histogram.begin(), histogram.end()) - histogram.begin());
  int best = 0, run = 0;
  for (int y = 0; y < image.height(); ++y) {
    bool ink = false;
    for (int x = 0; x < image.width() && !ink; ++x)
      ink = std::abs(qGray(image.pixel(x, y)) - background) > 80;
    run = ink ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

/// Text whose ink reaches the cap height: capitals, digits, ascenders or Chinese.
bool hasTallGlyphs(const QString& text) {
  for (const QChar c : text)
    if (c.isUpper() || c.isDigit() || QStringLiteral("bdfhklt").contains(c) || c.unicode() >= 0x4E00)
      return true;
  return false;
}

}  // namespace

// Issue 43 item 12, measured on screenshots: in presentation mode at 1024x768, in English and
// Chinese, every label's text and every plot legend is drawn at least as tall as the tick
// labels (digits: their cap height), with the exploding preset paused on its non-finite step
// (the non-finite panel) and the Diagnosis tab in front; a dialog's plot draws its curves
// >= 3 px.
void TstTeachingGui::presentationTextsAtLeastTickSize() {
  QStringList problems;
  for (const char* lang : {"en", "zh_CN"}) {
    switchLanguage(QLatin1String(lang));
    auto w = makeWindow();
    w->presentation()->setActive(true);
    w->resize(1024, 768);
    QVERIFY(w->loadPreset(QStringLiteral("exploding")));
    QVERIFY(w->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(w->controller()->state() == RunSession::State::Paused, 30000);
    if (QWidget* diagnosis = w->findChild<QWidget*>(QStringLiteral("diagnosisPanel")))
      for (QWidget* p = diagnosis; p; p = p->parentWidget())
        if (auto* tabs = qobject_cast<QTabWidget*>(p)) {
          tabs->setCurrentIndex(tabs->indexOf(diagnosis) >= 0 ? tabs->indexOf(diagnosis) : tabs->currentIndex());
          for (int i = 0; i < tabs->count(); ++i)
            if (tabs->widget(i)->isAncestorOf(diagnosis) || tabs->widget(i) == diagnosis) tabs->setCurrentIndex(i);
          break;
        }
    QTest::qWait(200);
    if (qEnvironmentVariableIsSet("TRAINSCOPE_FONT_DEBUG"))
      for (const char* name : {"nonFiniteCausesLabel", "diagnosisKindLabel"})
        for (QWidget* x = w->findChild<QWidget*>(QLatin1String(name)); x; x = x->parentWidget())
          qInfo("%s %s px %d setfont %d sheet %d", x->metaObject()->className(), qPrintable(x->objectName()),
                QFontInfo(x->font()).pixelSize(), x->testAttribute(Qt::WA_SetFont),
                int(!x->styleSheet().isEmpty()));
    const QImage shot = w->grabWindowImage();
    auto* loss = w->findChild<LossPlot*>(QStringLiteral("lossPlot"));
    QVERIFY(loss && loss->isVisible());
    const QRect ar = loss->axisRect()->rect();
    const int tick_h = QFontMetrics(loss->xAxis->tickLabelFont()).height();
    const QRect ticks(loss->mapTo(w.get(), QPoint(ar.left(), ar.bottom() + 4)), QSize(ar.width(), tick_h + 6));
    const int tick = inkLineHeight(shot.copy(ticks));
    QVERIFY2(tick >= 12, qPrintable(QStringLiteral("tick digits %1 px").arg(tick)));
    const QString where = QLatin1String(lang) + QStringLiteral(": ");
    for (QLabel* l : w->findChildren<QLabel*>()) {
      if (!l->isVisible() || !l->pixmap().isNull() || !hasTallGlyphs(l->text())) continue;
      const QRect r = QRect(l->mapTo(w.get(), QPoint()), l->size()) & shot.rect();
      if (r.height() < 4 || r.width() < 4) continue;
      const int h = inkLineHeight(shot.copy(r));
      if (h > 0 && h < tick * 0.9)
        problems << where + QStringLiteral("%1 \"%2\": text %3 px, tick labels %4 px")
                                .arg(layout_checks::describe(l), l->text().left(40)).arg(h).arg(tick);
    }
    for (LivePlot* p : w->findChildren<LivePlot*>()) {
      if (!p->isVisible() || !p->legend->visible()) continue;
      for (int i = 0; i < p->legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = p->legend->item(i);
        if (!item || !item->visible()) continue;
        const QRect r = QRect(p->mapTo(w.get(), item->rect().topLeft()), item->rect().size()) & shot.rect();
        const int h = inkLineHeight(shot.copy(r));
        if (h > 0 && h < tick * 0.9)
          problems << where + QStringLiteral("%1 legend item %2: %3 px, tick labels %4 px")
                                  .arg(layout_checks::describe(p)).arg(i).arg(h).arg(tick);
      }
    }
    // A dialog's plot (Verify, AMP A/B) in presentation mode: thick curves, legend as large.
    std::unique_ptr<QCustomPlot> compare(makeLossComparePlot({1, 0.5, 0.25}, {1, 0.6, 0.3}, QStringLiteral("a"), QStringLiteral("b"), nullptr));
    compare->resize(600, 400);
    compare->replot(QCustomPlot::rpImmediateRefresh);
    for (int i = 0; i < compare->graphCount(); ++i)
      if (compare->graph(i)->pen().widthF() < 3)
        problems << where + QStringLiteral("compare plot curve %1 is %2 px").arg(i).arg(compare->graph(i)->pen().widthF());
    if (QFontInfo(compare->legend->font()).pixelSize() < QFontInfo(compare->xAxis->tickLabelFont()).pixelSize())
      problems << where + QStringLiteral("compare plot legend smaller than its ticks");
    if (const QString shots = qEnvironmentVariable("TRAINSCOPE_LESSON_SHOTS"); !shots.isEmpty())
      shot.save(QDir(shots).filePath(QStringLiteral("presentation-texts-%1.png").arg(QLatin1String(lang))));
    w->controller()->stop();
    QTRY_VERIFY(!w->controller()->isActive());
  }
  switchLanguage(QStringLiteral("en"));
  for (const QString& p : problems) qInfo("%s", qPrintable(p));
  QVERIFY2(problems.isEmpty(), qPrintable(problems.value(0)));
}

// The panel's actions, checked against what they must do: run_until_epoch pauses at the end of
// that epoch exactly, a step's settings reach the run, Back runs nothing again, hidden parts
// come back on Close, a lesson cannot open over a running run.
void TstTeachingGui::lessonPanelDrivesTheRun() {
  auto w = makeWindow();
  QString error;
  QVERIFY2(w->openLesson(QStringLiteral("checkpoint"), &error), qPrintable(error));
  LessonPanel* panel = w->lessonPanel();
  RunSession* c = w->controller();
  QTRY_VERIFY_WITH_TIMEOUT(c->state() == RunSession::State::Paused, 60000);
  QTest::qWait(200);
  QCOMPARE(c->store()->lastStep()->epoch, qint64{100});  // overfit-sine: one step per epoch
  QCOMPARE(c->store()->lastStep()->step, qint64{100});
  // Another lesson cannot replace the settings while this run is active.
  QVERIFY(!w->openLesson(QStringLiteral("seeds"), &error));
  QVERIFY2(error.contains(QStringLiteral("stop it")), qPrintable(error));
  QVERIFY(panel->isOpen());
  QTest::keyClick(w.get(), Qt::Key_PageDown);  // step 2: stop
  QTRY_VERIFY(!c->isActive());
  QCOMPARE(panel->stepIndex(), 1);
  const QString run = w->runDirectory();
  QTest::keyClick(w.get(), Qt::Key_PageUp);  // back to step 1: its run_until_epoch not again
  QCOMPARE(panel->stepIndex(), 0);
  QTest::qWait(300);
  QVERIFY(!c->isActive());
  QCOMPARE(w->runDirectory(), run);
  panel->close();

  // A step that hides the events and sets a mistake, in a lesson file of the user's.
  const QString file = dir_.filePath(QStringLiteral("mine.tslesson"));
  QFile f(file);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(R"({"preset": "moons", "training": {"epochs": 2}, "lesson": {"title": "Mine",
    "steps": [{"text": "Hidden events", "hide": ["events"], "lock": ["settings"],
               "actions": [{"set": {"teaching.mistakes": ["lr_x1e-6"], "optimizer.lr": 0.05}},
                           "start"]}]}})");
  f.close();
  QVERIFY2(w->openLesson(file, &error), qPrintable(error));
  auto* events = w->findChild<EventsPanel*>();
  QVERIFY(!events->isVisible());
  QVERIFY(!w->findChild<QWidget*>(QStringLiteral("settingsPanel"))->isEnabled());
  QTRY_VERIFY_WITH_TIMEOUT(!c->isActive(), 60000);
  QCOMPARE(c->store()->config().optimizer.lr, 0.05);
  QCOMPARE(c->store()->config().teaching.mistakes, std::vector<std::string>{"lr_x1e-6"});
  QVERIFY(w->windowTitle().contains(QStringLiteral("Mine")));
  panel->close();
  QVERIFY(events->isVisible());
  QVERIFY(w->findChild<QWidget*>(QStringLiteral("settingsPanel"))->isEnabled());
  QVERIFY(!w->windowTitle().contains(QStringLiteral("Mine")));
  // A bad lesson file is refused naming it; nothing changes.
  QVERIFY(!w->openLesson(dir_.filePath(QStringLiteral("none.tslesson")), &error));
  QVERIFY2(error.contains(QStringLiteral("none.tslesson")), qPrintable(error));
  QVERIFY(!w->openLesson(QStringLiteral("no-such-lesson"), &error));
  QVERIFY2(error.contains(QStringLiteral("overfitting")), qPrintable(error));  // lists the names
  QVERIFY(!error.contains(QStringLiteral("did you mean")));
  for (const char* typo : {"Overfitting", "overfiting", "nan_loss"}) {
    QVERIFY(!w->openLesson(QLatin1String(typo), &error));
    QVERIFY2(error.contains(QStringLiteral("did you mean ")) &&
                 (error.endsWith(QStringLiteral("overfitting?")) ||
                  error.endsWith(QStringLiteral("nan-loss?"))),
             qPrintable(error));
  }
  // The command line: --lesson with a run of its own, or twice, is refused.
  using Status = AppOptionsResult::Status;
  for (const QStringList& args :
       {QStringList{QStringLiteral("--lesson"), QStringLiteral("seeds"),
                    QStringLiteral("--quit-after-epochs"), QStringLiteral("3")},
        QStringList{QStringLiteral("--lesson"), QStringLiteral("seeds"), QStringLiteral("--lesson"),
                    QStringLiteral("device")},
        QStringList{QStringLiteral("--lesson"), QStringLiteral("seeds"), QStringLiteral("--preset"),
                    QStringLiteral("moons")}}) {
    const auto r = AppOptionsParser::parse(QStringList{QStringLiteral("trainscope")} + args);
    QCOMPARE(r.status, Status::Error);
    QVERIFY2(r.text.contains(QStringLiteral("--lesson")), qPrintable(r.text));
  }
  QCOMPARE(AppOptionsParser::parse({QStringLiteral("trainscope"), QStringLiteral("--lesson"),
                                    QStringLiteral("seeds"), QStringLiteral("--presentation")})
               .status,
           Status::Ok);
  // Save as lesson: the settings as they are now, read back as a lesson.
  const QString saved = dir_.filePath(QStringLiteral("saved.tslesson"));
  QVERIFY2(w->saveLesson(saved, QStringLiteral("My moons"), &error), qPrintable(error));
  Lesson back;
  QVERIFY2(findLesson(saved, &back, &error), qPrintable(error));
  QCOMPARE(back.title.in("en"), std::string("My moons"));
  QCOMPARE(configFromJson(back.config).optimizer.lr, w->currentConfig().optimizer.lr);
}

// The run report from a finished run and from one still training, in Chinese:
// one HTML file whose plots are PNG images inside it, the final validation loss of metrics.csv,
// the loss doctor's evidence in Chinese (from summary.json's finding codes, not its English
// text); the PDF is pages of A4 that name TrainScope as their creator. "Show the PyTorch code":
// the script of the settings, saved as shown; settings it cannot write are named instead.
void TstTeachingGui::runReportAndPythonCode() {
  auto w = makeWindow();
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(6);
  auto* report_action = w->findChild<QAction*>(QStringLiteral("actionExportReport"));
  QVERIFY(report_action && !report_action->isEnabled());  // no run folder yet
  QSignalSpy finished(w->controller()->store(), &RunStore::runFinished);
  QVERIFY(w->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 120000);
  QVERIFY(report_action->isEnabled());
  const QString run = w->runDirectory();
  const QDir out(dir_.filePath(QStringLiteral("reports")));
  QVERIFY(QDir().mkpath(out.path()));

  switchLanguage(QStringLiteral("zh_CN"));
  QString error;
  QVERIFY2(writeRunReport(run, out.filePath("zh.html"), QString(), &error), qPrintable(error));
  QVERIFY2(writeRunReport(run, out.filePath("zh.pdf"), QString(), &error), qPrintable(error));
  QFile html_file(out.filePath("zh.html"));
  QVERIFY(html_file.open(QIODevice::ReadOnly));
  const QString html = QString::fromUtf8(html_file.readAll());
  QVERIFY(html.startsWith(QLatin1String(kRunReportHtmlMarker)));
  QVERIFY(html.contains(QStringLiteral("运行报告")) && html.contains(QStringLiteral("诊断")));
  QVERIFY2(!html.contains(QStringLiteral("mean of the first")), "English evidence in a Chinese report");
  QFile metrics(QDir(run).filePath(QStringLiteral("metrics.csv")));
  QVERIFY(metrics.open(QIODevice::ReadOnly | QIODevice::Text));
  const QList<QByteArray> header = metrics.readLine().trimmed().split(',');
  QList<QByteArray> last;
  for (const QByteArray& line : metrics.readAll().split('\n'))
    if (!line.trimmed().isEmpty()) last = line.trimmed().split(',');
  const double val_loss = last.value(header.indexOf("val_loss")).toDouble();
  QVERIFY(html.contains(QString::fromStdString(formatHuman(val_loss))));
  const QString data_uri = QStringLiteral("data:image/png;base64,");
  QCOMPARE(html.count(data_uri), 4);  // loss, accuracy, gradient norm, learning rate
  const int at = html.indexOf(data_uri) + data_uri.size();
  const QImage first = QImage::fromData(
      QByteArray::fromBase64(html.mid(at, html.indexOf(QLatin1Char('"'), at) - at).toLatin1()), "PNG");
  QVERIFY(!first.isNull() && first.width() >= 600);
  QFile pdf(out.filePath("zh.pdf"));
  QVERIFY(pdf.open(QIODevice::ReadOnly));
  const QByteArray pdf_bytes = pdf.readAll();
  QVERIFY(pdf_bytes.startsWith("%PDF-") && pdf_bytes.count("/Type /Page\n") >= 2);
  QVERIFY(pdf_bytes.contains(QByteArray("/Creator (\xfe\xff\x00T\x00r\x00a\x00i\x00n")));
  // Refused: a folder that is not a run, another suffix; nothing written.
  QVERIFY(!writeRunReport(out.path(), out.filePath("x.html"), QString(), &error));
  QVERIFY2(error.contains(out.path()), qPrintable(error));
  QVERIFY(!writeRunReport(run, out.filePath("x.txt"), QString(), &error));
  QVERIFY(!QFile::exists(out.filePath("x.html")) && !QFile::exists(out.filePath("x.txt")));

  // A run still training: what is written so far, said to be unfinished.
  w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(400);
  w->findChild<QSlider*>(QStringLiteral("speedSlider"))->setValue(46);
  QVERIFY(w->startRun());
  QTRY_VERIFY(w->controller()->store()->lastStep() && w->controller()->store()->lastStep()->step > 30);
  QVERIFY2(writeRunReport(w->runDirectory(), out.filePath("live.html"), QString(), &error),
           qPrintable(error));
  QFile live(out.filePath("live.html"));
  QVERIFY(live.open(QIODevice::ReadOnly));
  QVERIFY(QString::fromUtf8(live.readAll()).contains(Tr::tr("no summary yet: still training, or ended without one")));
  w->controller()->stop();
  QTRY_VERIFY(!w->controller()->isActive());
  switchLanguage(QStringLiteral("en"));

  // The PyTorch code of the settings: the moons MLP after torch.manual_seed(42); saved as shown.
  {
    PythonCodeDialog dialog(w->currentConfig(), "the test's settings");
    const QString script = dialog.script();
    const QString shots = qEnvironmentVariable("TRAINSCOPE_LESSON_SHOTS");
  const QString only = qEnvironmentVariable("TRAINSCOPE_LESSON_ONLY");  // one lesson, to look at  // to look at it
    if (!shots.isEmpty()) {
      dialog.show();
      QCoreApplication::processEvents();
      dialog.grab().save(QDir(shots).filePath(QStringLiteral("python-code.png")));
    }
    QVERIFY(script.contains(QStringLiteral("torch.manual_seed(SEED)")) &&
            script.contains(QStringLiteral("SEED = 42")) &&
            script.contains(QStringLiteral("nn.Linear(2, 32),\n    nn.Tanh(),")));
    QVERIFY(dialog.findChild<QPushButton*>(QStringLiteral("pythonCodeSave"))->isEnabled());
    QVERIFY2(dialog.saveTo(out.filePath("moons.py"), &error), qPrintable(error));
    QFile saved(out.filePath("moons.py"));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(saved.readAll()), script);
  }
  // A run changed while it trained: the dialog no longer promises its losses (issue 43 item
  // 20); a run without changes keeps the promise.
  {
    auto intro = [](QWidget* d) { return d->findChildren<QLabel*>().value(0)->text(); };
    w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(100000);  // still running
    QVERIFY(w->startRun());
    QTRY_VERIFY(w->controller()->store()->lastStep() && w->controller()->store()->lastStep()->step > 5);
    auto* action = w->findChild<QAction*>(QStringLiteral("actionShowPythonCode"));
    QVERIFY(action);
    action->trigger();
    auto* plain = w->findChild<PythonCodeDialog*>();
    QVERIFY(plain);
    QVERIFY2(!intro(plain).contains(QStringLiteral("changed while it trained")), qPrintable(intro(plain)));
    plain->close();
    delete plain;
    QSignalSpy events(w->controller()->store(), &RunStore::eventOccurred);
    QVERIFY(w->controller()->setLearningRate(0.05));
    auto changed_seen = [&] {
      for (const QList<QVariant>& args : events)
        if (args.at(0).value<Event>().kind == EventKind::ConfigChanged) return true;
      return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(changed_seen(), 20000);
    action->trigger();
    auto* changed = w->findChild<PythonCodeDialog*>();
    QVERIFY(changed);
    QVERIFY2(intro(changed).contains(QStringLiteral("changed while it trained")) &&
                 intro(changed).contains(QStringLiteral("optimizer.lr")),
             qPrintable(intro(changed)));
    delete changed;
    w->controller()->stop();
    QTRY_VERIFY(!w->controller()->isActive());
  }
  QVERIFY(w->loadPreset(QStringLiteral("flowers-csv")));
  PythonCodeDialog csv_dialog(w->currentConfig(), "the test's settings");
  QVERIFY(csv_dialog.script().isEmpty());  // no run of it: its samples are a run's
  QVERIFY(!csv_dialog.findChild<QPushButton*>(QStringLiteral("pythonCodeSave"))->isEnabled());
  // With a run of it shown, the script reads that run's samples through its split.json
  w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(1);
  QVERIFY(w->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->isActive(), 60000);
  w->findChild<QAction*>(QStringLiteral("actionShowPythonCode"))->trigger();
  auto* own = w->findChild<PythonCodeDialog*>();
  QVERIFY(own);
  const QString run_dir = QDir(w->runDirectory()).absolutePath();
  QVERIFY2(own->script().contains(QStringLiteral("pd.read_csv(")) &&
               own->script().contains(QStringLiteral("RUN_DIR = \"") + run_dir + QStringLiteral("\"")),
           qPrintable(own->script().left(3000)));
  QVERIFY(own->findChildren<QLabel*>().value(0)->text().contains(QDir::toNativeSeparators(run_dir)));
  delete own;
}

void TstTeachingGui::lessonAsksBeforeLoadingAModelFile() {
  // Issue 44 item 10: a lesson whose base config trains a TorchScript file asks first, naming
  // the file (a TorchScript file is a program); Cancel leaves no lesson open, Open opens it.
  auto w = makeWindow();
  const QString model = dir_.filePath(QStringLiteral("someone-elses-model.pt"));
  const QString file = dir_.filePath(QStringLiteral("model.tslesson"));
  {
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QStringLiteral("{\"preset\": \"moons\", \"model\": {\"kind\": \"torchscript\", "
                           "\"torchscript\": {\"path\": \"%1\"}}, \"lesson\": {\"title\": \"T\", "
                           "\"steps\": [{\"text\": \"A\"}]}}")
                .arg(model)
                .toUtf8());
  }
  for (const auto button : {QMessageBox::Cancel, QMessageBox::Open}) {
    QString asked;
    QTimer::singleShot(200, [&asked, button] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        asked = box->text();
        box->button(button)->click();
      }
    });
    QString error;
    const bool opened = w->openLesson(file, &error);
    QVERIFY2(asked.contains(model) && asked.contains(QStringLiteral("program")), qPrintable(asked));
    QCOMPARE(opened, button == QMessageBox::Open);
    if (!opened) QVERIFY2(error.contains(model), qPrintable(error));
  }
}

TRAINSCOPE_GUI_TEST_MAIN(TstTeachingGui)
}  // namespace tst_teaching_gui_suite
#include "tst_teaching_gui.moc"

// The window at 1024x768 and 1280x720, in English and Chinese: no text of it is clipped or
// overlaps (each visible label, button, tab bar, combo and spin box text fits its rectangle
// per QFontMetrics; visible sibling widgets do not overlap; plot tick labels do not overlap,
// axis titles fit their axis, plot labels stay inside the plot, off the legend, apart and
// uncrossed by lines), the run controls stay in view with every settings section open, and
// the plots do not move when the ghost's controls or the non-finite panel appear. The same
// checks hold in presentation mode.
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/non_finite_panel.h"
#include "gui/plots/lr_find_plot.h"
#include "gui/plots/training_plots.h"
#include "gui/teaching/presentation.h"
#include "gui/views/lr_find_dialog.h"
#include "gui/views/model_view.h"
#include "layout_checks.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_layout_suite {

using namespace trainscope;

namespace {

const QSize kSizes[] = {{1024, 768}, {1280, 720}};
const char* kLanguages[] = {"en", "zh_CN"};

void settle(MainWindow& w) {
  for (int i = 0; i < 3; ++i) {
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
  }
  w.grabWindowImage();
}

/// Every check over the window, each visible tab of the plot area in turn.
QStringList checkWindow(MainWindow& w, const QString& where) {
  QStringList problems;
  QList<QTabWidget*> tab_widgets;
  for (const char* name : {"sideViewTabs", "bottomViewTabs"})
    if (auto* t = w.findChild<QTabWidget*>(QLatin1String(name))) tab_widgets << t;
  for (QTabWidget* tabs : tab_widgets) {
    const int keep = tabs->currentIndex();
    for (int i = 0; i < tabs->count(); ++i) {
      tabs->setCurrentIndex(i);
      settle(w);
      QStringList found;
      layout_checks::checkTexts(&w, &found);
      layout_checks::checkOverlaps(&w, &found);
      layout_checks::checkPlots(&w, &found);
      for (ModelView* v : w.findChildren<ModelView*>())
        if (v->isVisible() && v->cutCaptions() > 0)
          found << QStringLiteral("model view: %1 image caption(s) cut").arg(v->cutCaptions());
      for (const QString& f : found) {
        const QString line =
            where + QStringLiteral(" [") + tabs->tabText(i) + QStringLiteral("]: ") + f;
        if (!problems.contains(line)) problems << line;
      }
    }
    tabs->setCurrentIndex(keep);
  }
  problems.removeDuplicates();
  return problems;
}

}  // namespace

class TstLayout : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void cleanup();
  void nothingIsClippedOrOverlaps_data();
  void nothingIsClippedOrOverlaps();
  void runControlsStayInView();
  void plotsDoNotMoveWhenPanelsAppear();
  void lrFinderLabelsFit();

 private:
  std::unique_ptr<MainWindow> makeWindow(const QString& runs);
  QString writeConfig(const QString& name, const char* json);
  QTemporaryDir dir_;
};

void TstLayout::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QSettings().clear();
  QVERIFY(dir_.isValid());
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
}

void TstLayout::cleanup() {
  switchLanguage(QStringLiteral("en"));
  QLocale::setDefault(QLocale::c());
}

std::unique_ptr<MainWindow> TstLayout::makeWindow(const QString& runs) {
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setFullSpeed();
  w->setRunsRoot(dir_.filePath(runs));
  w->resize(1024, 768);
  w->show();
  return w;
}

QString TstLayout::writeConfig(const QString& name, const char* json) {
  const QString path = dir_.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(json);
  return path;
}

void TstLayout::nothingIsClippedOrOverlaps_data() {
  QTest::addColumn<QString>("run");
  QTest::newRow("fashion-mnist, 2400 steps") << QStringLiteral("fashion");
  QTest::newRow("overfit-sine, 800 epochs") << QStringLiteral("sine");
}

void TstLayout::nothingIsClippedOrOverlaps() {
  QFETCH(QString, run);
  auto w = makeWindow(QStringLiteral("layout-") + run);
  if (run == QLatin1String("fashion")) {
    // Real images (captions with long class names), 10 classes, thousands of steps.
    const QString config = writeConfig(QStringLiteral("fashion.json"), R"({
      "name": "fashion-mnist-mlp", "data": {"source": "fashion-mnist", "seed": 7, "limit": 3000},
      "model": {"hidden": [64]}, "optimizer": {"name": "adam", "lr": 0.001},
      "training": {"epochs": 1, "batch_size": 1, "seed": 42, "num_threads": 1}})");
    QString error;
    QVERIFY2(w->openConfigFile(config, &error), qPrintable(error));
  } else {
    QVERIFY(w->loadPreset(QStringLiteral("overfit-sine")));
  }
  QSignalSpy finished(w->controller()->store(), &RunStore::runFinished);
  QVERIFY(w->startRun());
  QVERIFY(finished.wait(240000));
  QStringList problems;
  // As the dashboard is, then in presentation mode (a projector at 1024x768 or
  // 1280x720, texts 1.5x, tick labels 20 px).
  for (const bool presenting : {false, true}) {
    w->presentation()->setActive(presenting);
    for (const QSize& size : kSizes) {
      w->resize(size);
      for (const char* lang : kLanguages) {
        switchLanguage(QLatin1String(lang));
        problems << checkWindow(*w, QStringLiteral("%1%2x%3 %4")
                                        .arg(presenting ? QStringLiteral("presentation ") : QString())
                                        .arg(size.width())
                                        .arg(size.height())
                                        .arg(QLatin1String(lang)));
      }
    }
  }
  w->presentation()->setActive(false);
  for (const QString& p : problems) qInfo("%s", qPrintable(p));  // all of them, one per line
  QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 problem(s), the first: %2")
                                              .arg(problems.size())
                                              .arg(problems.value(0))));
}

void TstLayout::runControlsStayInView() {
  auto w = makeWindow(QStringLiteral("fold"));
  auto* toggle = w->findChild<QToolButton*>(QStringLiteral("modelDataToggle"));
  QVERIFY(toggle);
  toggle->setChecked(true);  // "Model, data and device" open
  QStringList problems;
  for (const QSize& size : kSizes) {
    w->resize(size);
    for (const char* lang : kLanguages) {
      switchLanguage(QLatin1String(lang));
      settle(*w);
      for (const char* name :
           {"startButton", "pauseButton", "stopButton", "stepButton", "stepEpochButton"}) {
        auto* b = w->findChild<QPushButton*>(QLatin1String(name));
        QVERIFY(b);
        // Wholly in view: not scrolled out of the left column, not cut by the window's edge.
        if (b->visibleRegion() != QRegion(b->rect()))
          problems << QStringLiteral("%1x%2 %3: %4 not wholly visible")
                          .arg(size.width())
                          .arg(size.height())
                          .arg(QLatin1String(lang), QLatin1String(name));
      }
    }
  }
  toggle->setChecked(false);
  QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TstLayout::plotsDoNotMoveWhenPanelsAppear() {
  auto w = makeWindow(QStringLiteral("jump"));
  auto* loss = w->findChild<LossPlot*>(QStringLiteral("lossPlot"));
  auto* grad = w->findChild<GradNormPlot*>(QStringLiteral("gradNormPlot"));
  QVERIFY(loss && grad);
  settle(*w);
  const QRect loss_at(loss->mapTo(w.get(), QPoint()), loss->size());
  const QRect grad_at(grad->mapTo(w.get(), QPoint()), grad->size());
  auto where = [&](QWidget* p) { return QRect(p->mapTo(w.get(), QPoint()), p->size()); };
  // Two runs on the same data: the second shows the first as a ghost, with "Clear previous
  // run" in the loss plot's bar.
  for (int i = 0; i < 2; ++i) {
    QVERIFY(w->loadPreset(QStringLiteral("moons")));
    w->findChild<QSpinBox*>(QStringLiteral("epochsSpinBox"))->setValue(1);
    QSignalSpy finished(w->controller()->store(), &RunStore::runFinished);
    QVERIFY(w->startRun());
    QVERIFY(finished.wait(60000));
  }
  QVERIFY(w->controller()->store()->hasGhost());
  settle(*w);
  QCOMPARE(where(loss), loss_at);
  QCOMPARE(where(grad), grad_at);
  // The non-finite panel: exploding pauses on its first non-finite step.
  QVERIFY(w->loadPreset(QStringLiteral("exploding")));
  auto* panel = w->findChild<NonFinitePanel*>(QStringLiteral("nonFinitePanel"));
  QVERIFY(w->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible(), 60000);
  settle(*w);
  QCOMPARE(where(loss), loss_at);
  QCOMPARE(where(grad), grad_at);
  // Nothing else of the window is covered by it.
  QStringList problems;
  layout_checks::checkOverlaps(w.get(), &problems);
  QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
  w->controller()->stop();
  QTRY_VERIFY(!w->controller()->isActive());
}

void TstLayout::lrFinderLabelsFit() {
  auto w = makeWindow(QStringLiteral("lrfind"));
  QVERIFY(w->loadPreset(QStringLiteral("moons")));
  auto* button = w->findChild<QPushButton*>(QStringLiteral("lrFindButton"));
  QVERIFY(button);
  button->click();
  auto* dialog = w->findChild<LrFindDialog*>(QStringLiteral("lrFindDialog"));
  QVERIFY(dialog);
  QSignalSpy done(dialog, &LrFindDialog::finished);
  QVERIFY(done.count() > 0 || done.wait(60000));
  QVERIFY2(dialog->result().has_value(), qPrintable(dialog->error()));
  QVERIFY(dialog->plot()->suggestionLabel());
  QStringList problems;
  for (const char* lang : kLanguages) {
    switchLanguage(QLatin1String(lang));
    QCoreApplication::processEvents();
    layout_checks::checkTexts(dialog, &problems);
    layout_checks::checkPlots(dialog, &problems);
  }
  dialog->close();
  QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

TRAINSCOPE_GUI_TEST_MAIN(TstLayout)
}  // namespace tst_layout_suite
#include "tst_layout.moc"

// The plots' side of issue 19's dashboard details: the clipped gradient curve stays visible
// beside its max_norm line (linear and log axes), hovering a clipped step names the norm before
// and after clipping, and the previous run's ghost never widens the axes (nor adds markers).
// Drawn from hand-made histories; expected values from the arithmetic in the comments.
#include <QDirIterator>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QTimer>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>
#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>
#include <random>

#include "gui/event_text.h"
#include "gui/plots/dense_graph.h"
#include "gui/plots/epoch_plots.h"
#include "gui/plots/lr_find_plot.h"
#include "gui/plots/training_plots.h"
#include "gui/views/evaluation_view.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_plot_details_suite {

using namespace trainscope;

namespace {

/// Columns x0..x1 of `image` with a pixel within `tolerance` (per channel) of `color` in rows
/// y-3..y+3, as a share of the columns.
double shareOfColumnsWith(const QImage& image, int x0, int x1, int y, const QColor& color,
                          int tolerance) {
  int hit = 0, all = 0;
  for (int x = x0; x <= x1; ++x, ++all) {
    for (int dy = -3; dy <= 3; ++dy) {
      const QColor c = image.pixelColor(x, y + dy);
      if (std::abs(c.red() - color.red()) <= tolerance &&
          std::abs(c.green() - color.green()) <= tolerance &&
          std::abs(c.blue() - color.blue()) <= tolerance) {
        ++hit;
        break;
      }
    }
  }
  return all > 0 ? double(hit) / all : 0;
}

/// The rows of column `x` of `image` whose pixel is darker than `level` (any channel): the
/// first and last such row, or false when none.
bool inkRows(const QImage& image, int x, int level, int* top, int* bottom) {
  *top = -1;
  for (int y = 0; y < image.height(); ++y) {
    const QColor c = image.pixelColor(x, y);
    if (std::min({c.red(), c.green(), c.blue()}) < level) {
      if (*top < 0) *top = y;
      *bottom = y;
    }
  }
  return *top >= 0;
}

/// A plot of one graph (created by `make` on the plot's axes) drawing `keys`/`values` with
/// `pen`, rendered at 600x300 with fixed axes and no antialiasing (the reference is QPainter's
/// own line). `spans` (optional): whether the graph, a DenseGraph, filled spans; `axisRect`
/// (optional): the axis rect in the image.
template <typename Make>
QImage renderGraph(Make make, const QVector<double>& keys, const QVector<double>& values,
                   const QPen& pen, bool* spans = nullptr, QRect* axisRect = nullptr) {
  QCustomPlot plot;
  plot.setNotAntialiasedElements(QCP::aeAll);
  plot.setPlottingHint(QCP::phFastPolylines, true);
  QCPGraph* g = make(plot.xAxis, plot.yAxis);
  // The reference strokes every point (QCustomPlot's adaptive sampling is an approximation).
  g->setAdaptiveSampling(qobject_cast<DenseGraph*>(g) != nullptr);
  g->setPen(pen);
  g->setData(keys, values, true);
  plot.xAxis->setRange(keys.front(), keys.back());
  plot.yAxis->setRange(-60, 60);
  plot.resize(600, 300);
  const QImage image = plot.toPixmap(600, 300).toImage();
  if (axisRect) *axisRect = plot.axisRect()->rect();
  if (spans) {
    auto* dense = qobject_cast<DenseGraph*>(g);
    *spans = dense && dense->drewLineSpans();
  }
  return image;
}

}  // namespace

class TstPlotDetails : public QObject {
  Q_OBJECT
 private slots:
  void clippedCurveShowsBesideItsThreshold();
  void hoverAtAClippedStepSaysBeforeAndAfter();
  void ghostNeverWidensTheAxes();
  void graphsBindRunAndSeries();
  void lrFindPlotDrawsTheSweepByName();
  void noGraphIndexOutsideThePlotsLayer();
  void columnEnvelopeInterpolatesEachColumn();
  void denseLineCoversWhatQPainterStrokes();
  void denseTranslucentLineBlendsTwice();
  void denseChannelFillCoversTheChannel();
  void stampedScattersLookDrawn();
  void epochMarkersOnlyWhileFew();
  void hiddenViewsDrawWhenShown();
  void denseLineEdgesAndHugeValues();
  void gradNormGoesLogOverTwoDecades();
  void smoothingSuitsTheRunLength();
  void teachingBannerFitsInPresentation();
};

// Issue 43 item 15: the teaching banner was cut at both ends at 1024x768 in presentation mode
// ("ACHING – mistakes on purpos"): wrapped with the font as drawn, every line fits the plot and
// no word is lost.
void TstPlotDetails::teachingBannerFitsInPresentation() {
  for (int width : {300, 360, 520}) {
    // The run starts in a wide window; then presentation mode and a narrower plot (the window
    // resized, a side view opened): the banner follows at each replot.
    LossPlot plot;
    plot.resize(900, 320);
    plot.show();  // a hidden widget gets its size (and the plot its viewport) only when shown
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    const std::vector<std::string> names = {"no_zero_grad", "eval_in_train_mode", "lr_x1000"};
    plot.setMistakes(names);
    plot.replot();
    plot.setPresentation(1.5, 1.5);
    plot.resize(width, 320);
    QCoreApplication::processEvents();
    plot.replot();
    plot.replot();  // the second lays out with the wrapped text
    auto* banner = plot.findChild<QCPTextElement*>(QStringLiteral("lossMistakesBanner"));
    QVERIFY(banner);
    const QFontMetrics fm(banner->font());
    QVERIFY2(banner->font().pointSizeF() > plot.font().pointSizeF() * 1.2 ||
                 banner->font().pixelSize() > 0,
             "the banner is drawn at the presentation size");
    for (const QString& line : banner->text().split(QLatin1Char('\n')))
      QVERIFY2(fm.horizontalAdvance(line) <= width,
               qPrintable(QStringLiteral("%1 px: \"%2\" is %3 px").arg(width).arg(line)
                              .arg(fm.horizontalAdvance(line))));
    QString joined = banner->text();
    joined.replace(QLatin1Char('\n'), QLatin1Char(' '));
    QCOMPARE(joined.simplified(), EventText::mistakesBanner(names).simplified());
  }
}

// Issue 43 item 19: at a run's start the loss plot's EMA weight suits the run's length
// (emaWeightForRun: none for a 20-step lesson run, 0.8 for 100 steps) until the user picks one.
void TstPlotDetails::smoothingSuitsTheRunLength() {
  auto* plot = new LossPlot;
  PlotView view(plot, QStringLiteral("loss"));
  auto* strength = view.findChild<QDoubleSpinBox*>(QStringLiteral("lossSmoothingSpinBox"));
  QVERIFY(strength);
  QCOMPARE(plot->smoothingStrength(), 0.95);  // before any run
  view.suggestSmoothingForRun(20);
  QCOMPARE(plot->smoothingStrength(), 0.0);
  QCOMPARE(strength->value(), 0.0);
  view.suggestSmoothingForRun(100);
  QCOMPARE(plot->smoothingStrength(), 0.8);
  strength->setValue(0.5);  // the user's choice stays over the next runs
  view.suggestSmoothingForRun(20000);
  QCOMPARE(plot->smoothingStrength(), 0.5);
}

// Issue 43 item 13: the gradient-norm plot goes to a log axis when its visible values span more
// than two decades (the clipping lesson: norms near 400 clipped to 1), the bar's box follows,
// a click on the box is the user's choice from then on, a new run starts linear again, and the
// box stays in presentation mode (the bar's other controls hide).
void TstPlotDetails::gradNormGoesLogOverTwoDecades() {
  RunHistory h;
  auto* plot = new GradNormPlot;
  PlotView view(plot, QStringLiteral("grad"));
  plot->setHistory(&h);
  plot->setClipping(false, 0);
  for (int s = 1; s <= 50; ++s) h.append(series::kStepGradNorm, s, 1.5 + 0.5 * s);  // 2..26.5
  plot->sync();
  QVERIFY(!plot->logScale());  // 1.2 decades: linear
  QVERIFY(!view.logScaleBox()->isChecked());
  for (int s = 51; s <= 60; ++s) h.append(series::kStepGradNorm, s, 400);  // 400 / 2: 2.3 decades
  plot->sync();
  QVERIFY(plot->logScale());
  QVERIFY(view.logScaleBox()->isChecked());
  // A new run: linear again until its own values span two decades.
  h.clear();
  plot->sync();
  QVERIFY(!plot->logScale());
  QVERIFY(!view.logScaleBox()->isChecked());
  // The clipping lesson: the raw norm steady near 400, the used norm clipped to max_norm 1.
  plot->setClipping(true, 1.0);
  for (int s = 1; s <= 30; ++s) {
    h.append(series::kStepGradNorm, s, 380 + s);
    h.append(series::kStepGradNormClipped, s, 1.0);
    h.append(series::kStepMaxNorm, s, 1.0);
    h.append(series::kStepClipped, s, 380 + s);
  }
  plot->sync();
  QVERIFY(plot->logScale());
  // The user's click decides from then on: linear stays linear over any span.
  view.logScaleBox()->click();
  QVERIFY(!plot->logScale());
  h.append(series::kStepGradNorm, 31, 1e6);
  plot->sync();
  QVERIFY(!plot->logScale());
  QVERIFY(!view.logScaleBox()->isChecked());
  // Presentation mode hides the bar: the plot's own context menu has the log scale (checked as
  // the axis is), and choosing it there switches the axis and the bar's box.
  view.show();
  view.setBarShown(false);
  QVERIFY(view.logScaleBox()->isHidden());
  QAction* log = nullptr;
  QTimer::singleShot(200, [&] {
    for (QMenu* menu : plot->findChildren<QMenu*>())
      for (QAction* a : menu->actions())
        if (a->text() == QStringLiteral("Log scale")) log = a;
    if (log) {
      QVERIFY(!log->isChecked());
      log->trigger();
    }
    for (QMenu* menu : plot->findChildren<QMenu*>()) menu->close();
  });
  emit plot->customContextMenuRequested(QPoint(20, 20));
  QVERIFY(log);
  QVERIFY(plot->logScale());
  QVERIFY(view.logScaleBox()->isChecked());
  view.setBarShown(true);
  QVERIFY(!view.logScaleBox()->isHidden());
}

void TstPlotDetails::clippedCurveShowsBesideItsThreshold() {
  // 100 steps all clipped from a norm of ~50 to max_norm 1: the used norm equals max_norm at
  // every step, so the two curves lie on one another.
  RunHistory h;
  for (int s = 1; s <= 100; ++s) {
    h.append(series::kStepGradNorm, s, 50 + 0.1 * s);
    h.append(series::kStepGradNormClipped, s, 1.0);
    h.append(series::kStepMaxNorm, s, 1.0);
    h.append(series::kStepClipped, s, 50 + 0.1 * s);
  }
  GradNormPlot plot;
  plot.setHistory(&h);
  plot.setClipping(true, 1.0);
  plot.setLegendShown(false);
  plot.resize(600, 320);
  for (bool log : {false, true}) {
    plot.setLogScale(log);
    plot.sync();
    const QImage image = plot.toPixmap(600, 320).toImage();
    const int y = qRound(plot.yAxis->coordToPixel(1.0));
    const int x0 = qRound(plot.xAxis->coordToPixel(5)), x1 = qRound(plot.xAxis->coordToPixel(95));
    QVERIFY(x1 - x0 > 100);
    const QColor used = plot.graphFor(series::kStepGradNormClipped)->pen().color();
    const QColor limit = plot.graphFor(series::kStepMaxNorm)->pen().color();
    QVERIFY(used != limit);
    // Both curves show along the whole run: the used one in (nearly) every column, the dashed
    // threshold in at least 40 % of them (its dashes).
    const double used_share = shareOfColumnsWith(image, x0, x1, y, used, 40);
    const double limit_share = shareOfColumnsWith(image, x0, x1, y, limit, 40);
    QVERIFY2(
        used_share > 0.9,
        qPrintable(QStringLiteral("log %1: used curve in %2 of columns").arg(log).arg(used_share)));
    QVERIFY2(
        limit_share > 0.4,
        qPrintable(QStringLiteral("log %1: max_norm in %2 of columns").arg(log).arg(limit_share)));
  }
}

void TstPlotDetails::hoverAtAClippedStepSaysBeforeAndAfter() {
  RunHistory h;
  for (int s = 200; s <= 220; ++s) {
    const double norm = s == 211 ? 56.77 : 0.5;  // only step 211 is clipped
    h.append(series::kStepGradNorm, s, norm);
    h.append(series::kStepGradNormClipped, s, std::min(norm, 1.0));
    h.append(series::kStepMaxNorm, s, 1.0);
    if (norm > 1) h.append(series::kStepClipped, s, norm);
  }
  GradNormPlot plot;
  plot.setHistory(&h);
  plot.setClipping(true, 1.0);
  plot.resize(600, 320);
  plot.sync();
  plot.replot();
  const QPoint at(qRound(plot.xAxis->coordToPixel(211)), qRound(plot.yAxis->coordToPixel(56.77)));
  const QString text = plot.readoutText(at);
  QVERIFY2(text.contains(QStringLiteral("211")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("before clipping 56.77 → after 1")), qPrintable(text));
  // Away from the clipped step, the plain readout of the nearest curve.
  const QPoint calm(qRound(plot.xAxis->coordToPixel(205)), qRound(plot.yAxis->coordToPixel(0.5)));
  QVERIFY2(!plot.readoutText(calm).contains(QStringLiteral("before clipping")),
           qPrintable(plot.readoutText(calm)));
}

void TstPlotDetails::ghostNeverWidensTheAxes() {
  // The previous run: 1000 steps with losses up to 1e23 (and an inf); this run: 10 steps of
  // losses in [0.5, 1].
  RunHistory h, previous;
  for (int s = 100; s <= 1000; s += 100) {
    previous.append(series::kEpochTrainLoss, s, 1e23);
    previous.append(series::kEpochValLoss, s, s == 1000 ? INFINITY : 1e22);
  }
  for (int s = 1; s <= 10; ++s) {
    h.append(series::kStepLoss, s, 1.0 - 0.05 * s);
    if (s % 5 == 0) {
      h.append(series::kEpochTrainLoss, s, 0.9);
      h.append(series::kEpochValLoss, s, 0.95);
    }
  }
  LossPlot plot;
  plot.setHistory(&h);
  plot.setRun(runs::kPrevious, &previous);
  plot.setGhostChanges({}, QStringLiteral("exploding"));
  plot.resize(600, 320);
  for (bool log : {false, true}) {
    plot.setLogScale(log);
    plot.sync();
    // Steps 1..10 and losses 0.5..1 plus the plot's margin of 5 % (of the span, or of the
    // decades on a log axis): far below 1e22, far left of step 100.
    QVERIFY2(plot.yAxis->range().upper < 2, qPrintable(QString::number(plot.yAxis->range().upper)));
    QVERIFY2(plot.xAxis->range().upper <= 10,
             qPrintable(QString::number(plot.xAxis->range().upper)));
    QCOMPARE(plot.markerCount(), 0);  // the ghost's inf is not this run's
  }
  QVERIFY(plot.ghostShown());
  QVERIFY2(plot.ghostDescription().contains(QStringLiteral("exploding")),
           qPrintable(plot.ghostDescription()));
}

void TstPlotDetails::graphsBindRunAndSeries() {
  // Two runs with the same series names: each graph draws its own run's points, and when the
  // shown run becomes the previous one (swap, as a new run starts) both redraw from scratch.
  RunHistory shown, previous;
  for (int s = 1; s <= 5; ++s) shown.append(series::kEpochValLoss, 10 * s, 1.0 / s);
  for (int s = 1; s <= 3; ++s) previous.append(series::kEpochValLoss, 100 * s, 7.0);
  LossPlot plot;
  plot.setHistory(&shown);
  plot.setRun(runs::kPrevious, &previous);
  plot.sync();
  QCOMPARE(plot.pointCount(series::kEpochValLoss), 5);
  QCOMPARE(plot.pointCount(runs::kPrevious, series::kEpochValLoss), 3);
  auto first = [&](const std::string& run) {
    return plot.graphFor(run, series::kEpochValLoss)->data()->constBegin()->key;
  };
  QCOMPARE(first(runs::kShown), 10.0);
  QCOMPARE(first(runs::kPrevious), 100.0);
  QVERIFY(plot.ghostShown());

  previous.swap(shown);  // the shown run becomes the previous one; a new run starts empty
  shown.clear();
  shown.append(series::kEpochValLoss, 1, 0.5);
  plot.sync();
  QCOMPARE(plot.pointCount(series::kEpochValLoss), 1);
  QCOMPARE(plot.pointCount(runs::kPrevious, series::kEpochValLoss), 5);
  QCOMPARE(first(runs::kShown), 1.0);
  QCOMPARE(first(runs::kPrevious), 10.0);

  previous.clear();  // "Clear previous run"
  plot.sync();
  QCOMPARE(plot.pointCount(runs::kPrevious, series::kEpochValLoss), 0);
  QVERIFY(!plot.ghostShown());
  plot.setRun(runs::kPrevious, nullptr);  // no run bound: nothing drawn, nothing read
  plot.sync();
  QCOMPARE(plot.pointCount(runs::kPrevious, series::kEpochValLoss), 0);
  QCOMPARE(plot.pointCount(series::kEpochValLoss), 1);
}

void TstPlotDetails::lrFindPlotDrawsTheSweepByName() {
  // A sweep of 5 steps, lr 1e-4 .. 1, the last one diverged; suggestion 1e-2.
  LrFinderResult r;
  const double lrs[] = {1e-4, 1e-3, 1e-2, 1e-1, 1};
  const double losses[] = {2.0, 1.8, 1.2, 1.5, 40};
  for (int i = 0; i < 5; ++i) r.points.push_back({lrs[i], losses[i], losses[i] * 0.9});
  r.stopped_early = true;
  r.suggested_lr = 1e-2;
  LrFindPlot plot;
  plot.resize(640, 360);
  plot.showResult(r);
  QCOMPARE(plot.pointCount(LrFindPlot::kLrFindLoss), 5);
  QCOMPARE(plot.pointCount(LrFindPlot::kLrFindSmoothed), 5);
  QCOMPARE(plot.markedLr(), 1e-2);
  QVERIFY(plot.suggestionLabel() &&
          plot.suggestionLabel()->text().contains(QStringLiteral("0.01")));
  // The axes: every learning rate; the smoothed loss without the diverged last point
  // (0.9 * 1.2 .. 0.9 * 2.0 = 1.08 .. 1.8) plus 10 % of that span.
  QCOMPARE(plot.xAxis->range().lower, 1e-4);
  QCOMPARE(plot.xAxis->range().upper, 1.0);
  QVERIFY(std::abs(plot.yAxis->range().lower - (1.08 - 0.072)) < 1e-9);
  QVERIFY(std::abs(plot.yAxis->range().upper - (1.8 + 0.072)) < 1e-9);
}

void TstPlotDetails::noGraphIndexOutsideThePlotsLayer() {
  // Charts bind named series (gui/plots/live_plot.h); a graph index outside gui/plots/ breaks
  // silently when a curve is added. QCustomPlot's index API: graph(i) (graph() without an
  // index is the newest graph, as addGraph() returns it).
  static const QRegularExpression index_api(QStringLiteral(R"((->|\.)graph\(\s*[^)\s])"));
  QStringList offenders;
  QDirIterator it(QStringLiteral(TRAINSCOPE_GUI_SOURCE_DIR), {QStringLiteral("*.cpp")}, QDir::Files,
                  QDirIterator::Subdirectories);
  int files = 0;
  while (it.hasNext()) {
    const QString path = it.next();
    ++files;
    if (path.contains(QLatin1String("/plots/"))) continue;
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    int line = 0;
    while (!f.atEnd()) {
      ++line;
      if (index_api.match(QString::fromUtf8(f.readLine())).hasMatch())
        offenders << QStringLiteral("%1:%2").arg(path).arg(line);
    }
  }
  QVERIFY(files > 20);
  QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
}

void TstPlotDetails::columnEnvelopeInterpolatesEachColumn() {
  // (0.5, 10) -> (3.5, 40): y = 10 + 10 (x - 0.5), so 15 at x = 1, 25 at 2, 35 at 3.
  const QRect bounds(0, 0, 10, 100);
  ColumnEnvelope e = columnEnvelope({QPointF(0.5, 10), QPointF(3.5, 40)}, bounds);
  const double lo[] = {10, 15, 25, 35}, hi[] = {15, 25, 35, 40};
  for (int c = 0; c < 4; ++c) {
    QVERIFY(e.has(c));
    QCOMPARE(e.lo[c], lo[c]);
    QCOMPARE(e.hi[c], hi[c]);
  }
  for (int c = 4; c < 10; ++c) QVERIFY(!e.has(c));
  // A non-finite point breaks the line: nothing is drawn between 1.5 and 5.5.
  e = columnEnvelope({QPointF(0.5, 10), QPointF(1.5, 20), QPointF(qQNaN(), qQNaN()),
                      QPointF(5.5, 50), QPointF(6.5, 60)},
                     bounds);
  QCOMPARE(e.lo[1], 15.0);
  QCOMPARE(e.hi[1], 20.0);
  for (int c = 2; c <= 4; ++c) QVERIFY2(!e.has(c), qPrintable(QString::number(c)));
  QCOMPARE(e.lo[5], 50.0);
  QCOMPARE(e.hi[6], 60.0);
  // Values far off the plot are clamped (a span still reaches the edge, within int).
  e = columnEnvelope({QPointF(0.5, -1e30), QPointF(0.9, 1e30)}, bounds);
  QVERIFY(e.lo[0] >= -200 && e.lo[0] < 0);
  QVERIFY(e.hi[0] > 100 && e.hi[0] <= 300);
  // A 3-px pen: one more pixel up and left, one more down and right.
  e = columnEnvelope({QPointF(0.5, 10), QPointF(3.5, 40)}, bounds);
  const QVector<QRect> thin = columnSpans(e, 1), wide = columnSpans(e, 3);
  QCOMPARE(thin.size(), 4);
  QCOMPARE(thin[1], QRect(1, 15, 1, 11));  // rows 15..25
  QCOMPARE(wide.size(), 5);                // columns -1..4, of which 0..4 are in bounds
  QCOMPARE(wide.front().left(), 0);
  QCOMPARE(wide[1], QRect(1, 9, 1, 28));  // columns 0..2 (10..35), one row more each side
}

void TstPlotDetails::denseLineCoversWhatQPainterStrokes() {
  // 30,000 points of a noisy random walk with spikes over 600 px: QCPGraph strokes every
  // point (the reference), DenseGraph fills per-column spans of its own samples. The ink of
  // every pixel column must match the other image's within a pixel in any direction (where a
  // near-vertical segment sits on a column boundary QPainter may draw it in either column).
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0.0, 4.0);
  QVector<double> keys, values;
  double walk = 0;
  for (int i = 0; i < 30000; ++i) {
    walk = std::clamp(walk + noise(rng) * 0.2, -30.0, 30.0);
    keys << i;
    values << walk + noise(rng) + (i % 997 == 0 ? 25 : 0);
  }
  const QPen pen(Qt::black, 1);
  bool drew_spans = false;
  QRect rect;
  const QImage reference = renderGraph(
      [](QCPAxis* x, QCPAxis* y) { return new QCPGraph(x, y); }, keys, values, pen, nullptr, &rect);
  const QImage spans = renderGraph([](QCPAxis* x, QCPAxis* y) { return new DenseGraph(x, y); },
                                   keys, values, pen, &drew_spans);
  QVERIFY(drew_spans);
  // Ink rows per column inside the axis rect (the axes' own lines and labels left out).
  auto rows = [&](const QImage& image) {
    std::vector<std::pair<int, int>> r(static_cast<std::size_t>(image.width()), {INT_MAX, INT_MIN});
    for (int x = rect.left() + 1; x < rect.right(); ++x)
      for (int y = rect.top() + 1; y < rect.bottom(); ++y) {
        const QColor c = image.pixelColor(x, y);
        if (std::min({c.red(), c.green(), c.blue()}) < 128) {
          r[x].first = std::min(r[x].first, y);
          r[x].second = std::max(r[x].second, y);
        }
      }
    return r;
  };
  const auto ref = rows(reference), got = rows(spans);
  // Is [lo, hi] of column x in `a` within the rows of columns x-1..x+1 of `b`, plus a pixel?
  auto covered = [](const std::vector<std::pair<int, int>>& a,
                    const std::vector<std::pair<int, int>>& b, int x) {
    int lo = INT_MAX, hi = INT_MIN;
    for (int k = x - 1; k <= x + 1; ++k) {
      lo = std::min(lo, b[k].first);
      hi = std::max(hi, b[k].second);
    }
    return a[x].first >= lo - 1 && a[x].second <= hi + 1;
  };
  int compared = 0, bad = 0;
  QString first_bad;
  for (int x = rect.left() + 2; x < rect.right() - 1; ++x) {
    QCOMPARE(got[x].first == INT_MAX, ref[x].first == INT_MAX);
    if (ref[x].first == INT_MAX) continue;
    ++compared;
    if (!covered(ref, got, x) || !covered(got, ref, x)) {
      ++bad;
      if (first_bad.isEmpty())
        first_bad = QStringLiteral("column %1: reference %2..%3, spans %4..%5")
                        .arg(x)
                        .arg(ref[x].first)
                        .arg(ref[x].second)
                        .arg(got[x].first)
                        .arg(got[x].second);
    }
  }
  QVERIFY(compared > 450);
  QVERIFY2(bad == 0, qPrintable(QStringLiteral("%1 of %2 columns differ; %3").arg(bad).arg(compared).arg(first_bad)));
}

void TstPlotDetails::denseTranslucentLineBlendsTwice() {
  // A translucent pen over white: a zig-zag's up and down strokes each cover a dense column,
  // so the column shows the colour blended twice: alpha a -> 1 - (1 - a)^2.
  QVector<double> keys, values;
  for (int i = 0; i < 20000; ++i) {
    keys << i;
    values << (i % 2 ? 40 : -40);  // every column spans -40..40
  }
  const QColor color(0, 0, 255, 100);
  bool drew_spans = false;
  const QImage image = renderGraph([](QCPAxis* x, QCPAxis* y) { return new DenseGraph(x, y); },
                                   keys, values, QPen(color, 1), &drew_spans);
  QVERIFY(drew_spans);
  const double a = 100 / 255.0, twice = 1 - (1 - a) * (1 - a);
  const int expected = qRound(255 * (1 - twice));  // red and green over white
  const QColor mid = image.pixelColor(300, 150);
  QVERIFY2(std::abs(mid.red() - expected) <= 2 && std::abs(mid.green() - expected) <= 2 &&
               mid.blue() == 255,
           qPrintable(QStringLiteral("%1 %2 %3, expected %4 %4 255")
                          .arg(mid.red())
                          .arg(mid.green())
                          .arg(mid.blue())
                          .arg(expected)));
}

void TstPlotDetails::denseChannelFillCoversTheChannel() {
  // Two noisy curves 1,000 points each over 600 px, the upper 15 above the lower; the fill
  // between them (opaque red, no pens) as QCPGraph's polygon and as DenseGraph's spans: the
  // red rows of every column agree within a pixel (both take the curves at the column's
  // centre).
  std::mt19937 rng(5);
  std::normal_distribution<double> noise(0.0, 6.0);
  QVector<double> keys, low, high;
  for (int i = 0; i < 1000; ++i) {
    keys << i;
    low << noise(rng) - 10;
    high << low.back() + 15;
  }
  auto render = [&](bool dense, bool* filled) {
    QCustomPlot plot;
    plot.setNotAntialiasedElements(QCP::aeAll);
    QCPGraph* l = dense ? new DenseGraph(plot.xAxis, plot.yAxis) : new QCPGraph(plot.xAxis, plot.yAxis);
    QCPGraph* h = dense ? new DenseGraph(plot.xAxis, plot.yAxis) : new QCPGraph(plot.xAxis, plot.yAxis);
    l->setData(keys, low, true);
    h->setData(keys, high, true);
    for (QCPGraph* g : {l, h}) g->setPen(Qt::NoPen);
    h->setBrush(QColor(255, 0, 0));
    h->setChannelFillGraph(l);
    plot.xAxis->setRange(0, 999);
    plot.yAxis->setRange(-60, 60);
    plot.resize(600, 300);
    const QImage image = plot.toPixmap(600, 300).toImage();
    if (auto* d = qobject_cast<DenseGraph*>(h)) *filled = d->drewFillSpans();
    return image;
  };
  bool filled = false;
  const QImage reference = render(false, &filled), spans = render(true, &filled);
  QVERIFY(filled);
  int compared = 0, close = 0;
  for (int x = 60; x < 590; ++x) {
    int t0 = 0, b0 = 0, t1 = 0, b1 = 0;
    if (!inkRows(reference, x, 200, &t0, &b0)) continue;
    QVERIFY(inkRows(spans, x, 200, &t1, &b1));
    ++compared;
    if (std::abs(t0 - t1) <= 1 && std::abs(b0 - b1) <= 1) ++close;
  }
  QVERIFY(compared > 450);
  QVERIFY2(close >= 0.98 * compared, qPrintable(QStringLiteral("%1 of %2").arg(close).arg(compared)));
}

void TstPlotDetails::stampedScattersLookDrawn() {
  // 300 filled circles (the model view's training points): drawn one by one by QCPGraph and
  // stamped by DenseGraph. Antialiased as in the model view: the same ink in all (the sum of
  // every pixel's darkness; each centre moves by half a pixel at most) and each centre has
  // the brush colour.
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> where(-50, 50);
  QVector<double> xs, ys;
  for (int i = 0; i < 300; ++i) {
    xs << where(rng);
    ys << where(rng);
  }
  std::vector<int> order(300);
  std::iota(order.begin(), order.end(), 0);
  const QColor fill(31, 119, 180);
  auto render = [&](bool dense, bool* stamped) {
    QCustomPlot plot;
    QCPGraph* g = dense ? new DenseGraph(plot.xAxis, plot.yAxis) : new QCPGraph(plot.xAxis, plot.yAxis);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, fill.darker(120), fill, 7));
    QCPGraphDataContainer* data = g->data().data();
    for (int i : order) data->add(QCPGraphData(xs[i], ys[i]));
    plot.xAxis->setRange(-55, 55);
    plot.yAxis->setRange(-55, 55);
    plot.resize(500, 500);
    const QImage image = plot.toPixmap(500, 500).toImage();
    if (auto* d = qobject_cast<DenseGraph*>(g)) *stamped = d->drewStamps();
    QVector<QPoint> centres;
    for (int i = 0; i < 300; ++i)
      centres << QPoint(qRound(plot.xAxis->coordToPixel(xs[i])), qRound(plot.yAxis->coordToPixel(ys[i])));
    return std::make_pair(image, centres);
  };
  bool drew_stamps = false;
  const auto [reference, centres] = render(false, &drew_stamps);
  const auto [stamped, centres2] = render(true, &drew_stamps);
  QVERIFY(drew_stamps);
  auto ink = [](const QImage& image) {
    double sum = 0;
    for (int y = 0; y < 460; ++y)
      for (int x = 60; x < image.width(); ++x) sum += (255 - image.pixelColor(x, y).red()) / 255.0;
    return sum;
  };
  const double a = ink(reference), b = ink(stamped);
  QVERIFY2(a > 300 * 20 && std::abs(a - b) < 0.03 * a,
           qPrintable(QStringLiteral("%1 vs %2").arg(a).arg(b)));
  for (const QPoint& c : centres2) {
    if (c.x() < 60 || c.y() > 470) continue;  // under the axes
    const QColor at = stamped.pixelColor(c);
    QVERIFY2(std::abs(at.red() - fill.red()) < 40 && std::abs(at.blue() - fill.blue()) < 40,
             qPrintable(at.name()));
  }
}

void TstPlotDetails::epochMarkersOnlyWhileFew() {
  // A circle per epoch on the epoch curves (loss and accuracy) up to 60 epochs, none above:
  // 1,000 circles are a blob.
  for (int epochs : {60, 61}) {
    RunHistory h;
    for (int e = 1; e <= epochs; ++e) {
      h.append(series::kEpochTrainLoss, e * 10, 1.0 / e);
      h.append(series::kEpochValLoss, e * 10, 1.1 / e);
      h.append(series::kEpochTrainAccuracy, e * 10, 1 - 1.0 / e);
      h.append(series::kEpochValAccuracy, e * 10, 1 - 1.1 / e);
    }
    LossPlot loss;
    AccuracyPlot accuracy;
    loss.setHistory(&h);
    accuracy.setHistory(&h);
    loss.sync();
    accuracy.sync();
    const auto expected = epochs <= 60 ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssNone;
    for (QCPGraph* g : {loss.graphFor(series::kEpochTrainLoss), loss.graphFor(series::kEpochValLoss),
                        accuracy.graphFor(series::kEpochTrainAccuracy),
                        accuracy.graphFor(series::kEpochValAccuracy)})
      QVERIFY2(g->scatterStyle().shape() == expected, qPrintable(g->name()));
  }
}

void TstPlotDetails::hiddenViewsDrawWhenShown() {
  // A plot in a hidden tab is not replotted at each sync (30 times a second), nor a linked one
  // when the loss plot's step axis moves; it is drawn once when shown, with every point.
  RunHistory h;
  for (int s = 1; s <= 500; ++s) h.append(series::kStepLr, s, 1e-3);
  QWidget window;
  auto* tabs = new QTabWidget(&window);
  auto* lr = new LrPlot;
  auto* other = new QWidget;
  tabs->addTab(other, QStringLiteral("shown"));
  tabs->addTab(lr, QStringLiteral("hidden"));
  window.resize(600, 400);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  lr->setHistory(&h);
  int replots = 0;
  connect(lr, &QCustomPlot::afterReplot, this, [&] { ++replots; });
  for (int i = 0; i < 5; ++i) {
    lr->sync();
    QCoreApplication::processEvents();
  }
  QCOMPARE(replots, 0);
  QCOMPARE(lr->pointCount(series::kStepLr), 500);  // the data is synced all the same
  LossPlot loss;
  loss.linkStepAxis(lr);
  loss.xAxis->setRange(10, 20);
  QCoreApplication::processEvents();
  QCOMPARE(replots, 0);
  QCOMPARE(lr->xAxis->range().lower, 10.0);
  tabs->setCurrentWidget(lr);
  QCoreApplication::processEvents();
  QVERIFY(replots >= 1);
  const int shown = replots;
  lr->sync();  // visible: a queued replot again
  QTRY_VERIFY(replots > shown);

  // The evaluation view's table of worst samples is filled when the view is shown.
  auto* eval = new EvaluationView;
  tabs->addTab(eval, QStringLiteral("evaluation"));
  ValidationDetail d;
  d.epoch = 3;
  d.n_classes = 2;
  d.confusion = {5, 1, 2, 4};
  for (int i = 0; i < 3; ++i) {
    WorstSample w;
    w.position = i;
    w.target = 1;
    w.predicted = 0;
    w.loss = 2.0 - i * 0.5;
    w.probability = 0.1;
    w.raw = {0.5f, -1.0f};
    d.worst.push_back(w);
  }
  eval->setDetail(d);
  auto* rows = eval->findChild<QTableWidget*>(QStringLiteral("worstRows"));
  QVERIFY(rows);
  QCOMPARE(rows->rowCount(), 0);
  tabs->setCurrentWidget(eval);
  QCoreApplication::processEvents();
  QCOMPARE(rows->rowCount(), 3);
  QCOMPARE(rows->item(0, 4)->text(), QStringLiteral("2"));  // the highest loss first
}

void TstPlotDetails::denseLineEdgesAndHugeValues() {
  // Found by a fresh user: (1) a gradient-norm spike at step 2 of 3,000 steps lies in the axis
  // rect's first pixel column, under the value axis' line: it must show in the next column;
  // (2) losses of ~1.4e38 (an exploding run) drew the dense curve at 0: the pixel mapping took
  // the difference of pixel(1) and pixel(0), which vanishes on such a range.
  for (double scale : {1.0, 1.44e38}) {
    QVector<double> keys, values;
    for (int s = 1; s <= 3000; ++s) {
      keys << s;
      values << scale * (s == 2 ? 380.0 : 1.0 + 0.3 * ((s * 7919) % 13) / 13.0);
    }
    QCustomPlot plot;
    plot.setNotAntialiasedElements(QCP::aeAll);
    auto* g = new DenseGraph(plot.xAxis, plot.yAxis);
    g->setPen(QPen(Qt::black, 1));
    g->setData(keys, values, true);
    plot.xAxis->setRange(1, 3000);
    plot.yAxis->setRange(-40 * scale, 400 * scale);  // the baseline off the axis line
    plot.resize(700, 300);
    const QImage image = plot.toPixmap(700, 300).toImage();
    QVERIFY(g->drewLineSpans());
    const QRect r = plot.axisRect()->rect();
    auto inked = [&](int x, int y) {
      const QColor c = image.pixelColor(x, y);
      return std::max({c.red(), c.green(), c.blue()}) < 100;
    };
    // The spike: column left + 1 is inked from near its value's row down to the baseline.
    const int spike = qRound(plot.yAxis->coordToPixel(380.0 * scale));
    const int base = qRound(plot.yAxis->coordToPixel(1.15 * scale));
    QVERIFY2(inked(r.left() + 1, spike + 1) && inked(r.left() + 1, (spike + base) / 2),
             qPrintable(QStringLiteral("scale %1: no spike beside the axis").arg(scale)));
    // The rest: ink near the values' rows (1.0-1.3 x scale), not at 0 or anywhere else.
    int at_values = 0, elsewhere = 0;
    const int hi_row = qRound(plot.yAxis->coordToPixel(1.35 * scale)) - 1;
    const int lo_row = qRound(plot.yAxis->coordToPixel(0.95 * scale)) + 1;
    for (int x = r.left() + 10; x < r.right() - 1; ++x)
      for (int y = r.top() + 1; y < r.bottom() - 8; ++y) {  // above the step axis' ticks
        if (!inked(x, y)) continue;
        (y >= hi_row && y <= lo_row ? at_values : elsewhere)++;
      }
    QVERIFY2(at_values > 500 && elsewhere == 0,
             qPrintable(QStringLiteral("scale %1: %2 at the values, %3 elsewhere")
                            .arg(scale)
                            .arg(at_values)
                            .arg(elsewhere)));
  }
}

TRAINSCOPE_GUI_TEST_MAIN(TstPlotDetails)
}  // namespace tst_plot_details_suite
#include "tst_plot_details.moc"

// The plots' side of issue 19's dashboard details: the clipped gradient curve stays visible
// beside its max_norm line (linear and log axes), hovering a clipped step names the norm before
// and after clipping, and the previous run's ghost never widens the axes (nor adds markers).
// Drawn from hand-made histories; expected values from the arithmetic in the comments.
#include <QDirIterator>
#include <QRegularExpression>
#include <QtTest>
#include <cmath>

#include "gui/plots/lr_find_plot.h"
#include "gui/plots/training_plots.h"

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
};

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

QTEST_MAIN(TstPlotDetails)
#include "tst_plot_details.moc"

#include "gui/plots/live_plot.h"

#include "gui/plots/palette.h"
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

#include "gui/plots/dense_graph.h"
#include "gui/plots/plot_export.h"
#include "gui/tr.h"

namespace trainscope {

namespace {

/// Log ticks that label 1-2-5 steps when the range spans less than about two decades, where
/// whole decades alone give one or two labels; QCPAxisTickerLog's decades otherwise.
class Log125Ticker : public QCPAxisTickerLog {
 protected:
  QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
    if (!(range.lower > 0) || range.upper / range.lower >= 100)
      return QCPAxisTickerLog::createTickVector(tickStep, range);
    QVector<double> ticks;
    const int first = static_cast<int>(std::floor(std::log10(range.lower)));
    const int last = static_cast<int>(std::ceil(std::log10(range.upper)));
    // 1-2-5 in each decade, or the decades alone where that is more than the plot's height
    // has room for (tickCount, fitValueTicks): a short plot at 1.5x fonts stacked labels.
    for (const auto& mantissas : {std::vector<double>{1.0, 2.0, 5.0}, std::vector<double>{1.0}}) {
      ticks.clear();
      for (int k = first; k <= last; ++k)
        for (double m : mantissas) {
          const double v = m * std::pow(10.0, k);
          if (v >= range.lower && v <= range.upper) ticks.append(v);
        }
      if (ticks.size() <= tickCount() + 1) break;
    }
    return ticks;
  }
  QVector<double> createSubTickVector(int subTickCount, const QVector<double>& ticks) override {
    if (ticks.size() > 1 && ticks[1] / ticks[0] < 9.99) return {};
    return QCPAxisTickerLog::createSubTickVector(subTickCount, ticks);
  }
};

// Graphs with this few points get a marker on every point (a single step is otherwise invisible).
constexpr int kMarkersMaxPoints = 20;
// Series marked with markPointsWhileFew() lose their markers above this many points (1,000
// epochs of circles are a blob, and cost 6 ms a replot).
constexpr int kPointMarkersMaxPoints = 60;
constexpr double kMarkerLevel = 0.96;  // markers sit just under the top edge (marker axis 0..1)
constexpr double kReadoutRadiusPx = 24;
// Antialiased lines cost ~5x more to draw: dense curves (thousands of points, where smoothing is
// invisible anyway) are drawn without it, short ones with it.
constexpr int kAntialiasedMaxPoints = 2000;

QString valueText(double v) {
  if (std::isnan(v)) return QStringLiteral("nan");
  if (std::isinf(v)) return v > 0 ? QStringLiteral("+inf") : QStringLiteral("-inf");
  return QString::number(v, 'g', 6);
}

}  // namespace

LivePlot::LivePlot(QWidget* parent) : QCustomPlot(parent) {
  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  setNoAntialiasingOnDrag(true);
  // One QPainter polyline per graph instead of a segment per point pair: an order of magnitude
  // faster for the long per-step curves.
  setPlottingHint(QCP::phFastPolylines, true);
  setMouseTracking(true);
  // Numbers in one notation in every language ("1.25·10^25", never "1.25E+25").
  setLocale(QLocale::c());
  // The legend sits in a row of its own above the axis rect: it never hides data.
  legend->setVisible(true);
  legend->setBrush(Qt::NoBrush);
  legend->setBorderPen(Qt::NoPen);
  legend->setFillOrder(QCPLegend::foColumnsFirst);
  legend->setWrap(3);
  legend->setRowSpacing(0);
  legend->setColumnSpacing(12);
  axisRect()->insetLayout()->take(legend);
  plotLayout()->insertRow(0);
  plotLayout()->addElement(0, 0, legend);
  plotLayout()->setRowStretchFactor(0, 0.001);
  plotLayout()->setRowSpacing(0);
  // The wheel zooms the step axis (Ctrl+wheel the value axis): three notches must not push
  // every curve off the plot.
  axisRect()->setRangeZoom(Qt::Horizontal);
  setMinimumHeight(160);
  installPlotExportMenu(this);  // right-click: save image, save data
  // x is the step: whole numbers only, whatever the zoom (no ticks at 1.5).
  QSharedPointer<QCPAxisTickerFixed> steps(new QCPAxisTickerFixed);
  steps->setTickStep(1.0);
  steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  xAxis->setTicker(steps);
  connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this] { fitStepTicks(); });
  // Presentation first: the titles are fitted with the fonts they are drawn in.
  connect(this, &QCustomPlot::beforeReplot, this, &LivePlot::applyPresentation);
  connect(this, &QCustomPlot::beforeReplot, this, &LivePlot::fitAxisTitles);
  connect(this, &QCustomPlot::afterLayout, this, [this] {
    laid_out_width_ = viewport().width();
    laid_out_height_ = viewport().height();
  });

  // Non-finite markers live on the (hidden) right axis, fixed to 0..1: they mark the top edge
  // at their step and never take part in the value range.
  marker_axis_ = yAxis2;
  marker_axis_->setRange(0, 1);
  marker_axis_->setVisible(false);
  const struct {
    QCPScatterStyle::ScatterShape shape;
    QColor color;
  } kinds[kNonFiniteKinds] = {
      {QCPScatterStyle::ssCross, palette::kNonFiniteMarkers[0]},
      {QCPScatterStyle::ssTriangle, palette::kNonFiniteMarkers[1]},
      {QCPScatterStyle::ssTriangleInverted, palette::kNonFiniteMarkers[2]},
  };
  for (int k = 0; k < kNonFiniteKinds; ++k) {
    QCPGraph* g = addGraph(xAxis, marker_axis_);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(kinds[k].shape, kinds[k].color, 9));
    g->setPen(QPen(kinds[k].color, 2));
    g->removeFromLegend();
    g->setLayer(QStringLiteral("overlay"));  // above every curve
    markers_[k] = g;
  }
  LivePlot::retranslate();
}

void LivePlot::retranslate() {
  markers_[static_cast<int>(NonFiniteKind::NaN)]->setName(Tr::tr("nan"));
  markers_[static_cast<int>(NonFiniteKind::PosInf)]->setName(Tr::tr("+inf"));
  markers_[static_cast<int>(NonFiniteKind::NegInf)]->setName(Tr::tr("-inf"));
}

QCPGraph* LivePlot::addSeriesGraph(const std::string& name, const QString& label) {
  return addRunGraph(runs::kShown, name, label);
}

QCPGraph* LivePlot::addRunGraph(const std::string& run, const std::string& name,
                                const QString& label) {
  QCPGraph* g = addDenseGraph();
  g->setName(label);
  Binding b;
  b.run = run;
  b.name = name;
  b.graph = g;
  b.in_range = run == runs::kShown;  // another run's curves never widen the axes
  bindings_.push_back(b);
  return g;
}

QCPGraph* LivePlot::addDenseGraph() {
  auto* g = new DenseGraph(xAxis, yAxis);
  g->setAdaptiveSampling(true);
  return g;
}

void LivePlot::setRun(const std::string& run, const RunHistory* history) {
  runs_[run] = history;
  marker_stamp_ = ~std::uint64_t{0};
}

const RunHistory* LivePlot::historyOf(const Binding& b) const {
  if (b.run == runs::kShown) return history_;
  auto it = runs_.find(b.run);
  return it == runs_.end() ? nullptr : it->second;
}

QCPGraph* LivePlot::graphFor(const std::string& run, const std::string& name) const {
  for (const Binding& b : bindings_)
    if (b.run == run && b.name == name) return b.graph;
  return nullptr;
}

int LivePlot::pointCount(const std::string& run, const std::string& name) const {
  const QCPGraph* g = graphFor(run, name);
  return g ? g->dataCount() : 0;
}

int LivePlot::markerCount() const {
  int n = 0;
  for (const QCPGraph* m : markers_) n += m->dataCount();
  return n;
}

void LivePlot::syncBinding(Binding& b) {
  const RunHistory* h = historyOf(b);
  const Series* s = h ? h->find(b.name) : nullptr;
  const std::uint64_t gen = h ? h->generation() : 0;
  if (!s) {
    if (b.copied != 0 || b.generation != gen) b.graph->data()->clear();
    b.copied = 0;
    b.generation = gen;
    return;
  }
  const BoundedSeries& v = s->values();
  const auto& pts = v.points();
  if (b.generation != gen || b.revision != v.revision() || b.copied > pts.size()) {
    // Folded (or a new run): copy everything again; at most the series' budget.
    QVector<QCPGraphData> data(static_cast<int>(pts.size()));
    for (std::size_t i = 0; i < pts.size(); ++i) data[static_cast<int>(i)] = {pts[i].x, pts[i].y};
    b.graph->data()->set(data, true);
  } else if (b.copied < pts.size()) {
    QVector<QCPGraphData> data(static_cast<int>(pts.size() - b.copied));
    for (std::size_t i = b.copied; i < pts.size(); ++i)
      data[static_cast<int>(i - b.copied)] = {pts[i].x, pts[i].y};
    b.graph->data()->add(data, true);
  }
  b.generation = gen;
  b.revision = v.revision();
  b.copied = pts.size();
  b.graph->setAntialiased(b.graph->dataCount() <= kAntialiasedMaxPoints);
  // Few points: a marker on each (graphs with a scatter style of their own keep it, or show it
  // while they have few points: markPointsWhileFew).
  const auto shape = b.graph->scatterStyle().shape();
  if (b.few_points_shape != QCPScatterStyle::ssNone) {
    QCPScatterStyle style = b.graph->scatterStyle();  // its size as styled (presentation)
    style.setShape(b.graph->dataCount() <= kPointMarkersMaxPoints ? b.few_points_shape
                                                                  : QCPScatterStyle::ssNone);
    b.graph->setScatterStyle(style);
  } else if (shape == QCPScatterStyle::ssNone || shape == QCPScatterStyle::ssDisc) {
    b.graph->setScatterStyle(b.graph->dataCount() <= kMarkersMaxPoints
                                 ? QCPScatterStyle(QCPScatterStyle::ssDisc, 5)
                                 : QCPScatterStyle());
  }
}

void LivePlot::markPointsWhileFew(const std::string& name) {
  for (Binding& b : bindings_)
    if (b.run == runs::kShown && b.name == name) b.few_points_shape = b.graph->scatterStyle().shape();
}

void LivePlot::setSeriesInRange(const std::string& name, bool inRange) {
  for (Binding& b : bindings_)
    if (b.run == runs::kShown && b.name == name) b.in_range = inRange;
  marker_stamp_ = ~std::uint64_t{0};
}

void LivePlot::syncMarkers() {
  std::uint64_t stamp = history_ ? history_->generation() * 1000003u : 0;
  std::vector<const Series*> bound;
  for (const Binding& b : bindings_) {
    const RunHistory* h = b.in_range ? historyOf(b) : nullptr;
    const Series* s = h ? h->find(b.name) : nullptr;
    if (!s || !b.graph->visible()) continue;
    bound.push_back(s);
    stamp += s->nonFiniteCount() * 7 + 1;
  }
  if (stamp == marker_stamp_) return;
  marker_stamp_ = stamp;
  for (int k = 0; k < kNonFiniteKinds; ++k) {
    QVector<QCPGraphData> data;
    for (const Series* s : bound) {
      for (const SeriesPoint& p : s->markers(static_cast<NonFiniteKind>(k)).points())
        data.append({p.x, kMarkerLevel});
    }
    markers_[k]->data()->set(data, false);
    if (data.isEmpty()) {
      markers_[k]->removeFromLegend();
    } else if (!legend->hasItemWithPlottable(markers_[k])) {
      markers_[k]->addToLegend();
    }
  }
}

void LivePlot::sync() {
  clearUpperVectorState();  // the copies and range scans below are plain double code
  for (Binding& b : bindings_) syncBinding(b);
  syncMarkers();
  applyAutoLogScale();
  if (following_) rescale();
  replotWhenShown();
}

void LivePlot::useSmallLegendFont() {
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  legend->setFont(f);
}

void LivePlot::setAutoLogScale(bool on, double decades) {
  auto_log_ = on;
  auto_log_decades_ = decades;
}

void LivePlot::applyAutoLogScale() {
  if (!auto_log_ || log_chosen_) return;
  double low = std::numeric_limits<double>::infinity(), high = 0;
  bool any = false;
  for (Binding& b : bindings_) {
    if (b.run != runs::kShown || !b.in_range) continue;
    const int n = b.graph->dataCount();
    any = any || n > 0;
    if (!b.graph->visible() || log_scale_) continue;  // once on, only emptiness turns it off
    // Each sync scans only the points added since the last (a repaint 30 times a second).
    if (b.scanned_generation != b.generation || b.scanned_revision != b.revision ||
        b.scanned > static_cast<std::size_t>(n)) {
      b.positive_low = b.positive_high = 0;
      b.scanned = 0;
      b.scanned_generation = b.generation;
      b.scanned_revision = b.revision;
    }
    for (int i = static_cast<int>(b.scanned); i < n; ++i) {
      const double v = b.graph->data()->at(i)->value;
      if (!std::isfinite(v) || v <= 0) continue;
      b.positive_low = b.positive_high > 0 ? std::min(b.positive_low, v) : v;
      b.positive_high = std::max(b.positive_high, v);
    }
    b.scanned = static_cast<std::size_t>(n);
    if (b.positive_high > 0) {
      low = std::min(low, b.positive_low);
      high = std::max(high, b.positive_high);
    }
  }
  if (!any && log_scale_) {
    setLogScale(false);  // a new run starts linear
  } else if (!log_scale_ && high > 0 && std::log10(high / low) > auto_log_decades_) {
    setLogScale(true);
  }
}

void LivePlot::replotWhenShown() {
  // A plot in a hidden tab is drawn when it is shown (showEvent), not 30 times a second: five
  // of the dashboard's seven live plots are hidden at any time.
  if (isVisible()) {
    replot(QCustomPlot::rpQueuedReplot);
  } else {
    stale_ = true;
  }
}

void LivePlot::showEvent(QShowEvent* event) {
  QCustomPlot::showEvent(event);
  if (stale_) {
    stale_ = false;
    replot(QCustomPlot::rpRefreshHint);  // the buffers now, before the first paint
  }
}

void LivePlot::rescale() {
  if (!history_) return;
  double x_lo = 0, x_hi = 0;
  if (history_->stepRange(&x_lo, &x_hi)) {
    // Every step of the run, whatever the values (markers included).
    if (x_hi - x_lo < 1) {
      x_lo -= 1;
      x_hi += 1;
    }
    xAxis->setRange(x_lo, x_hi);
  }
  bool any = false;
  double y_lo = 0, y_hi = 0;
  for (const Binding& b : bindings_) {
    const RunHistory* h = b.in_range ? historyOf(b) : nullptr;
    const Series* s = h ? h->find(b.name) : nullptr;
    double lo = 0, hi = 0;
    if (!s || !b.graph->visible() || !s->yRange(&lo, &hi, log_scale_)) continue;
    y_lo = any ? std::min(y_lo, lo) : lo;
    y_hi = any ? std::max(y_hi, hi) : hi;
    any = true;
  }
  if (!any) return;
  if (log_scale_) {
    // A margin of 5% of the decades spanned (a factor of 2 around a single value).
    const double ratio = y_hi > y_lo ? std::pow(y_hi / y_lo, 0.05) : 2.0;
    yAxis->setRange(y_lo / ratio, y_hi * ratio);
  } else {
    const double span = y_hi - y_lo;
    const double pad = span > 0 ? 0.05 * span : (y_lo != 0 ? 0.1 * std::abs(y_lo) : 1.0);
    yAxis->setRange(y_lo - pad, y_hi + pad);
  }
}

void LivePlot::setLogScale(bool logarithmic) {
  const bool changed = log_scale_ != logarithmic;
  log_scale_ = logarithmic;
  if (logarithmic) {
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    yAxis->setTicker(QSharedPointer<Log125Ticker>::create());
    yAxis->setNumberFormat(QStringLiteral("eb"));
    yAxis->setNumberPrecision(0);
  } else {
    yAxis->setScaleType(QCPAxis::stLinear);
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    yAxis->setNumberFormat(QStringLiteral("gbd"));
    yAxis->setNumberPrecision(6);
  }
  fitValueTicks();
  resetView();
  if (changed) emit logScaleChanged(logarithmic);
}

void LivePlot::resizeEvent(QResizeEvent* event) {
  QCustomPlot::resizeEvent(event);
  fitValueTicks();
  fitStepTicks();
}

void LivePlot::fitValueTicks() {
  // The axis rect's height once laid out (a tall legend or banner takes from it), else the
  // plot's less the legend row and step axis.
  // As fitStepTicks: at a resize the axis rect is the old layout's until the next replot (a
  // lesson step that gave the bottom plots half the height stacked the loss plot's labels).
  int room = axisRect()->height() > 10 ? axisRect()->height() : height() - 70;
  if (laid_out_height_ > 0 && axisRect()->height() > 10) room += height() - laid_out_height_;
  const int font_px = yAxis->tickLabelFont().pixelSize() > 0 ? yAxis->tickLabelFont().pixelSize()
                                                              : yAxis->tickLabelFont().pointSize();
  // Called before every replot: only a new height, font or ticker (log scale) changes it.
  const void* ticker = yAxis->ticker().data();
  if (room == fitted_room_ && font_px == fitted_font_ && ticker == fitted_ticker_) return;
  fitted_room_ = room;
  fitted_font_ = font_px;
  fitted_ticker_ = ticker;
  // Labels of a larger font (presentation mode) need proportionally more room.
  const int spacing = std::max(35, QFontMetrics(yAxis->tickLabelFont()).height() * 5 / 2);
  // A single step over the range (the ends labelled) where two would not fit: a log axis, or a
  // plot squeezed short (a lesson step looking at the plot below, a legend and a teaching
  // banner at 1.5x above).
  yAxis->ticker()->setTickCount(std::clamp(room / spacing, log_scale_ || room < 2 * spacing ? 1 : 2, 5));
}

void LivePlot::fitStepTicks() {
  const QFontMetrics fm(xAxis->tickLabelFont());
  const QCPRange r = xAxis->range();
  const double widest = std::max(std::abs(r.lower), std::abs(r.upper));
  const QString sample = xAxis->scaleType() == QCPAxis::stLogarithmic
                             ? QStringLiteral("1e-10")
                             : QString::number(static_cast<qlonglong>(std::llround(widest)));
  const int label = std::max(1, 2 * fm.horizontalAdvance(sample) + fm.horizontalAdvance('0'));
  // At a resize the axis rect still has the old layout's width (it is laid out at the next
  // replot): corrected by how much the plot changed since, else labels collided after the
  // settings column narrowed the plot ("255075", issue 43 item 22).
  int room = axisRect()->width() > 10 ? axisRect()->width() : width() - 80;
  if (laid_out_width_ > 0 && axisRect()->width() > 10) room += width() - laid_out_width_;
  // The ticker may pick up to about twice the count asked for (steps of 1, 2, 2.5, 5).
  xAxis->ticker()->setTickCount(std::clamp(room / label, 1, 8));
}

void LivePlot::fitAxisTitles() {
  QCPAxis* axes[2] = {xAxis, yAxis};
  for (int i = 0; i < 2; ++i) {
    QCPAxis* axis = axes[i];
    Title& t = titles_[i];
    if (axis->label() != t.shown) t.full = axis->label();  // set anew since the last fit
    const int room = i == 0 ? axisRect()->width() : axisRect()->height();
    const QFontMetrics fm(axis->labelFont());
    QString text = t.full;
    if (room > 0 && fm.horizontalAdvance(text) > room) {
      int cut = -1;
      for (int k = 0; k < text.size(); ++k)
        if (text[k] == QLatin1Char(' ') &&
            (cut < 0 || std::abs(k - text.size() / 2) < std::abs(cut - text.size() / 2)))
          cut = k;
      if (cut > 0) text[cut] = QLatin1Char('\n');
      int widest = 0;
      for (const QString& line : text.split(QLatin1Char('\n')))
        widest = std::max(widest, fm.horizontalAdvance(line));
      if (widest > room) text = fm.elidedText(t.full, Qt::ElideRight, room);
    }
    t.shown = text;
    if (axis->label() != text) axis->setLabel(text);
  }
}

void LivePlot::setPresentation(double lineScale, double fontRatio) {
  if (lineScale == line_scale_ && fontRatio == font_ratio_) return;
  line_scale_ = lineScale;
  font_ratio_ = fontRatio;
  applyPresentation();
  fitValueTicks();
  fitStepTicks();
  replot(QCustomPlot::rpQueuedReplot);
}

void LivePlot::applyPresentation() {
  if (presenting() || styler_.active()) styler_.apply(this, line_scale_, font_ratio_);
  if (legend->wrap() != shown_wrap_) designed_wrap_ = legend->wrap();  // set by the plot's code
  int wrap = designed_wrap_;
  if (presenting() && legend->visible())
    for (; wrap > 1; --wrap) {
      if (legend->wrap() != wrap) {
        legend->setWrap(wrap);
        legend->setFillOrder(legend->fillOrder(), true);
      }
      if (legend->minimumOuterSizeHint().width() <= width() - 8) break;
    }
  if (legend->wrap() != wrap) {
    legend->setWrap(wrap);
    legend->setFillOrder(legend->fillOrder(), true);
  }
  // One entry a row and still wider than the plot (a narrow plot beside the lesson's settings
  // column: "Training loss (ep" cut): a smaller legend font, down to 60% of the presentation's,
  // through the styler (which restores the designed font on leaving).
  if (presenting() && legend->visible() && wrap == 1)
    for (double shrink = 0.9; legend->minimumOuterSizeHint().width() > width() - 8 && shrink > 0.55;
         shrink *= 0.9)
      styler_.apply(this, line_scale_, font_ratio_, shrink);
  shown_wrap_ = wrap;
  fitValueTicks();  // the legend's rows take from the axis rect's height
}

void LivePlot::resetView() {
  setFollowing(true);
  sync();
}

void LivePlot::setFollowing(bool following) { following_ = following; }

void LivePlot::mouseDoubleClickEvent(QMouseEvent* event) {
  QCustomPlot::mouseDoubleClickEvent(event);
  resetView();
}

void LivePlot::wheelEvent(QWheelEvent* event) {
  setFollowing(false);
  axisRect()->setRangeZoom((event->modifiers() & Qt::ControlModifier) ? Qt::Vertical
                                                                      : Qt::Horizontal);
  QCustomPlot::wheelEvent(event);
}

void LivePlot::linkStepAxis(LivePlot* other) {
  auto link = [](LivePlot* from, LivePlot* to) {
    connect(from->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), to,
            [from, to](const QCPRange& range) {
              to->following_ = from->following_;
              if (to->xAxis->range() == range) return;
              to->xAxis->setRange(range);
              to->replotWhenShown();
            });
  };
  link(this, other);
  link(other, this);
}

void LivePlot::setLegendShown(bool shown) {
  legend->setVisible(shown);
  replot(QCustomPlot::rpQueuedReplot);
}

bool LivePlot::legendShown() const { return legend->visible(); }

void LivePlot::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) {
    setFollowing(false);
  } else if (event->buttons() == Qt::NoButton) {
    showReadout(event->pos(), event->globalPosition().toPoint());
  }
  QCustomPlot::mouseMoveEvent(event);
}

QString LivePlot::describePoint(const QCPGraph* graph, double key, double value,
                                bool marker) const {
  return Tr::tr("%1\nstep %2: %3")
      .arg(marker ? Tr::tr("non-finite value") : graph->name())
      .arg(static_cast<qlonglong>(std::llround(key)))
      .arg(marker ? graph->name() : valueText(value));
}

QString LivePlot::readoutText(const QPoint& pos) const {
  double best = kReadoutRadiusPx * kReadoutRadiusPx;
  QString text;
  auto consider = [&](const QCPGraph* g, bool marker) {
    if (!g->visible() || g->data()->isEmpty()) return;
    const double key = g->keyAxis()->pixelToCoord(pos.x());
    auto it = g->data()->findBegin(key, true);
    for (int n = 0; n < 3 && it != g->data()->constEnd(); ++n, ++it) {
      const QPointF px = g->coordsToPixels(it->key, it->value);
      const double dx = px.x() - pos.x(), dy = px.y() - pos.y();
      const double d2 = dx * dx + dy * dy;
      if (d2 < best) {
        best = d2;
        text = describePoint(g, it->key, it->value, marker);
      }
    }
  };
  for (const Binding& b : bindings_) consider(b.graph, false);
  for (const QCPGraph* m : markers_) consider(m, true);
  return text;
}

void LivePlot::showReadout(const QPoint& pos, const QPoint& global) {
  const QString text = readoutText(pos);
  if (text.isEmpty()) {
    QToolTip::hideText();
  } else {
    QToolTip::showText(global, text, this);
  }
}

}  // namespace trainscope

#include "gui/plots/dense_graph.h"

#include <algorithm>
#include <cmath>

#include <QImage>

namespace trainscope {

namespace {

/// More line vertices per pixel column than this: filled spans (below: QCPGraph's polyline).
constexpr double kDenseVerticesPerColumn = 2.0;
/// More vertices of both channel curves together per column than this: a channel of spans.
constexpr double kDenseFillVerticesPerColumn = 0.5;
/// More scatter points than this: stamped (below: QCPGraph draws each shape).
constexpr int kStampMinPoints = 64;

/// The columns of `bounds` that the finite points of `lines` span (0 when none).
double spannedColumns(const QVector<QPointF>& lines, const QRect& bounds) {
  double lo = INFINITY, hi = -INFINITY;
  for (const QPointF& p : lines)
    if (std::isfinite(p.x())) {
      lo = std::min(lo, p.x());
      hi = std::max(hi, p.x());
    }
  const double span = std::min(hi, static_cast<double>(bounds.right()) + 1) -
                      std::max(lo, static_cast<double>(bounds.left()));
  return span > 0 ? span : 0;
}

QRect spanRect(int column, double lo, double hi) {
  const int top = static_cast<int>(std::floor(lo + 0.5));
  const int bottom = static_cast<int>(std::floor(hi + 0.5));
  return QRect(column, top, 1, std::max(1, bottom - top + 1));
}

/// Fills `spans` (within `bounds`) in `color`, each pixel once. QPainter fills a 1-px-wide
/// rect one row at a time: ~6 ns a pixel opaque, ~50 ns translucent (2.8 ms for 500 spans of
/// 100 px). Writing the spans into an image costs ~0.5 ns a pixel and QPainter blends the
/// image whole rows at a time (~1 ns a pixel of the image): an image of the rows the spans
/// take, unless the spans are opaque and cover less than a sixth of it.
void paintSpans(QCPPainter* painter, const QVector<QRect>& spans, const QColor& color,
                const QRect& bounds) {
  if (spans.isEmpty() || bounds.isEmpty()) return;
  int top = bounds.bottom(), bottom = bounds.top();
  long covered = 0;
  for (const QRect& r : spans) {
    top = std::min(top, r.top());
    bottom = std::max(bottom, r.bottom());
    covered += r.height();
  }
  const QRect box = QRect(bounds.left(), top, bounds.width(), bottom - top + 1) & bounds;
  if (box.isEmpty()) return;
  painter->save();
  if (color.alpha() == 255 && 6 * covered < static_cast<long>(box.width()) * box.height()) {
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawRects(spans);
  } else {
    QImage band(box.size(), QImage::Format_ARGB32_Premultiplied);
    band.fill(Qt::transparent);
    clearUpperVectorState();  // QImage::fill leaves them in use
    const QRgb pixel = qPremultiply(color.rgba());
    uchar* const bits = band.bits();
    const qsizetype stride = band.bytesPerLine();
    for (const QRect& r : spans) {
      const int x = r.left() - box.left();
      if (x < 0 || x >= band.width()) continue;
      const int y0 = std::max(r.top(), box.top()) - box.top();
      const int y1 = std::min(r.bottom(), box.bottom()) - box.top();
      for (int y = y0; y <= y1; ++y) reinterpret_cast<QRgb*>(bits + y * stride)[x] = pixel;
    }
    painter->drawImage(box.topLeft(), band);
  }
  painter->restore();
}

/// One pixel column's points (DenseGraph::drawDenseLine): the first, lowest, highest and last.
struct ColumnSample {
  const QCPGraphData* first = nullptr;
  const QCPGraphData* lo = nullptr;
  const QCPGraphData* hi = nullptr;
  const QCPGraphData* last = nullptr;
};

/// Appends the column's first, lowest and highest (in the order they came) and last point
/// to `lines` as pixels (`x_of`, `y_of`: key and value to pixel), each once.
template <typename XOf, typename YOf>
void appendColumn(QVector<QPointF>& lines, const ColumnSample& c, const XOf& x_of,
                  const YOf& y_of) {
  const QCPGraphData* points[4] = {c.first, std::min(c.lo, c.hi), std::max(c.lo, c.hi), c.last};
  const QCPGraphData* previous = nullptr;
  for (const QCPGraphData* p : points) {
    if (p == previous || (previous && p < previous)) continue;
    lines.append(QPointF(x_of(p->key), y_of(p->value)));
    previous = p;
  }
}

}  // namespace

ColumnEnvelope columnEnvelope(const QVector<QPointF>& lines, const QRect& bounds) {
  ColumnEnvelope env;
  env.first = bounds.left();
  if (bounds.width() <= 0) return env;
  const int first = bounds.left(), last = bounds.right();
  env.lo.assign(static_cast<std::size_t>(last - first + 1), INFINITY);
  env.hi.assign(env.lo.size(), -INFINITY);
  const double y_min = bounds.top() - 2.0 - bounds.height(), y_max = bounds.bottom() + 2.0 + bounds.height();
  auto touch = [&](int c, double y) {
    if (c < first || c > last) return;
    y = std::clamp(y, y_min, y_max);
    const auto k = static_cast<std::size_t>(c - first);
    env.lo[k] = std::min(env.lo[k], y);
    env.hi[k] = std::max(env.hi[k], y);
  };
  bool have_prev = false;
  QPointF prev;
  for (const QPointF& p : lines) {
    if (!std::isfinite(p.x()) || !std::isfinite(p.y())) {
      have_prev = false;  // a gap: the line starts again at the next point
      continue;
    }
    if (!have_prev) {
      if (p.x() >= first && p.x() < last + 1.0) touch(static_cast<int>(std::floor(p.x())), p.y());
      prev = p;
      have_prev = true;
      continue;
    }
    QPointF a = prev, b = p;
    prev = p;
    if (a.x() > b.x()) std::swap(a, b);
    // The part of the segment inside [first, last + 1), one column at a time.
    const double x0 = std::max(a.x(), static_cast<double>(first));
    const double x1 = std::min(b.x(), static_cast<double>(last) + 1.0);
    if (x0 > x1) continue;
    const double dx = b.x() - a.x();
    if (!(dx > 0)) {  // vertical
      touch(static_cast<int>(std::floor(x0)), a.y());
      touch(static_cast<int>(std::floor(x0)), b.y());
      continue;
    }
    auto y_at = [&](double x) { return a.y() + (b.y() - a.y()) * ((x - a.x()) / dx); };
    const int c0 = static_cast<int>(std::floor(x0));
    const int c1 = std::min(static_cast<int>(std::floor(x1)), last);
    for (int c = c0; c <= c1; ++c) {
      touch(c, y_at(std::max(x0, static_cast<double>(c))));
      touch(c, y_at(std::min(x1, static_cast<double>(c) + 1.0)));
    }
  }
  return env;
}

void moveOffLeftEdge(ColumnEnvelope& env) {
  if (env.lo.size() < 2 || !env.has(0)) return;
  env.lo[1] = std::min(env.lo[1], env.lo[0]);
  env.hi[1] = std::max(env.hi[1], env.hi[0]);
  env.lo[0] = INFINITY;
  env.hi[0] = -INFINITY;
}

QVector<QRect> columnSpans(const ColumnEnvelope& env, double penWidth) {
  // A pen of w pixels covers round(w) rows and columns: the envelope is widened by the extra
  // pixels, half before (up, left) and half after (down, right).
  const int extra = std::max(0, static_cast<int>(std::lround(penWidth)) - 1);
  const int before = extra / 2, after = extra - before;
  const auto n = static_cast<long>(env.lo.size());
  QVector<QRect> out;
  out.reserve(static_cast<int>(n));
  for (long k = 0; k < n; ++k) {
    double lo = INFINITY, hi = -INFINITY;
    for (long j = std::max(0L, k - after); j <= std::min(n - 1, k + before); ++j) {
      lo = std::min(lo, env.lo[static_cast<std::size_t>(j)]);
      hi = std::max(hi, env.hi[static_cast<std::size_t>(j)]);
    }
    if (lo <= hi) out.append(spanRect(env.first + static_cast<int>(k), lo - before, hi + after));
  }
  return out;
}

std::vector<double> columnCentres(const QVector<QPointF>& lines, const QRect& bounds) {
  std::vector<double> y(static_cast<std::size_t>(std::max(0, bounds.width())), qQNaN());
  const int first = bounds.left(), last = bounds.right();
  for (int i = 1; i < lines.size(); ++i) {
    QPointF a = lines[i - 1], b = lines[i];
    if (!std::isfinite(a.x()) || !std::isfinite(a.y()) || !std::isfinite(b.x()) ||
        !std::isfinite(b.y()))
      continue;  // a gap
    if (a.x() > b.x()) std::swap(a, b);
    // The centres c + 0.5 with a.x <= c + 0.5 <= b.x.
    const int c0 = std::max(first, static_cast<int>(std::ceil(a.x() - 0.5)));
    const int c1 = std::min(last, static_cast<int>(std::floor(b.x() - 0.5)));
    const double dx = b.x() - a.x();
    for (int c = c0; c <= c1; ++c) {
      const double t = dx > 0 ? (c + 0.5 - a.x()) / dx : 0.0;
      y[static_cast<std::size_t>(c - first)] = a.y() + (b.y() - a.y()) * t;
    }
  }
  return y;
}

QVector<QRect> channelSpans(const std::vector<double>& a, const std::vector<double>& b,
                            int firstColumn) {
  QVector<QRect> out;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
    if (!std::isfinite(a[k]) || !std::isfinite(b[k])) continue;
    // The rows whose centres lie between the two curves, as QPainter fills a polygon.
    const int top = static_cast<int>(std::ceil(std::min(a[k], b[k]) - 0.5));
    const int bottom = static_cast<int>(std::floor(std::max(a[k], b[k]) - 0.5));
    if (bottom >= top) out.append(QRect(firstColumn + static_cast<int>(k), top, 1, bottom - top + 1));
  }
  return out;
}

namespace {
__attribute__((target("avx"))) void vzeroupper() { __builtin_ia32_vzeroupper(); }
}  // namespace

void clearUpperVectorState() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool avx = __builtin_cpu_supports("avx");
  if (avx) vzeroupper();
#endif
}

DenseGraph::DenseGraph(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPGraph(keyAxis, valueAxis) {}

void DenseGraph::draw(QCPPainter* painter) {
  drew_line_spans_ = false;
  drew_fill_spans_ = false;
  drew_stamps_ = false;
  clearUpperVectorState();
  if (!drawDenseLine(painter)) QCPGraph::draw(painter);
}

bool DenseGraph::drawDenseLine(QCPPainter* painter) {
  // What QCPGraph::draw would draw as a line alone: no fill, no scatters, not selected.
  if (lineStyle() != lsLine || !scatterStyle().isNone() || selected() || channelFillGraph() ||
      (brush().style() != Qt::NoBrush && brush().color().alpha() != 0) ||
      pen().style() != Qt::SolidLine || pen().color().alpha() == 0 || !spansAllowed(painter) ||
      keyAxis()->scaleType() != QCPAxis::stLinear || keyAxis()->range().size() <= 0 ||
      data()->isEmpty())
    return false;
  const QRect rect = keyAxis()->axisRect()->rect();
  const QCPRange keys = keyAxis()->range();
  auto begin = data()->findBegin(keys.lower, true), end = data()->findEnd(keys.upper, true);
  // Dense enough that the line fills spans (drawLinePlot's test, on data rather than vertices).
  if (end - begin <= kDenseVerticesPerColumn * rect.width()) return false;

  // QCPAxis::coordToPixel as pixel(lower) + slope (value - lower): one multiply for a linear
  // axis, one log for a log axis (QCPAxis takes two logs per call: 30% of a replot of 12
  // log-scale curves). From the range's ends, so that a range of 1e38 or one starting at step
  // 1e9 keeps its precision.
  const double kx0 = keyAxis()->coordToPixel(keys.lower);
  const double kb = (keyAxis()->coordToPixel(keys.upper) - kx0) / (keys.upper - keys.lower);
  const QCPAxis* va = valueAxis();
  const bool log = va->scaleType() == QCPAxis::stLogarithmic;
  const QCPRange vr = va->range();
  const double v_a = va->coordToPixel(vr.lower);
  const double v_b = log ? (va->coordToPixel(vr.upper) - v_a) / std::log(vr.upper / vr.lower)
                         : (va->coordToPixel(vr.upper) - v_a) / (vr.upper - vr.lower);
  auto y_of = [&](double v) {
    if (!log) return v_a + v_b * (v - vr.lower);
    // A value of the other sign: QCPAxis's own placement (off the axis rect).
    return v / vr.lower > 0 ? v_a + v_b * std::log(v / vr.lower) : va->coordToPixel(v);
  };
  auto x_of = [&](double key) { return kx0 + kb * (key - keys.lower); };
  // QCustomPlot's adaptive sampling, per pixel column: the first, lowest, highest and last
  // point (a column of one point: that point); non-finite values break the line. The inner
  // loop compares keys with the next column's first key and keeps pointers: no pixel maths
  // per point (18,000 points in 0.03 ms).
  QVector<QPointF> lines;
  lines.reserve(4 * rect.width() + 8);
  const QCPGraphData* p = &*begin;
  const QCPGraphData* const stop = p + (end - begin);
  ColumnSample cur;
  double column = 0;
  // The key where the next column starts (a reversed axis: every point computes its column).
  double next_key = -INFINITY;
  for (; p != stop; ++p) {
    const double v = p->value;
    if (cur.first && p->key < next_key && std::isfinite(v)) {
      // The extremes are read through the pointers: a double kept across the calls below
      // would live on the stack, a chain of stores and loads through every iteration.
      if (v < cur.lo->value) cur.lo = p;
      if (v > cur.hi->value) cur.hi = p;
      continue;
    }
    if (!std::isfinite(v)) {
      if (cur.first) appendColumn(lines, {cur.first, cur.lo, cur.hi, p - 1}, x_of, y_of);
      cur = {};
      lines.append(QPointF(qQNaN(), qQNaN()));
      continue;
    }
    const double c = std::floor(x_of(p->key));
    if (cur.first && c == column) {  // a reversed axis, or a key rounded across next_key
      if (v < cur.lo->value) cur.lo = p;
      if (v > cur.hi->value) cur.hi = p;
      continue;
    }
    if (cur.first) appendColumn(lines, {cur.first, cur.lo, cur.hi, p - 1}, x_of, y_of);
    cur = {p, p, p, p};
    column = c;
    next_key = kb > 0 ? keys.lower + (c + 1 - kx0) / kb : -INFINITY;
  }
  if (cur.first) appendColumn(lines, {cur.first, cur.lo, cur.hi, stop - 1}, x_of, y_of);
  QColor color = pen().color();
  color.setAlphaF(1 - (1 - color.alphaF()) * (1 - color.alphaF()));  // as drawLinePlot
  ColumnEnvelope env = columnEnvelope(lines, rect);
  moveOffLeftEdge(env);
  paintSpans(painter, columnSpans(env, pen().widthF()), color, rect);
  drew_line_spans_ = true;
  return true;
}

bool DenseGraph::spansAllowed(QCPPainter* painter) const {
  return !painter->modes().testFlag(QCPPainter::pmVectorized) && keyAxis() && valueAxis() &&
         keyAxis()->orientation() == Qt::Horizontal;
}

void DenseGraph::drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const {
  const QPen pen = painter->pen();
  if (pen.style() == Qt::NoPen || pen.color().alpha() == 0) return;
  applyDefaultAntialiasingHint(painter);
  clearUpperVectorState();
  if (pen.style() == Qt::SolidLine && spansAllowed(painter)) {
    const QRect rect = keyAxis()->axisRect()->rect();
    const double columns = spannedColumns(lines, rect);
    // More vertices than columns: antialiasing is invisible in the zig-zag, and costs 5x.
    if (columns > 0 && lines.size() > columns) painter->setAntialiasing(false);
    if (columns > 0 && lines.size() > kDenseVerticesPerColumn * columns) {
      ColumnEnvelope env = columnEnvelope(lines, rect);
      moveOffLeftEdge(env);
      const QVector<QRect> spans = columnSpans(env, pen.widthF());
      // A dense noisy line is a zig-zag whose up and down strokes each cover the column:
      // a translucent pen blended twice, as the stroked line looked.
      QColor color = pen.color();
      color.setAlphaF(1 - (1 - color.alphaF()) * (1 - color.alphaF()));
      paintSpans(painter, spans, color, rect);
      drew_line_spans_ = true;
      return;
    }
  }
  drawPolyline(painter, lines);
}

void DenseGraph::drawFill(QCPPainter* painter, QVector<QPointF>* lines) const {
  const auto* other = qobject_cast<const DenseGraph*>(channelFillGraph());
  const QBrush brush = painter->brush();
  if (other && lineStyle() != lsImpulse && brush.style() == Qt::SolidPattern &&
      brush.color().alpha() != 0 && spansAllowed(painter) &&
      other->keyAxis() == keyAxis() && other->valueAxis() == valueAxis()) {
    clearUpperVectorState();
    QVector<QPointF> other_lines;
    other->getLines(&other_lines, QCPDataRange(0, other->dataCount()));
    const QRect rect = keyAxis()->axisRect()->rect();
    const double columns = std::max(spannedColumns(*lines, rect), spannedColumns(other_lines, rect));
    if (columns > 0 && lines->size() + other_lines.size() > kDenseFillVerticesPerColumn * columns) {
      const QVector<QRect> spans = channelSpans(columnCentres(*lines, rect),
                                                columnCentres(other_lines, rect), rect.left());
      paintSpans(painter, spans, brush.color(), rect);
      drew_fill_spans_ = true;
      return;
    }
  }
  QCPGraph::drawFill(painter, lines);
}

}  // namespace trainscope

namespace trainscope {

void DenseGraph::drawScatterPlot(QCPPainter* painter, const QVector<QPointF>& scatters,
                                 const QCPScatterStyle& style) const {
  const auto shape = style.shape();
  if (scatters.size() <= kStampMinPoints || painter->modes().testFlag(QCPPainter::pmVectorized) ||
      shape == QCPScatterStyle::ssNone || shape == QCPScatterStyle::ssPixmap ||
      shape == QCPScatterStyle::ssCustom) {
    QCPGraph::drawScatterPlot(painter, scatters, style);
    return;
  }
  applyScattersAntialiasingHint(painter);
  const QPen pen = style.isPenDefined() ? style.pen() : this->pen();
  const double dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
  const bool aa = painter->antialiasing();
  const QString key = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9")
                          .arg(int(shape))
                          .arg(style.size())
                          .arg(pen.color().rgba())
                          .arg(pen.widthF())
                          .arg(int(pen.style()))
                          .arg(style.brush().color().rgba())
                          .arg(int(style.brush().style()))
                          .arg(aa)
                          .arg(dpr);
  // An even side with the shape centred on a pixel corner, as QCPGraph centres it on a point.
  const int side = 2 * static_cast<int>(std::ceil((style.size() + pen.widthF()) / 2 + 1));
  if (key != stamp_key_) {
    stamp_ = QImage(static_cast<int>(std::ceil(side * dpr)), static_cast<int>(std::ceil(side * dpr)),
                    QImage::Format_ARGB32_Premultiplied);
    stamp_.setDevicePixelRatio(dpr);
    stamp_.fill(Qt::transparent);
    QCPPainter sp(&stamp_);
    sp.setRenderHint(QPainter::Antialiasing, aa);
    style.applyTo(&sp, this->pen());
    style.drawShape(&sp, side / 2.0, side / 2.0);
    sp.end();
    stamp_key_ = key;
  }
  const double half = side / 2.0;
  for (const QPointF& p : scatters) {
    if (!std::isfinite(p.x()) || !std::isfinite(p.y())) continue;
    painter->drawImage(QPointF(std::round(p.x()) - half, std::round(p.y()) - half), stamp_);
  }
  drew_stamps_ = true;
}

}  // namespace trainscope

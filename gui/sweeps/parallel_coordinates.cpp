#include "gui/sweeps/parallel_coordinates.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "gui/plots/palette.h"
#include "gui/tr.h"

namespace trainscope {
namespace {

/// matplotlib's viridis at t in [0, 1] (five of its stops, linearly between them).
QColor viridis(double t) {
  static const QColor stops[] = {QColor(68, 1, 84), QColor(59, 82, 139), QColor(33, 145, 140),
                                 QColor(94, 201, 98), QColor(253, 231, 37)};
  t = std::clamp(t, 0.0, 1.0) * 4.0;
  const int i = std::min(3, static_cast<int>(t));
  const double f = t - i;
  const QColor& a = stops[i];
  const QColor& b = stops[i + 1];
  return QColor::fromRgbF(a.redF() + f * (b.redF() - a.redF()),
                          a.greenF() + f * (b.greenF() - a.greenF()),
                          a.blueF() + f * (b.blueF() - a.blueF()));
}

QString tickText(double v) { return QString::number(v, 'g', 3); }

}  // namespace

ParallelCoordinates::ParallelCoordinates(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("sweepParallelCoordinates"));
  setMinimumHeight(180);
  setMouseTracking(false);
  setToolTip(Tr::tr("Each line is a trial, crossing each axis at its value; its colour is the "
                    "objective (dark: best). Drag along an axis to keep only the trials in "
                    "that range; double-click the axis to clear it."));
}

void ParallelCoordinates::setData(const std::vector<Axis>& axes,
                                  const std::vector<std::vector<std::optional<double>>>& rows,
                                  bool maximize) {
  const bool same_axes = axes.size() == axes_.size() &&
                         std::equal(axes.begin(), axes.end(), axes_.begin(),
                                    [](const Axis& a, const Axis& b) { return a.title == b.title; });
  axes_ = axes;
  rows_ = rows;
  if (!same_axes) brushes_.assign(axes_.size(), std::nullopt);
  // colour: the objective (the last axis) ranked from best (0) to worst (1)
  colour_.assign(rows_.size(), std::nan(""));
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& r : rows_)
    if (!r.empty() && r.back() && std::isfinite(*r.back())) {
      lo = std::min(lo, *r.back());
      hi = std::max(hi, *r.back());
    }
  for (size_t i = 0; i < rows_.size(); ++i) {
    const auto& v = rows_[i].empty() ? std::optional<double>() : rows_[i].back();
    if (!v || !std::isfinite(*v)) continue;
    const double t = hi > lo ? (*v - lo) / (hi - lo) : 0.0;
    colour_[i] = maximize ? 1.0 - t : t;
  }
  if (highlighted_ >= static_cast<int>(rows_.size())) highlighted_ = -1;
  update();
}

void ParallelCoordinates::setBrush(int axis, double lo, double hi) {
  if (axis < 0 || axis >= axisCount()) return;
  brushes_[axis] = lo > hi ? std::nullopt : std::optional(std::make_pair(lo, hi));
  update();
  emit brushChanged();
}

void ParallelCoordinates::clearBrushes() {
  brushes_.assign(axes_.size(), std::nullopt);
  update();
  emit brushChanged();
}

bool ParallelCoordinates::passes(size_t row) const {
  for (size_t a = 0; a < brushes_.size(); ++a) {
    if (!brushes_[a]) continue;
    const auto& v = rows_[row][a];
    if (!v || *v < brushes_[a]->first || *v > brushes_[a]->second) return false;
  }
  return true;
}

std::vector<size_t> ParallelCoordinates::passingRows() const {
  std::vector<size_t> out;
  for (size_t i = 0; i < rows_.size(); ++i)
    if (passes(i)) out.push_back(i);
  return out;
}

void ParallelCoordinates::setHighlighted(int row) {
  highlighted_ = row;
  update();
}

double ParallelCoordinates::axisFraction(int axis, double value) const {
  const Axis& a = axes_.at(axis);
  if (!a.categories.isEmpty())
    return a.categories.size() < 2 ? 0.5 : value / (a.categories.size() - 1);
  if (a.log && a.low > 0 && value > 0) {
    const double l = std::log10(a.low), h = std::log10(a.high);
    return h > l ? (std::log10(value) - l) / (h - l) : 0.5;
  }
  return a.high > a.low ? (value - a.low) / (a.high - a.low) : 0.5;
}

QRectF ParallelCoordinates::plotRect() const {
  const QFontMetrics fm(font());
  const double side = fm.horizontalAdvance(QStringLiteral("0.000e-00")) * 0.6 + 8;
  return QRectF(side, fm.height() * 2.2 + 4, std::max(10.0, width() - 2 * side),
                std::max(10.0, height() - fm.height() * 3.6 - 8));
}

double ParallelCoordinates::axisX(int axis) const {
  const QRectF r = plotRect();
  return axes_.size() < 2 ? r.center().x() : r.left() + r.width() * axis / (axes_.size() - 1);
}

double ParallelCoordinates::yOf(int axis, double value) const {
  const QRectF r = plotRect();
  return r.bottom() - std::clamp(axisFraction(axis, value), 0.0, 1.0) * r.height();
}

int ParallelCoordinates::axisAt(double x) const {
  int best = -1;
  double distance = 24;
  for (int a = 0; a < axisCount(); ++a)
    if (std::fabs(axisX(a) - x) < distance) {
      distance = std::fabs(axisX(a) - x);
      best = a;
    }
  return best;
}

double ParallelCoordinates::valueAt(int axis, double y) const {
  const QRectF r = plotRect();
  const double f = std::clamp((r.bottom() - y) / r.height(), 0.0, 1.0);
  const Axis& a = axes_.at(axis);
  if (!a.categories.isEmpty()) return f * std::max(0, static_cast<int>(a.categories.size()) - 1);
  if (a.log && a.low > 0)
    return std::pow(10.0, std::log10(a.low) + f * (std::log10(a.high) - std::log10(a.low)));
  return a.low + f * (a.high - a.low);
}

void ParallelCoordinates::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (axes_.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, Tr::tr("No trials yet."));
    return;
  }
  const bool many = rows_.size() > 300;
  p.setRenderHint(QPainter::Antialiasing, !many);
  // lines: those filtered out first (grey), then the others, worst first so the best are on top
  std::vector<size_t> order(rows_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<char> pass(rows_.size());
  for (size_t i = 0; i < rows_.size(); ++i) pass[i] = passes(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (pass[a] != pass[b]) return !pass[a];
    const double ca = std::isnan(colour_[a]) ? 2 : colour_[a];
    const double cb = std::isnan(colour_[b]) ? 2 : colour_[b];
    return ca > cb;
  });
  QPolygonF line;
  for (size_t i : order) {
    line.clear();
    QPen pen;
    if (!pass[i])
      pen = QPen(QColor(200, 200, 200, many ? 60 : 120), 1);
    else if (std::isnan(colour_[i]))
      pen = QPen(QColor(150, 150, 150), 1, Qt::DashLine);
    else
      pen = QPen(viridis(colour_[i] * 0.9), many ? 1 : 1.6);
    p.setPen(pen);
    for (int a = 0; a < axisCount(); ++a) {
      const auto& v = rows_[i][a];
      if (!v) {
        if (line.size() > 1) p.drawPolyline(line);
        line.clear();
        continue;
      }
      line << QPointF(axisX(a), yOf(a, *v));
    }
    if (line.size() > 1) p.drawPolyline(line);
    else if (line.size() == 1) p.drawEllipse(line.front(), 2, 2);
  }
  if (highlighted_ >= 0 && highlighted_ < static_cast<int>(rows_.size())) {
    line.clear();
    for (int a = 0; a < axisCount(); ++a)
      if (rows_[highlighted_][a]) line << QPointF(axisX(a), yOf(a, *rows_[highlighted_][a]));
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(palette::kAlarm, 3));
    p.drawPolyline(line);
  }
  // axes, ticks, titles, brushes
  p.setRenderHint(QPainter::Antialiasing, true);
  const QRectF r = plotRect();
  const QFontMetrics fm(font());
  for (int a = 0; a < axisCount(); ++a) {
    const Axis& ax = axes_[a];
    const double x = axisX(a);
    p.setPen(QPen(palette().color(QPalette::Text), 1.5));
    p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
    const QString title = ax.title + (ax.log ? Tr::tr(" (log)") : QString());
    const double w = fm.horizontalAdvance(title);
    const double tx = std::clamp(x - w / 2, 2.0, width() - w - 2);
    p.drawText(QPointF(tx, fm.height() * (a % 2 ? 2.0 : 1.0)), title);
    p.setPen(palette().color(QPalette::Text));
    QList<QPair<double, QString>> ticks;
    if (!ax.categories.isEmpty()) {
      for (int c = 0; c < ax.categories.size(); ++c) ticks.append({double(c), ax.categories[c]});
    } else if (ax.log && ax.low > 0) {
      for (double e = std::floor(std::log10(ax.low)); e <= std::ceil(std::log10(ax.high)); ++e) {
        const double v = std::pow(10.0, e);
        if (v >= ax.low * 0.999 && v <= ax.high * 1.001) ticks.append({v, tickText(v)});
      }
      if (ticks.size() < 2) ticks = {{ax.low, tickText(ax.low)}, {ax.high, tickText(ax.high)}};
    } else {
      ticks = {{ax.low, tickText(ax.low)}, {(ax.low + ax.high) / 2, tickText((ax.low + ax.high) / 2)},
               {ax.high, tickText(ax.high)}};
    }
    for (const auto& [v, text] : ticks) {
      const double y = yOf(a, v);
      p.drawLine(QPointF(x - 3, y), QPointF(x + 3, y));
      const QString t = fm.elidedText(text, Qt::ElideRight, 90);
      const double tw = fm.horizontalAdvance(t);
      const double lx = a == axisCount() - 1 ? x - tw - 6 : x + 5;
      p.drawText(QPointF(lx, y + fm.ascent() / 2.0 - 1), t);
    }
    if (brushes_[a]) {
      const double y1 = yOf(a, brushes_[a]->second), y2 = yOf(a, brushes_[a]->first);
      p.setPen(QPen(palette::kAlarm, 1));
      QColor fill = palette::kAlarm;
      fill.setAlpha(50);
      p.setBrush(fill);
      p.drawRect(QRectF(x - 7, std::min(y1, y2), 14, std::max(2.0, std::fabs(y2 - y1))));
      p.setBrush(Qt::NoBrush);
    }
  }
  p.setPen(palette().color(QPalette::PlaceholderText));
  p.drawText(QRectF(0, height() - fm.height() - 2, width(), fm.height()), Qt::AlignCenter,
             Tr::tr("%1 of %2 trials shown · colour: the objective, dark is best · drag along an "
                    "axis to filter, double-click to clear")
                 .arg(passingRows().size())
                 .arg(rows_.size()));
}

void ParallelCoordinates::mousePressEvent(QMouseEvent* e) {
  dragging_ = axisAt(e->position().x());
  drag_from_ = e->position().y();
}

void ParallelCoordinates::mouseMoveEvent(QMouseEvent* e) {
  if (dragging_ < 0 || std::fabs(e->position().y() - drag_from_) < 3) return;
  const double a = valueAt(dragging_, drag_from_), b = valueAt(dragging_, e->position().y());
  brushes_[dragging_] = std::make_pair(std::min(a, b), std::max(a, b));
  update();
}

void ParallelCoordinates::mouseReleaseEvent(QMouseEvent*) {
  if (dragging_ >= 0 && brushes_[dragging_]) emit brushChanged();
  dragging_ = -1;
}

void ParallelCoordinates::mouseDoubleClickEvent(QMouseEvent* e) {
  const int a = axisAt(e->position().x());
  if (a >= 0) setBrush(a, 1, 0);
}

}  // namespace trainscope

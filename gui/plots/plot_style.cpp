#include "gui/plots/plot_style.h"

#include <QCoreApplication>
#include <QFontInfo>
#include <QFontMetrics>
#include <algorithm>
#include <cmath>

#include "gui/plots/palette.h"

namespace trainscope {
namespace {

/// Keeps what `get` reads styled by `make` while `on`: a value the code set since the last
/// styling (it differs from what was shown) becomes the new designed value; when not `on`, the
/// designed value is put back where nothing changed it since.
template <class T, class Map, class Get, class Set, class Make>
void restyle(Map& map, const void* object, int which, bool on, Get get, Set set, Make make) {
  const T current = get();
  const auto key = std::make_pair(object, which);
  auto it = map.find(key);
  if (!on) {
    if (it != map.end() && current == it->second.shown) set(it->second.designed);
    return;
  }
  if (it == map.end() || !(current == it->second.shown))
    it = map.insert_or_assign(key, typename Map::mapped_type{current, current}).first;
  it->second.shown = make(it->second.designed);  // the style may have changed (another scale)
  if (!(current == it->second.shown)) set(it->second.shown);
}

}  // namespace

double presentationFontRatio(double scale, int basePx) {
  return std::max(scale, kPresentationTickPx * scale / 1.5 / std::max(1, basePx));
}

void PlotStyler::apply(QCustomPlot* plot, double lineScale, double fontRatio, double legendShrink) {
  line_scale_ = lineScale;
  font_ratio_ = fontRatio;
  const bool on = lineScale != 1 || fontRatio != 1;
  plot->setProperty("trainscopePresenting", on);
  if (!on && pens_.empty() && brushes_.empty() && fonts_.empty()) return;  // never styled
  auto pen = [lineScale](const QPen& designed) {
    QPen p = designed;
    p.setColor(palette::forProjector(designed.color()));
    if (designed.style() != Qt::NoPen) {
      const double w = std::max(1.0, designed.widthF()) * lineScale;
      p.setWidthF(designed.color().alpha() >= 200 ? std::max(3.0, w) : w);
    }
    return p;
  };
  auto brush = [](const QBrush& designed) {
    QBrush b = designed;
    if (b.style() != Qt::NoBrush) b.setColor(palette::forProjector(designed.color()));
    return b;
  };
  auto scaled = [](const QFont& designed, double ratio) {
    QFont f = designed;
    f.setPixelSize(std::max(1, static_cast<int>(
                                   std::lround(QFontInfo(designed).pixelSize() * ratio))));
    return f;
  };
  // Axes at the full ratio; the legend and labels inside the plot a fifth smaller (they share
  // the plot's room with the curves).
  auto font = [fontRatio, scaled](const QFont& designed) { return scaled(designed, fontRatio); };
  for (QCPAxisRect* rect : plot->axisRects())
    for (QCPAxis* axis : rect->axes()) {
      restyle<QFont>(fonts_, axis, 0, on, [axis] { return axis->tickLabelFont(); },
                     [axis](const QFont& v) { axis->setTickLabelFont(v); }, font);
      restyle<QFont>(fonts_, axis, 1, on, [axis] { return axis->labelFont(); },
                     [axis](const QFont& v) { axis->setLabelFont(v); }, font);
    }
  const double inner_ratio = std::max(1.0, fontRatio * 0.8);
  auto inner = [inner_ratio, scaled](const QFont& designed) { return scaled(designed, inner_ratio); };
  // The legend never smaller than the tick labels: the back row reads it as it reads the axes
  // (legend capitals 9 px beside 14 px tick labels). Labels inside the plot
  // (the best epoch, markers) keep the smaller size, which lets them stand beside their lines.
  const int tick_px = on ? QFontInfo(plot->xAxis->tickLabelFont()).pixelSize() : 0;
  auto legend_font = [inner_ratio, tick_px, scaled, legendShrink](const QFont& designed) {
    const int px = std::max(1, QFontInfo(designed).pixelSize());
    return scaled(designed,
                  legendShrink * std::max(inner_ratio, static_cast<double>(tick_px) / px));
  };
  auto colour = [](const QPen& designed) { return QPen(palette::forProjector(designed.color())); };

  for (int i = 0; i < plot->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot->plottable(i);
    restyle<QPen>(pens_, p, 0, on, [p] { return p->pen(); }, [p](const QPen& v) { p->setPen(v); }, pen);
    restyle<QBrush>(brushes_, p, 0, on, [p] { return p->brush(); },
                    [p](const QBrush& v) { p->setBrush(v); }, brush);
  }
  for (int i = 0; i < plot->itemCount(); ++i) {
    QCPAbstractItem* item = plot->item(i);
    if (auto* l = qobject_cast<QCPItemStraightLine*>(item)) {
      restyle<QPen>(pens_, l, 0, on, [l] { return l->pen(); }, [l](const QPen& v) { l->setPen(v); }, pen);
    } else if (auto* l = qobject_cast<QCPItemLine*>(item)) {
      restyle<QPen>(pens_, l, 0, on, [l] { return l->pen(); }, [l](const QPen& v) { l->setPen(v); }, pen);
    } else if (auto* r = qobject_cast<QCPItemRect*>(item)) {
      restyle<QPen>(pens_, r, 0, on, [r] { return r->pen(); }, [r](const QPen& v) { r->setPen(v); }, pen);
      restyle<QBrush>(brushes_, r, 0, on, [r] { return r->brush(); },
                      [r](const QBrush& v) { r->setBrush(v); }, brush);
    } else if (auto* t = qobject_cast<QCPItemText*>(item)) {
      restyle<QFont>(fonts_, t, 0, on, [t] { return t->font(); }, [t](const QFont& v) { t->setFont(v); }, inner);
      restyle<QPen>(pens_, t, 1, on, [t] { return QPen(t->color()); },
                    [t](const QPen& v) { t->setColor(v.color()); }, colour);
    }
  }
  for (QCPLegend* l : {plot->legend}) {
    restyle<QFont>(fonts_, l, 0, on, [l] { return l->font(); }, [l](const QFont& v) { l->setFont(v); },
                   legend_font);
  }
  for (QCPLayoutElement* e : plot->plotLayout()->elements(true))
    if (auto* t = qobject_cast<QCPTextElement*>(e)) {
      restyle<QFont>(fonts_, t, 0, on, [t] { return t->font(); }, [t](const QFont& v) { t->setFont(v); }, inner);
      restyle<QPen>(pens_, t, 1, on, [t] { return QPen(t->textColor()); },
                    [t](const QPen& v) { t->setTextColor(v.color()); }, colour);
    }
  if (!on) {  // everything is as designed again; objects deleted meanwhile leave no entry
    pens_.clear();
    brushes_.clear();
    fonts_.clear();
  }
}

void fitTickCounts(QCustomPlot* plot) {
  const int spacing = std::max(35, QFontMetrics(plot->yAxis->tickLabelFont()).height() * 5 / 2);
  plot->yAxis->ticker()->setTickCount(std::clamp((plot->height() - 60) / spacing, 1, 5));
  plot->xAxis->ticker()->setTickCount(std::clamp((plot->width() - 80) / 60, 1, 8));
}

void followPresentation(QCustomPlot* plot) {
  struct Follower : QObject {
    using QObject::QObject;
    PlotStyler styler;
  };
  auto* follower = new Follower(plot);
  auto apply = [plot, follower] {
    const double scale = qApp->property(kPresentationScaleProperty).toDouble();
    const double ratio = qApp->property(kPresentationFontRatioProperty).toDouble();
    const bool on = scale > 1 && ratio > 0;
    if (on || follower->styler.active()) follower->styler.apply(plot, on ? scale : 1, on ? ratio : 1);
  };
  QObject::connect(plot, &QCustomPlot::beforeReplot, follower, apply);
  apply();
}

}  // namespace trainscope

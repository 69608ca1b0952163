// GradNormPlot: the gradient norm over steps with the clipping threshold and the clipped steps,
// split from training_plots.cpp (the loss plot) by concern.
#include <QPen>
#include <cmath>

#include "gui/event_text.h"

#include "gui/plots/palette.h"
#include "gui/plots/training_plots.h"
#include "gui/tr.h"

namespace trainscope {

namespace {

const QColor& kGradColor = palette::kGradient;
const QColor& kClippedColor = palette::kSecondary;
const QColor& kThresholdColor = palette::kAlarm;

}  // namespace

GradNormPlot::GradNormPlot(QWidget* parent) : LivePlot(parent) {
  setObjectName(QStringLiteral("gradNormPlot"));
  // Clipped steps first, underneath: a light bar from the bottom up to the step's norm.
  QColor shade = kThresholdColor;
  shade.setAlpha(45);
  QCPGraph* clipped = addSeriesGraph(series::kStepClipped, {});
  clipped->setLineStyle(QCPGraph::lsImpulse);
  clipped->setPen(QPen(shade, 3));
  addSeriesGraph(series::kStepGradNorm, {})->setPen(QPen(kGradColor, 1));
  // The norm the optimizer used is drawn on top of the raw norm: where clipping acts it lies
  // below it, elsewhere the two coincide. Where it acts the used norm IS max_norm, so the used
  // curve is wide and opaque and the threshold a thin dashed line on top of it: both show.
  addSeriesGraph(series::kStepGradNormClipped, {})->setPen(QPen(kClippedColor, 3.5));
  addSeriesGraph(series::kStepMaxNorm, {})->setPen(QPen(kThresholdColor, 1, Qt::DashLine));
  useSmallLegendFont();
  setClipping(false, 0);
  // Norms spanning more than two decades (exploding, or clipped from 400 to 1) go to a log axis.
  setAutoLogScale(true);
}

void GradNormPlot::retranslate() {
  LivePlot::retranslate();
  xAxis->setLabel(Tr::tr("Step"));
  yAxis->setLabel(Tr::tr("Gradient norm"));
  // Short names (the axis already says "Gradient norm"): at 1024x768 the plot is narrow.
  graphFor(series::kStepGradNorm)->setName(Tr::tr("Before clipping"));
  graphFor(series::kStepGradNormClipped)->setName(Tr::tr("Used (after clipping)"));
  graphFor(series::kStepClipped)->setName(Tr::tr("Clipped steps"));
  graphFor(series::kStepMaxNorm)
      ->setName(clip_enabled_ ? Tr::tr("max_norm %1").arg(EventText::number(max_norm_))
                              : Tr::tr("max_norm (clipping now off)"));
}

QString GradNormPlot::describePoint(const QCPGraph* graph, double key, double value,
                                    bool marker) const {
  // Whatever curve is nearest (the before curve, the used one, the clipped-step bar, the
  // threshold), a clipped step reads "before -> after": the bar alone would name a value
  // without saying which.
  auto at = [this, key](const char* name, double* v) {
    const QCPGraph* g = graphFor(name);
    if (!g || !g->visible()) return false;
    auto it = g->data()->findBegin(key, false);
    if (it == g->data()->constEnd() || it->key != key) return false;
    *v = it->value;
    return true;
  };
  double before = 0, after = 0, limit = 0;
  if (!marker && clip_shown_ && at(series::kStepGradNorm, &before) &&
      at(series::kStepGradNormClipped, &after) && after != before) {
    QString text = Tr::tr("Gradient norm, step %1:\nbefore clipping %2 → after %3")
                       .arg(static_cast<qlonglong>(std::llround(key)))
                       .arg(EventText::number(before), EventText::number(after));
    if (at(series::kStepMaxNorm, &limit))
      text += QLatin1Char('\n') + Tr::tr("max_norm %1").arg(EventText::number(limit));
    return text;
  }
  return LivePlot::describePoint(graph, key, value, marker);
}

void GradNormPlot::setClipping(bool enabled, double max_norm) {
  clip_enabled_ = enabled;
  max_norm_ = max_norm;
  // With clipping off the used norm equals the raw one: one curve is enough, unless the run
  // clipped before (then its threshold and clipped steps stay drawn).
  showClipCurves(enabled || pointCount(series::kStepMaxNorm) > 0);
  retranslate();
}

void GradNormPlot::sync() {
  LivePlot::sync();
  const bool shown = clip_enabled_ || pointCount(series::kStepMaxNorm) > 0;
  if (shown != clip_shown_) {
    showClipCurves(shown);
    LivePlot::sync();  // the value range follows the curves shown
  }
}

void GradNormPlot::showClipCurves(bool shown) {
  clip_shown_ = shown;
  for (const char* name :
       {series::kStepGradNormClipped, series::kStepMaxNorm, series::kStepClipped}) {
    QCPGraph* g = graphFor(name);
    g->setVisible(shown);
    if (shown) {
      g->addToLegend();
    } else {
      g->removeFromLegend();
    }
  }
}

}  // namespace trainscope

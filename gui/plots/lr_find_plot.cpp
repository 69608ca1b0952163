#include "gui/plots/lr_find_plot.h"

#include "gui/plots/palette.h"
#include <algorithm>
#include <cmath>

#include "gui/event_text.h"
#include "gui/tr.h"

namespace trainscope {

namespace {
const QColor& kLossColor = palette::kTrain;
const QColor& kSuggestionColor = palette::kAlarm;
}  // namespace

LrFindPlot::LrFindPlot(QWidget* parent) : LivePlot(parent) {
  setObjectName(QStringLiteral("lrFindPlot"));
  setHistory(&history_);
  xAxis->setScaleType(QCPAxis::stLogarithmic);
  xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
  xAxis->setNumberFormat(QStringLiteral("eb"));
  xAxis->setNumberPrecision(0);
  QColor raw = kLossColor;
  raw.setAlpha(90);
  addSeriesGraph(kLrFindLoss, {})->setPen(QPen(raw, 1));
  // The raw loss of the last steps diverges: the axis follows the smoothed curve.
  setSeriesInRange(kLrFindLoss, false);
  addSeriesGraph(kLrFindSmoothed, {})->setPen(QPen(kLossColor, 2.2));
  retranslate();
}

void LrFindPlot::showResult(const LrFinderResult& result) {
  history_.clear();
  has_loss_range_ = false;
  const std::size_t n = result.points.size();
  for (std::size_t i = 0; i < n; ++i) {
    const LrFinderPoint& p = result.points[i];
    history_.append(kLrFindLoss, p.lr, p.loss);
    history_.append(kLrFindSmoothed, p.lr, p.smoothed_loss);
    // The value range follows the smoothed curve, the diverged last point left out.
    if (std::isfinite(p.smoothed_loss) && !(result.stopped_early && i + 1 == n && n > 2)) {
      loss_lo_ = has_loss_range_ ? std::min(loss_lo_, p.smoothed_loss) : p.smoothed_loss;
      loss_hi_ = has_loss_range_ ? std::max(loss_hi_, p.smoothed_loss) : p.smoothed_loss;
      has_loss_range_ = true;
    }
  }
  lr_lo_ = n > 0 ? result.points.front().lr : 0;
  lr_hi_ = n > 0 ? result.points.back().lr : 0;
  marked_lr_ = result.suggested_lr > 0 ? result.suggested_lr : 0;
  if (marked_lr_ > 0 && !line_) {
    line_ = new QCPItemStraightLine(this);
    line_->setPen(QPen(kSuggestionColor, 1.8, Qt::DashLine));
    label_ = new QCPItemText(this);
    label_->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label_->setColor(kSuggestionColor.darker(120));
    label_->setBrush(palette::kLabelBackground);
    label_->setPadding(QMargins(2, 1, 2, 1));
  }
  if (line_) {
    line_->setVisible(marked_lr_ > 0);
    label_->setVisible(marked_lr_ > 0);
    line_->point1->setCoords(marked_lr_, 0);
    line_->point2->setCoords(marked_lr_, 1);
    label_->position->setCoords(marked_lr_, 0.04);
    // Right of the line in the left half of the (log) axis, left of it further right.
    const double frac = lr_hi_ > lr_lo_ && lr_lo_ > 0 && marked_lr_ > 0
                            ? std::log(marked_lr_ / lr_lo_) / std::log(lr_hi_ / lr_lo_)
                            : 0.0;
    label_->setPositionAlignment((frac > 0.5 ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
  }
  retranslate();
  resetView();
}

void LrFindPlot::sync() {
  LivePlot::sync();
  if (following()) fitRanges();
}

void LrFindPlot::fitRanges() {
  if (lr_hi_ > lr_lo_ && lr_lo_ > 0) xAxis->setRange(lr_lo_, lr_hi_);
  if (has_loss_range_) {
    const double pad = std::max(0.1 * (loss_hi_ - loss_lo_), 1e-6);
    yAxis->setRange(loss_lo_ - pad, loss_hi_ + pad);
  }
}

QString LrFindPlot::describePoint(const QCPGraph* graph, double key, double value,
                                  bool marker) const {
  return Tr::tr("%1\nlearning rate %2: %3")
      .arg(marker ? Tr::tr("non-finite value") : graph->name(), EventText::number(key),
           marker ? graph->name() : EventText::number(value));
}

void LrFindPlot::retranslate() {
  LivePlot::retranslate();
  xAxis->setLabel(Tr::tr("Learning rate (log scale)"));
  yAxis->setLabel(Tr::tr("Training loss"));
  graphFor(kLrFindLoss)->setName(Tr::tr("Loss per step"));
  graphFor(kLrFindSmoothed)->setName(Tr::tr("Smoothed loss"));
  if (label_) label_->setText(Tr::tr("suggested %1").arg(EventText::number(marked_lr_)));
}

}  // namespace trainscope

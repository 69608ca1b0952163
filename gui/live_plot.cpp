#include "gui/live_plot.h"

namespace trainscope {

LivePlot::LivePlot(QWidget* parent) : QCustomPlot(parent) {
  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  setNoAntialiasingOnDrag(true);
  legend->setVisible(true);
  legend->setBrush(QColor(255, 255, 255, 210));
  axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
  setMinimumHeight(160);
  // x is the step: whole numbers only, whatever the zoom (no ticks at 1.5).
  QSharedPointer<QCPAxisTickerFixed> steps(new QCPAxisTickerFixed);
  steps->setTickStep(1.0);
  steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  xAxis->setTicker(steps);
}

void LivePlot::refresh() {
  if (following_) {
    bool any = false;
    for (int i = 0; i < graphCount(); ++i) any = any || !graph(i)->data()->isEmpty();
    if (any) {
      rescaleAxes(true);
      // A little headroom so the newest point is not glued to the frame.
      yAxis->scaleRange(1.05, yAxis->range().center());
      if (xAxis->range().size() < 1)
        xAxis->setRange(xAxis->range().lower, xAxis->range().lower + 1);
    }
  }
  replot(QCustomPlot::rpQueuedReplot);
}

void LivePlot::resetView() {
  setFollowing(true);
  refresh();
}

void LivePlot::setFollowing(bool following) {
  if (following_ == following) return;
  following_ = following;
  emit followingChanged(following);
}

void LivePlot::mouseDoubleClickEvent(QMouseEvent* event) {
  QCustomPlot::mouseDoubleClickEvent(event);
  resetView();
}

void LivePlot::wheelEvent(QWheelEvent* event) {
  setFollowing(false);
  QCustomPlot::wheelEvent(event);
}

void LivePlot::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) setFollowing(false);
  QCustomPlot::mouseMoveEvent(event);
}

}  // namespace trainscope

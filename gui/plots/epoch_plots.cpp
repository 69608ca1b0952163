#include "gui/plots/epoch_plots.h"

#include "gui/plots/palette.h"
#include "gui/tr.h"

namespace trainscope {

namespace {
const QColor& kTrainColor = palette::kTrain;
const QColor& kValColor = palette::kVal;
const QColor& kLrColor = palette::kSecondary;

void smallLegend(LivePlot* plot) {
  QFont f = plot->font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  plot->legend->setFont(f);
  // A side view is narrow: one name per row, and the names never set the window's minimum width.
  plot->legend->setWrap(1);
  plot->legend->setFillOrder(plot->legend->fillOrder(), true);  // re-lay the names out
  plot->legend->setMinimumSize(1, 0);
}
}  // namespace

AccuracyPlot::AccuracyPlot(QWidget* parent) : LivePlot(parent) {
  setObjectName(QStringLiteral("accuracyPlot"));
  QCPGraph* train = addSeriesGraph(series::kEpochTrainAccuracy, {});
  train->setPen(QPen(kTrainColor, 2));
  train->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kTrainColor, Qt::white, 5));
  QCPGraph* val = addSeriesGraph(series::kEpochValAccuracy, {});
  val->setPen(QPen(kValColor, 2));
  val->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kValColor, Qt::white, 5));
  markPointsWhileFew(series::kEpochTrainAccuracy);
  markPointsWhileFew(series::kEpochValAccuracy);
  smallLegend(this);
  retranslate();
}

void AccuracyPlot::retranslate() {
  LivePlot::retranslate();
  xAxis->setLabel(Tr::tr("Step"));
  yAxis->setLabel(Tr::tr("Accuracy"));
  graphFor(series::kEpochTrainAccuracy)->setName(Tr::tr("Training accuracy (epoch)"));
  graphFor(series::kEpochValAccuracy)->setName(Tr::tr("Validation accuracy (epoch)"));
}

LrPlot::LrPlot(QWidget* parent) : LivePlot(parent) {
  setObjectName(QStringLiteral("lrPlot"));
  addSeriesGraph(series::kStepLr, {})->setPen(QPen(kLrColor, 1.5));
  smallLegend(this);
  retranslate();
}

void LrPlot::retranslate() {
  LivePlot::retranslate();
  xAxis->setLabel(Tr::tr("Step"));
  yAxis->setLabel(Tr::tr("Learning rate"));
  graphFor(series::kStepLr)->setName(Tr::tr("Learning rate (per step)"));
}

}  // namespace trainscope

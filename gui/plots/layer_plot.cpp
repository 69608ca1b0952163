#include "gui/plots/layer_plot.h"

#include "gui/plots/palette.h"
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "gui/model/run_store.h"
#include "gui/plots/live_plot.h"
#include "gui/tr.h"

#include "core/config/train_config.h"

namespace trainscope {

namespace {

constexpr int kRedrawMs = 100;

QColor lineColor(std::size_t i) { return palette::tab10(static_cast<int>(i % 10)); }

void smallLegend(LivePlot* plot) {
  QFont f = plot->font();
  f.setPointSizeF(f.pointSizeF() * 0.85);
  plot->legend->setFont(f);
  plot->legend->setWrap(3);
}

}  // namespace

LayerPlot::LayerPlot(const RunStore* store, LivePlot* stepAxis, QWidget* parent)
    : QWidget(parent), store_(store), step_axis_(stepAxis) {
  setObjectName(QStringLiteral("layerPlot"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  hint_ = new QLabel(this);
  hint_->setObjectName(QStringLiteral("layerPlotHint"));
  hint_->setWordWrap(true);
  layout->addWidget(hint_);
  row_ = new QHBoxLayout;
  row_->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(row_, 1);
  timer_ = new QTimer(this);
  timer_->setSingleShot(true);
  timer_->setInterval(kRedrawMs);
  connect(timer_, &QTimer::timeout, this, &LayerPlot::sync);
  connect(store_, &RunStore::layerStatsRecorded, this, &LayerPlot::onLayerStats);
  connect(store_, &RunStore::runStarted, this, [this] {
    if (grad_) grad_->resetView();
    if (ratio_) ratio_->resetView();
  });
  rebuild(LayerStatsRecord{});
}

void LayerPlot::onLayerStats(const LayerStatsRecord& stats) {
  if (stats.names != names_) rebuild(stats);
  if (!timer_->isActive()) timer_->start();
}

void LayerPlot::rebuild(const LayerStatsRecord& stats) {
  names_ = stats.names;
  // The tensors drawn: all of them, or the kMaxLines largest gradients, in state_dict order.
  std::vector<std::size_t> order(names_.size());
  std::iota(order.begin(), order.end(), 0);
  if (order.size() > static_cast<std::size_t>(kMaxLines)) {
    auto norm = [&](std::size_t i) {
      const double v = i < stats.grad_norm.size() ? stats.grad_norm[i] : 0;
      return std::isfinite(v) ? v : 1e300;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return norm(a) > norm(b); });
    order.resize(kMaxLines);
    std::sort(order.begin(), order.end());
  }
  layers_.clear();
  for (std::size_t i : order) layers_.push_back(names_[i]);

  delete grad_;
  delete ratio_;
  grad_ = new LivePlot(this);
  grad_->setObjectName(QStringLiteral("layerGradPlot"));
  ratio_ = new LivePlot(this);
  ratio_->setObjectName(QStringLiteral("layerRatioPlot"));
  for (LivePlot* p : {grad_, ratio_}) {
    smallLegend(p);
    p->setHistory(&store_->history());
    if (step_axis_) step_axis_->linkStepAxis(p);
    // Half the width each, whatever the legend asks for.
    p->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Expanding);
    row_->addWidget(p, 1);
  }
  for (std::size_t k = 0; k < layers_.size(); ++k) {
    const QString name = QString::fromStdString(layers_[k]);
    grad_->addSeriesGraph(series::layerGradNorm(layers_[k]), name)->setPen(QPen(lineColor(k), 1.5));
    QCPGraph* r = ratio_->addSeriesGraph(series::layerUpdateRatio(layers_[k]), name);
    r->setPen(QPen(lineColor(k), 1.5));
    r->removeFromLegend();  // same colours as on the left
  }
  // The ratio plot's lines have the colours of the left legend: no legend of its own (an empty
  // legend row would cap the plot's width at the legend's).
  // Before the first record the left legend is empty too.
  for (LivePlot* p : {grad_, ratio_}) {
    if (p == grad_ && !layers_.empty()) continue;
    p->legend->setVisible(false);
    p->plotLayout()->take(p->legend);
    p->plotLayout()->simplify();
  }
  grad_->setLogScale(true);  // norms of different layers differ by decades
  ratio_->setLogScale(true);
  // The healthy band and its centre, over the whole width whatever the zoom.
  auto* band = new QCPItemRect(ratio_);
  band->setLayer(QStringLiteral("background"));
  for (QCPItemPosition* p : {band->topLeft, band->bottomRight}) {
    p->setTypeX(QCPItemPosition::ptAxisRectRatio);
    p->setTypeY(QCPItemPosition::ptPlotCoords);
  }
  band->topLeft->setCoords(0, kBandHigh);
  band->bottomRight->setCoords(1, kBandLow);
  band->setPen(Qt::NoPen);
  band->setBrush(palette::withAlpha(palette::kGradient, 40));
  band->setClipToAxisRect(true);
  auto* centre = new QCPItemStraightLine(ratio_);
  for (QCPItemPosition* p : {centre->point1, centre->point2}) {
    p->setTypeX(QCPItemPosition::ptAxisRectRatio);
    p->setTypeY(QCPItemPosition::ptPlotCoords);
  }
  centre->point1->setCoords(0, kBandCentre);
  centre->point2->setCoords(1, kBandCentre);
  centre->setPen(QPen(palette::kGradient, 1, Qt::DashLine));
  retranslate();
  sync();
}

void LayerPlot::sync() {
  for (LivePlot* p : {grad_, ratio_})
    if (p) p->sync();
}

void LayerPlot::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  for (LivePlot* p : {grad_, ratio_}) {
    p->setViewport(p->rect());
    p->replot(QCustomPlot::rpQueuedReplot);
  }
}

void LayerPlot::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void LayerPlot::retranslate() {
  const int every = static_cast<int>(store_->config().training.layer_stats_every);
  hint_->setText(
      names_.empty()
          ? Tr::tr("Per-layer gradient norms and update ratios appear here during a run "
                   "(training.layer_stats_every; 0 turns them off).")
          : Tr::tr("Every %1 steps, and at a non-finite step. Left: the gradient norm of each layer – the first line to "
                   "leave the others is the layer that explodes first. Right: update / weight "
                   "per layer; the green band (1e-4 to 1e-2, log10 -4 to -2) is the healthy "
                   "range: above it the learning rate is too high for that layer, below it "
                   "too low.")
                .arg(every));
  for (LivePlot* p : {grad_, ratio_}) {
    if (!p) continue;
    p->retranslate();
    p->xAxis->setLabel(Tr::tr("Step"));
  }
  if (grad_) grad_->yAxis->setLabel(Tr::tr("Layer gradient norm"));
  if (ratio_) ratio_->yAxis->setLabel(Tr::tr("Update / weight"));
  for (LivePlot* p : {grad_, ratio_})
    if (p) p->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace trainscope

#include "gui/plots/training_plots.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "gui/event_text.h"
#include "gui/tr.h"

namespace trainscope {

namespace {

constexpr int kMaxEpochMarkers = 60;  // above this many epochs, no per-epoch markers

const QColor kTrainColor(31, 119, 180);
const QColor kValColor(255, 127, 14);
const QColor kGradColor(44, 160, 44);
const QColor kClippedColor(148, 103, 189);
const QColor kThresholdColor(214, 39, 40);

void smallLegendFont(LivePlot* plot) {
  QFont f = plot->font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  plot->legend->setFont(f);
}

}  // namespace

LossPlot::LossPlot(QWidget* parent) : LivePlot(parent) {
  setObjectName(QStringLiteral("lossPlot"));
  // The previous run first, so that the current curves are drawn over it.
  for (const auto& [name, color] : {std::pair{series::kGhostTrainLoss, kTrainColor},
                                    std::pair{series::kGhostValLoss, kValColor}}) {
    QColor faint = color;
    faint.setAlpha(110);
    QCPGraph* g = addSeriesGraph(name, {});
    g->setPen(QPen(faint, 1.8, Qt::DashLine));
    g->removeFromLegend();
  }
  QColor light = kTrainColor;
  light.setAlpha(70);
  addSeriesGraph(series::kStepLoss, {})->setPen(QPen(light, 1));
  QCPGraph* train = addSeriesGraph(series::kEpochTrainLoss, {});
  train->setPen(QPen(kTrainColor, 2.5));
  train->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kTrainColor, Qt::white, 6));
  QCPGraph* val = addSeriesGraph(series::kEpochValLoss, {});
  val->setPen(QPen(kValColor, 2.5));
  val->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kValColor, Qt::white, 6));
  smallLegendFont(this);
  retranslate();
}

void LossPlot::retranslate() {
  LivePlot::retranslate();
  xAxis->setLabel(Tr::tr("Step"));
  yAxis->setLabel(Tr::tr("Loss"));
  graphFor(series::kStepLoss)->setName(Tr::tr("Training loss (per step)"));
  graphFor(series::kEpochTrainLoss)->setName(Tr::tr("Training loss (epoch)"));
  graphFor(series::kEpochValLoss)->setName(Tr::tr("Validation loss (epoch)"));
  graphFor(series::kGhostValLoss)->setName(Tr::tr("Previous run"));
  emit ghostChanged();
}

QString LossPlot::ghostDescription() const {
  return Tr::tr("Dashed: the previous run, %1")
      .arg(ghost_label_.isEmpty() ? Tr::tr("same settings") : ghost_label_);
}

void LossPlot::setGhostChanges(const std::vector<ConfigChange>& changes) {
  QStringList parts;
  for (const ConfigChange& c : changes) {
    if (parts.size() == 3) {
      parts.back() += QStringLiteral(", …");
      break;
    }
    const QString key = QString::fromStdString(c.key).section(QLatin1Char('.'), -1);
    parts << QStringLiteral("%1 %2 → %3")
                 .arg(key, QString::fromStdString(c.before), QString::fromStdString(c.after));
  }
  ghost_label_ = parts.join(QStringLiteral(", "));
  retranslate();
}

void LossPlot::sync() {
  const bool markers = pointCount(series::kEpochTrainLoss) <= kMaxEpochMarkers;
  for (const char* name : {series::kEpochTrainLoss, series::kEpochValLoss}) {
    QCPGraph* g = graphFor(name);
    QCPScatterStyle style = g->scatterStyle();
    style.setShape(markers ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssNone);
    g->setScatterStyle(style);
  }
  LivePlot::sync();
  const bool ghost = pointCount(series::kGhostValLoss) + pointCount(series::kGhostTrainLoss) > 0;
  if (ghost != ghost_shown_) {
    ghost_shown_ = ghost;
    QCPGraph* g = graphFor(series::kGhostValLoss);
    if (ghost) {
      g->addToLegend();  // last: after the current run's curves
    } else {
      g->removeFromLegend();
    }
    emit ghostChanged();
  }
}

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
  // below it, elsewhere the two coincide.
  QColor clipped_color = kClippedColor;
  clipped_color.setAlpha(190);
  addSeriesGraph(series::kStepGradNormClipped, {})->setPen(QPen(clipped_color, 1.5));
  addSeriesGraph(series::kStepMaxNorm, {})->setPen(QPen(kThresholdColor, 2, Qt::DashLine));
  smallLegendFont(this);
  setClipping(false, 0);
}

void GradNormPlot::retranslate() {
  LivePlot::retranslate();
  xAxis->setLabel(Tr::tr("Step"));
  yAxis->setLabel(Tr::tr("Gradient norm"));
  graphFor(series::kStepGradNorm)->setName(Tr::tr("Gradient norm (before clipping)"));
  graphFor(series::kStepGradNormClipped)->setName(Tr::tr("Gradient norm used (after clipping)"));
  graphFor(series::kStepClipped)->setName(Tr::tr("Clipped steps"));
  graphFor(series::kStepMaxNorm)
      ->setName(clip_enabled_ ? Tr::tr("Clipping max norm (%1)").arg(EventText::number(max_norm_))
                              : Tr::tr("Clipping max norm (now off)"));
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

PlotView::PlotView(LivePlot* plot, const QString& name, QWidget* parent)
    : QWidget(parent), plot_(plot) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 0, 4, 0);
  log_scale_ = new QCheckBox(this);
  log_scale_->setObjectName(name + QStringLiteral("LogCheckBox"));
  legend_ = new QCheckBox(this);
  legend_->setObjectName(name + QStringLiteral("LegendCheckBox"));
  legend_->setChecked(true);
  if (auto* loss = qobject_cast<LossPlot*>(plot)) {
    clear_ghost_ = new QPushButton(this);
    clear_ghost_->setObjectName(name + QStringLiteral("ClearGhostButton"));
    connect(clear_ghost_, &QPushButton::clicked, loss, &LossPlot::requestClearGhost);
    ghost_label_ = new QLabel(this);
    ghost_label_->setObjectName(name + QStringLiteral("GhostLabel"));
    // Never widens the window: a long list of changes is cut, the tooltip has it all.
    ghost_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    connect(loss, &LossPlot::ghostChanged, this, &PlotView::updateGhost);
    bar->addWidget(clear_ghost_);
    bar->addWidget(ghost_label_, 1);
    updateGhost();
  } else {
    bar->addStretch(1);
  }
  bar->addWidget(legend_);
  bar->addWidget(log_scale_);
  bar_ = bar;
  layout->addLayout(bar);
  plot_->setParent(this);
  layout->addWidget(plot_, 1);
  connect(log_scale_, &QCheckBox::toggled, plot_, &LivePlot::setLogScale);
  connect(legend_, &QCheckBox::toggled, plot_, &LivePlot::setLegendShown);
  retranslate();
}

void PlotView::addBarWidget(QWidget* widget) { bar_->insertWidget(0, widget, 1); }

void PlotView::updateGhost() {
  auto* loss = qobject_cast<LossPlot*>(plot_);
  if (!loss || !ghost_label_) return;
  ghost_label_->setText(loss->ghostDescription());
  ghost_label_->setToolTip(loss->ghostDescription());
  ghost_label_->setVisible(loss->ghostShown());
  clear_ghost_->setVisible(loss->ghostShown());
}

void PlotView::retranslate() {
  legend_->setText(Tr::tr("Legend"));
  legend_->setToolTip(Tr::tr("Show or hide the names of the curves above the plot."));
  log_scale_->setText(Tr::tr("Log scale"));
  if (clear_ghost_) {
    clear_ghost_->setText(Tr::tr("Clear previous run"));
    clear_ghost_->setToolTip(
        Tr::tr("Remove the dashed curves of the previous run, kept to show what the new "
               "settings change."));
  }
  log_scale_->setToolTip(
      Tr::tr("Logarithmic value axis: shows both large early values and small late ones. "
             "Zero and negative values are left out of the range."));
}

}  // namespace trainscope

#include "gui/panels/gradient_watch_views.h"

#include "gui/plots/palette.h"
#include <QEvent>
#include <QLabel>
#include <QTimer>
#include <cmath>

#include "gui/engine/run_commands.h"
#include "gui/model/run_store.h"
#include "gui/panels/diagnosis_panel.h"
#include "gui/panels/non_finite_panel.h"
#include "gui/panels/settings_panel.h"
#include "gui/plots/layer_plot.h"
#include "gui/plots/plot_area.h"
#include "gui/plots/training_plots.h"
#include "gui/tr.h"

namespace trainscope {

namespace {
constexpr int kClipShareRefreshMs = 200;
const char* kStepMarkProperty = "trainscopeStepMark";
}  // namespace

GradientWatchViews::GradientWatchViews(RunCommands* controller, PlotArea* plots,
                                       SettingsPanel* settings, QObject* parent)
    : QObject(parent), controller_(controller), plots_(plots), settings_(settings) {
  non_finite_ = new NonFinitePanel(controller_);
  layers_ = new LayerPlot(controller_->store(), plots_->lossPlot());
  plots_->addView(PlotArea::Slot::Bottom, layers_, [] { return Tr::tr("Layers"); },
                  QStringLiteral("layers"));
  diagnosis_ = new DiagnosisPanel(controller_->store());
  plots_->addView(PlotArea::Slot::Side, diagnosis_, [] { return Tr::tr("Diagnosis"); },
                  QStringLiteral("diagnosis"));

  clip_share_ = new QLabel;
  clip_share_->setObjectName(QStringLiteral("clipShareLabel"));
  clip_share_->installEventFilter(this);
  plots_->gradView()->addBarWidget(clip_share_);
  clip_timer_ = new QTimer(this);
  clip_timer_->setSingleShot(true);
  clip_timer_->setInterval(kClipShareRefreshMs);
  connect(clip_timer_, &QTimer::timeout, this, &GradientWatchViews::refreshClipShare);

  connect(controller_->store(), &RunStore::runStarted, this, &GradientWatchViews::onRunStarted);
  connect(controller_->store(), &RunStore::eventOccurred, this, &GradientWatchViews::onEvent);
  connect(controller_->store(), &RunStore::stepRecorded, this, [this](const StepRecord& s) {
    clip_stats_.onStep(s.step, s.grad_norm, s.max_norm.has_value(), s.max_norm.value_or(0));
    if (!clip_timer_->isActive()) clip_timer_->start();
  });
  connect(controller_, &RunCommands::stateChanged, this,
          [this](RunState) { refreshClipShare(); });
  // The non-finite policy is live (SettingsPanel::liveSettingEdited); the panel's "skip bad
  // steps" shows in the settings.
  connect(controller_, &RunCommands::nonFinitePolicyChanged, settings_,
          &SettingsPanel::showNonFinitePolicy);
  // The step the run paused on is marked on the loss and gradient plots (under policy "skip"
  // the non-finite markers alone show the steps).
  connect(non_finite_, &NonFinitePanel::shownForStep, this, &GradientWatchViews::markStep);
  retranslate();
}

void GradientWatchViews::onRunStarted() {
  clip_stats_ = ClipStats();
  for (LivePlot* plot :
       {static_cast<LivePlot*>(plots_->lossPlot()), static_cast<LivePlot*>(plots_->gradPlot())}) {
    for (int i = plot->itemCount() - 1; i >= 0; --i)
      if (plot->item(i)->property(kStepMarkProperty).toBool()) plot->removeItem(i);
  }
  refreshClipShare();
}

void GradientWatchViews::onEvent(const Event& e) {
  if (e.kind == EventKind::ConfigChanged &&
      (e.what == "training.clip.max_norm" || e.what == "training.clip.enabled")) {
    const ClipConfig& clip = controller_->store()->liveConfig().training.clip;  // after `e`
    showClipping(clip.enabled, clip.max_norm);
  }
}

void GradientWatchViews::showClipping(bool enabled, double maxNorm) {
  plots_->gradPlot()->setClipping(enabled, maxNorm);
  settings_->showClipping(enabled, maxNorm);
}

void GradientWatchViews::markStep(qint64 step) {
  // A translucent red band one step wide (step +- 0.5) over the whole height of the loss and
  // gradient-norm plots: visible even when the step is the plot's last, at its right edge.
  for (LivePlot* plot :
       {static_cast<LivePlot*>(plots_->lossPlot()), static_cast<LivePlot*>(plots_->gradPlot())}) {
    auto* band = new QCPItemRect(plot);
    band->setProperty(kStepMarkProperty, true);
    for (QCPItemPosition* p : {band->topLeft, band->bottomRight}) {
      p->setTypeX(QCPItemPosition::ptPlotCoords);
      p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    band->topLeft->setCoords(static_cast<double>(step) - 0.5, 0);
    band->bottomRight->setCoords(static_cast<double>(step) + 0.5, 1);
    band->setPen(Qt::NoPen);
    band->setBrush(palette::withAlpha(palette::kAlarm, 60));
    plot->replot(QCustomPlot::rpQueuedReplot);
  }
}

QString GradientWatchViews::clipShareText(const ClipStats& stats) {
  if (stats.countedSteps() == 0) return QString();
  return Tr::tr("Clipped: %1 % of the last 100 steps, %2 % of the run")
      .arg(QString::number(stats.shareRecent() * 100, 'f', 1))
      .arg(QString::number(stats.shareRun() * 100, 'f', 1));
}

void GradientWatchViews::refreshClipShare() {
  clip_timer_->stop();
  clip_share_->setText(clipShareText(clip_stats_));
}

void GradientWatchViews::retranslate() {
  clip_share_->setToolTip(
      Tr::tr("Share of the steps whose gradients clipping scaled down, counted while clipping "
             "is on. A change of max_norm starts the last-100 window afresh."));
  refreshClipShare();
}

bool GradientWatchViews::eventFilter(QObject* watched, QEvent* event) {
  if (watched == clip_share_ && event->type() == QEvent::LanguageChange) retranslate();
  return QObject::eventFilter(watched, event);
}

}  // namespace trainscope

// PlotView: a live plot with its bar (legend, log scale, smoothing, the previous run's ghost),
// split from training_plots.cpp (the loss and gradient-norm plots) by concern.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/run/smoothing.h"
#include "gui/plots/training_plots.h"
#include "gui/tr.h"

namespace trainscope {

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
    // Their room is kept while they are hidden: neither the plot under the bar nor the columns
    // of the window move when they appear (the button is short for that: "Clear").
    for (QWidget* keep :
         {static_cast<QWidget*>(clear_ghost_), static_cast<QWidget*>(ghost_label_)}) {
      QSizePolicy policy = keep->sizePolicy();
      policy.setRetainSizeWhenHidden(true);
      keep->setSizePolicy(policy);
    }
    bar->addWidget(clear_ghost_);
    bar->addWidget(ghost_label_, 1);
    updateGhost();
    // Smoothing of the per-step loss: mode and strength, next to the curve they change.
    smoothing_mode_ = new QComboBox(this);
    smoothing_mode_->setObjectName(name + QStringLiteral("SmoothingComboBox"));
    smoothing_mode_->addItems({QString(), QString(), QString()});  // texts in retranslate()
    smoothing_mode_->setCurrentIndex(static_cast<int>(loss->smoothing()));
    smoothing_strength_ = new QDoubleSpinBox(this);
    smoothing_strength_->setObjectName(name + QStringLiteral("SmoothingSpinBox"));
    updateSmoothingControl();
    auto apply = [this, loss] {
      loss->setSmoothing(static_cast<LossPlot::Smoothing>(smoothing_mode_->currentIndex()),
                         smoothing_strength_->value());
    };
    connect(smoothing_mode_, &QComboBox::currentIndexChanged, this, [this, apply] {
      if (!suggesting_) smoothing_chosen_ = true;
      updateSmoothingControl();
      apply();
    });
    connect(smoothing_strength_, &QDoubleSpinBox::valueChanged, this, [this, apply] {
      if (!suggesting_) smoothing_chosen_ = true;
      apply();
    });
    bar->addWidget(smoothing_mode_);
    bar->addWidget(smoothing_strength_);
  } else {
    bar->addStretch(1);
  }
  bar->addWidget(legend_);
  bar->addWidget(log_scale_);
  bar_ = bar;
  layout->addLayout(bar);
  plot_->setParent(this);
  layout->addWidget(plot_, 1);
  // A change of the box is the user's choice (the plot's automatic log scale stops); the
  // plot's own switch shows in the box without echoing back (blocked signals).
  connect(log_scale_, &QCheckBox::toggled, plot_, [this](bool logarithmic) {
    plot_->setLogScaleChosen();
    plot_->setLogScale(logarithmic);
  });
  connect(plot_, &LivePlot::logScaleChanged, this, [this](bool logarithmic) {
    const QSignalBlocker block(log_scale_);
    log_scale_->setChecked(logarithmic);
  });
  log_scale_->setChecked(plot_->logScale());
  connect(legend_, &QCheckBox::toggled, plot_, &LivePlot::setLegendShown);
  retranslate();
}

void PlotView::addBarWidget(QWidget* widget) { bar_->insertWidget(0, widget, 1); }

void PlotView::setBarShown(bool shown) {
  bar_hidden_ = !shown;
  for (int i = 0; i < bar_->count(); ++i)
    if (QWidget* w = bar_->itemAt(i)->widget()) {
      // The ghost's controls keep their room while hidden only while the bar is shown (so the
      // plot does not move when they appear); a hidden bar takes no room at all.
      if (w == clear_ghost_ || w == ghost_label_) {
        QSizePolicy policy = w->sizePolicy();
        policy.setRetainSizeWhenHidden(shown);
        w->setSizePolicy(policy);
      }
      if (!shown) {
        w->setProperty("shownBeforeBarHidden", !w->isHidden());
        w->hide();
      } else if (w->property("shownBeforeBarHidden").toBool()) {
        w->show();
      }
    }
  if (shown) updateGhost();
}

void PlotView::updateGhost() {
  auto* loss = qobject_cast<LossPlot*>(plot_);
  if (!loss || !ghost_label_) return;
  ghost_label_->setText(loss->ghostDescription());
  ghost_label_->setToolTip(loss->ghostDescription());
  // The bar hidden (presentation mode): the ghost's controls come back with it.
  const bool shown = loss->ghostShown() && !bar_hidden_;
  ghost_label_->setVisible(shown);
  clear_ghost_->setVisible(shown);
  ghost_label_->setProperty("shownBeforeBarHidden", loss->ghostShown());
  clear_ghost_->setProperty("shownBeforeBarHidden", loss->ghostShown());
}

void PlotView::suggestSmoothingForRun(long long planned_steps) {
  if (!smoothing_strength_ || smoothing_chosen_ ||
      static_cast<LossPlot::Smoothing>(smoothing_mode_->currentIndex()) != LossPlot::Smoothing::Ema)
    return;
  suggesting_ = true;
  smoothing_strength_->setValue(emaWeightForRun(planned_steps));
  suggesting_ = false;
}

void PlotView::updateSmoothingControl() {
  const auto mode = static_cast<LossPlot::Smoothing>(smoothing_mode_->currentIndex());
  const QSignalBlocker block(smoothing_strength_);
  smoothing_strength_->setEnabled(mode != LossPlot::Smoothing::Off);
  if (mode == LossPlot::Smoothing::Window) {
    smoothing_strength_->setDecimals(0);
    smoothing_strength_->setRange(1, 5000);
    smoothing_strength_->setSingleStep(10);
    smoothing_strength_->setValue(50);
  } else {
    smoothing_strength_->setDecimals(3);
    smoothing_strength_->setRange(0, 0.999);
    smoothing_strength_->setSingleStep(0.01);
    smoothing_strength_->setValue(0.95);
  }
}

void PlotView::retranslate() {
  legend_->setText(Tr::tr("Legend"));
  legend_->setToolTip(Tr::tr("Show or hide the names of the curves above the plot. Right-click "
                             "a plot to save it as an image or its data as CSV."));
  log_scale_->setText(Tr::tr("Log scale"));
  if (clear_ghost_) {
    clear_ghost_->setText(Tr::tr("Clear"));
    clear_ghost_->setToolTip(
        Tr::tr("Remove the dashed curves of the previous run, kept to show what the new "
               "settings change."));
  }
  if (smoothing_mode_) {
    smoothing_mode_->setItemText(0, Tr::tr("Raw"));
    smoothing_mode_->setItemText(1, Tr::tr("EMA"));
    smoothing_mode_->setItemText(2, Tr::tr("Window"));
    const QString tip = Tr::tr(
        "Smoothing of the per-step training loss (the raw values stay drawn faintly; with "
        "fewer than 4 steps per epoch there is nothing to smooth). EMA: "
        "exponential moving average with debiasing, as TensorBoard; the value is its weight "
        "(0 = none, 0.99 = strong). Window: the mean of the last N steps; it never "
        "lags behind more than N steps.");
    smoothing_mode_->setToolTip(tip);
    smoothing_strength_->setToolTip(tip);
  }
  log_scale_->setToolTip(
      Tr::tr("Logarithmic value axis: shows both large early values and small late ones. "
             "Zero and negative values are left out of the range."));
}

}  // namespace trainscope

#include "gui/panels/run_controls_panel.h"

#include <QGridLayout>
#include <QPushButton>
#include <QStyle>

#include "gui/tr.h"

namespace trainscope {

RunControlsPanel::RunControlsPanel(QWidget* parent) : QGroupBox(parent) {
  setObjectName(QStringLiteral("runPanel"));
  auto make = [this](const char* name, QStyle::StandardPixmap icon) {
    auto* b = new QPushButton(style()->standardIcon(icon), QString(), this);
    b->setObjectName(QLatin1String(name));
    return b;
  };
  start_ = make("startButton", QStyle::SP_MediaPlay);
  pause_ = make("pauseButton", QStyle::SP_MediaPause);
  stop_ = make("stopButton", QStyle::SP_MediaStop);
  step_ = make("stepButton", QStyle::SP_MediaSeekForward);
  step_epoch_ = make("stepEpochButton", QStyle::SP_MediaSkipForward);
  auto* grid = new QGridLayout(this);
  grid->addWidget(start_, 0, 0);
  grid->addWidget(pause_, 0, 1);
  grid->addWidget(stop_, 0, 2);
  grid->addWidget(step_, 1, 0);
  grid->addWidget(step_epoch_, 1, 1);
  connect(start_, &QPushButton::clicked, this, &RunControlsPanel::startClicked);
  connect(pause_, &QPushButton::clicked, this, &RunControlsPanel::pauseClicked);
  connect(step_, &QPushButton::clicked, this, &RunControlsPanel::stepClicked);
  connect(step_epoch_, &QPushButton::clicked, this, &RunControlsPanel::stepEpochClicked);
  connect(stop_, &QPushButton::clicked, this, &RunControlsPanel::stopClicked);
  setState(state_);
}

void RunControlsPanel::retranslate() {
  using S = TrainingController::State;
  setTitle(Tr::tr("Run"));
  start_->setText(Tr::tr("&Start"));
  start_->setToolTip(Tr::tr("Start a new training run with the settings above."));
  if (state_ == S::Paused) {
    pause_->setText(Tr::tr("Res&ume"));
    pause_->setToolTip(Tr::tr("Continue training."));
  } else {
    pause_->setText(Tr::tr("Pa&use"));
    pause_->setToolTip(Tr::tr("Pause training after the current batch; press again to resume."));
  }
  step_->setText(Tr::tr("Step &batch"));
  step_->setToolTip(
      Tr::tr("Train exactly one batch, then pause. Without a run, starts a new run and pauses "
             "after its first batch."));
  step_epoch_->setText(Tr::tr("Step &epoch"));
  step_epoch_->setToolTip(
      Tr::tr("Train to the end of the current epoch (validation included), then pause."));
  stop_->setText(Tr::tr("S&top"));
  stop_->setToolTip(Tr::tr("End the run now. Its files (metrics, summary) are kept."));
}

void RunControlsPanel::setState(TrainingController::State state) {
  using S = TrainingController::State;
  state_ = state;
  const bool idle = state == S::Idle || state == S::Finished;
  const bool live = state == S::Running || state == S::Paused;
  start_->setEnabled(idle);
  pause_->setEnabled(live);
  pause_->setIcon(
      style()->standardIcon(state == S::Paused ? QStyle::SP_MediaPlay : QStyle::SP_MediaPause));
  step_->setEnabled(idle || live);
  step_epoch_->setEnabled(live);
  stop_->setEnabled(live);
  retranslate();
}

}  // namespace trainscope

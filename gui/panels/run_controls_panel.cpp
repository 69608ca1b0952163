#include "gui/panels/run_controls_panel.h"

#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QStyle>
#include <algorithm>
#include <cmath>

#include "gui/tr.h"

namespace trainscope {

namespace {
// Slider positions 0..kFullSpeed-1 are 10^(p/20) steps per second (1 .. ~900); the last notch,
// kFullSpeed, is full speed.
constexpr int kFullSpeed = 60;
double paceAt(int position) {
  return position >= kFullSpeed ? 0.0 : std::pow(10.0, position / 20.0);
}
int positionOf(double pace) {
  if (!(pace > 0)) return kFullSpeed;
  return std::clamp(static_cast<int>(std::lround(20.0 * std::log10(pace))), 0, kFullSpeed - 1);
}
}  // namespace

double RunControlsPanel::suggestedPace(const QString& preset) {
  // About 25 s per demo: overfit-sine has 800 steps (one batch per epoch), moons 750.
  if (preset == QLatin1String("overfit-sine")) return 32;
  if (preset == QLatin1String("moons")) return 32;
  return 0;
}

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
  grid_ = new QGridLayout(this);
  connect(start_, &QPushButton::clicked, this, &RunControlsPanel::startClicked);
  connect(pause_, &QPushButton::clicked, this, &RunControlsPanel::pauseClicked);
  connect(step_, &QPushButton::clicked, this, &RunControlsPanel::stepClicked);
  connect(step_epoch_, &QPushButton::clicked, this, &RunControlsPanel::stepEpochClicked);
  connect(stop_, &QPushButton::clicked, this, &RunControlsPanel::stopClicked);

  speed_caption_ = new QLabel(this);
  speed_ = new QSlider(Qt::Horizontal, this);
  speed_->setObjectName(QStringLiteral("speedSlider"));
  speed_->setRange(0, kFullSpeed);
  speed_->setPageStep(10);
  speed_value_ = new QLabel(this);
  speed_caption_->setBuddy(speed_);
  setCompact(false);
  const QVariant saved = QSettings().value(QStringLiteral("pace"));
  speed_->setValue(positionOf(saved.isValid() ? saved.toDouble()
                                              : suggestedPace(QStringLiteral("overfit-sine"))));
  connect(speed_, &QSlider::valueChanged, this, [this](int position) {
    if (remember_pace_) QSettings().setValue(QStringLiteral("pace"), paceAt(position));
    retranslate();
    emit paceChanged(paceAt(position));
  });
  setState(state_);
}

void RunControlsPanel::retranslate() {
  using S = RunState;
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
  speed_caption_->setText(Tr::tr("Speed:"));
  const double pace = paceAt(speed_->value());
  // Two significant digits without an exponent in any language ("890", never "8.9E+02").
  const QString rate = pace >= 10 ? QLocale().toString(pace, 'f', 0)
                                  : QLocale().toString(pace, 'f', pace >= 1 ? 1 : 2);
  speed_value_->setText(pace > 0 ? Tr::tr("%1 steps/s").arg(rate) : Tr::tr("full speed"));
  speed_->setToolTip(
      Tr::tr("How fast the run goes, so it can be watched and explained: from one step per "
             "second to full speed. It only paces the training loop; every number of the run "
             "stays the same."));
}

double RunControlsPanel::pace() const { return paceAt(speed_->value()); }

void RunControlsPanel::setPace(double stepsPerSecond, bool remember) {
  remember_pace_ = remember;
  speed_->setValue(positionOf(stepsPerSecond));
  remember_pace_ = true;
}

void RunControlsPanel::setCompact(bool compact) {
  QWidget* const widgets[] = {start_, pause_, stop_, step_, step_epoch_,
                              speed_caption_, speed_, speed_value_};
  for (QWidget* w : widgets) grid_->removeWidget(w);
  // Normal: three columns (Start Pause Stop / Step batch, Step epoch / Speed: slider value).
  // Compact: one column, the rows at the top.
  const int cells[2][8][2] = {{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {2, 2}},
                              {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {6, 0}, {5, 0}, {7, 0}}};
  for (int i = 0; i < 8; ++i)
    grid_->addWidget(widgets[i], cells[compact][i][0], cells[compact][i][1]);
  for (int row = 0; row < 9; ++row) grid_->setRowStretch(row, 0);
  grid_->setRowStretch(8, compact ? 1 : 0);
  // Compact: the slider alone (its tooltip says the pace), the height for the panels above.
  speed_caption_->setVisible(!compact);
  speed_value_->setVisible(!compact);
}

bool RunControlsPanel::press(Control control) {
  QPushButton* button = nullptr;
  switch (control) {
    case Control::StartOrPause: button = start_->isEnabled() ? start_ : pause_; break;
    case Control::Step: button = step_; break;
    case Control::StepEpoch: button = step_epoch_; break;
  }
  if (!button->isEnabled()) return false;
  button->click();
  return true;
}

void RunControlsPanel::setState(RunState state) {
  using S = RunState;
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

#include "gui/panels/run_status.h"

#include "gui/plots/palette.h"
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "gui/event_text.h"
#include "gui/tr.h"
#include "gui/widgets/scientific_spin_box.h"

namespace trainscope {

QString RunProgressPanel::formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("–");
  const qint64 s = static_cast<qint64>(std::llround(seconds));
  if (s >= 3600) {
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600)
        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
  }
  return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

RunProgressPanel::RunProgressPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* progress_row = new QHBoxLayout;
  progress_ = new QProgressBar(this);
  progress_->setObjectName(QStringLiteral("runProgressBar"));
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setFormat(QStringLiteral("%p%"));
  progress_->setMinimumWidth(80);
  time_ = new QLabel(this);
  time_->setObjectName(QStringLiteral("timeLabel"));
  progress_row->addWidget(progress_, 1);
  progress_row->addWidget(time_);
  layout->addLayout(progress_row);

  auto* dir_row = new QHBoxLayout;
  dir_caption_ = new QLabel(this);
  dir_ = new QLabel(this);
  dir_->setObjectName(QStringLiteral("runDirLabel"));
  dir_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  dir_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  open_ = new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), QString(), this);
  open_->setObjectName(QStringLiteral("openRunFolderButton"));
  open_->setEnabled(false);
  connect(open_, &QPushButton::clicked, this, &RunProgressPanel::openRunFolder);
  dir_row->addWidget(dir_caption_);
  dir_row->addWidget(dir_, 1);
  dir_row->addWidget(open_);
  layout->addLayout(dir_row);
  retranslate();
}

void RunProgressPanel::retranslate() {
  progress_->setToolTip(Tr::tr("How much of the run is done (steps done of all planned steps)."));
  time_->setToolTip(Tr::tr("Training time so far (pauses excluded), and the estimated time left."));
  dir_caption_->setText(Tr::tr("Run folder:"));
  dir_->setToolTip(run_dir_.isEmpty() ? Tr::tr("Where this run's files are written: config, "
                                               "metrics, steps, events and summary.")
                                      : run_dir_);
  dir_->setText(run_dir_.isEmpty() ? Tr::tr("(created when a run starts)") : run_dir_);
  open_->setText(Tr::tr("Open folder"));
  open_->setToolTip(Tr::tr("Open the run folder in the file manager."));
  if (wall_ >= 0) {
    time_->setText(Tr::tr("Training time %1 (pauses excluded)").arg(formatDuration(wall_)));
  } else {
    time_->setText(
        Tr::tr("Trained %1 · ETA %2").arg(formatDuration(elapsed_), formatDuration(eta_)));
    time_->setToolTip(
        Tr::tr("Training time so far (pauses and the speed limit's waiting not "
               "counted) and the time left at the current speed."));
  }
}

void RunProgressPanel::startRun(const QString& runDir) {
  run_dir_ = runDir;
  elapsed_ = 0;
  eta_ = -1;
  wall_ = -1;
  progress_->setValue(0);
  open_->setEnabled(!run_dir_.isEmpty());
  retranslate();
}

void RunProgressPanel::showProgress(qint64 step, qint64 totalSteps, double elapsedSeconds,
                                    double stepsPerSecond) {
  if (totalSteps > 0) {
    progress_->setValue(
        static_cast<int>(1000.0 * static_cast<double>(step) / static_cast<double>(totalSteps)));
  }
  elapsed_ = elapsedSeconds;
  const double per_step = step > 0 ? std::max(elapsedSeconds / static_cast<double>(step),
                                              stepsPerSecond > 0 ? 1.0 / stepsPerSecond : 0.0)
                                   : -1;
  eta_ = step > 0 && totalSteps >= step ? per_step * static_cast<double>(totalSteps - step) : -1;
  time_->setText(Tr::tr("Trained %1 · ETA %2").arg(formatDuration(elapsed_), formatDuration(eta_)));
}

void RunProgressPanel::showEnded(double wallSeconds) {
  wall_ = wallSeconds;
  time_->setText(Tr::tr("Training time %1 (pauses excluded)").arg(formatDuration(wall_)));
}

void RunProgressPanel::openRunFolder() {
  if (run_dir_.isEmpty()) return;
  if (QDesktopServices::openUrl(QUrl::fromLocalFile(run_dir_))) return;
  QMessageBox box(QMessageBox::Information, Tr::tr("Run folder"),
                  Tr::tr("No file manager could be started. The run folder is:\n%1").arg(run_dir_),
                  QMessageBox::Close, this);
  QPushButton* copy = box.addButton(Tr::tr("Copy path"), QMessageBox::ActionRole);
  box.exec();
  if (box.clickedButton() == copy) QApplication::clipboard()->setText(run_dir_);
}

RunStatusBar::RunStatusBar(QWidget* parent) : QStatusBar(parent) {
  epoch_ = new QLabel(this);
  step_ = new QLabel(this);
  metrics_ = new QLabel(this);
  speed_ = new QLabel(this);
  seed_ = new QLabel(this);
  seed_->setObjectName(QStringLiteral("seedLabel"));
  device_ = new QLabel(this);
  device_->setObjectName(QStringLiteral("deviceLabel"));
  seed_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  mistakes_ = new QLabel(this);
  mistakes_->setObjectName(QStringLiteral("mistakesLabel"));
  mistakes_->setStyleSheet(
      QStringLiteral("color: %1; font-weight: bold;").arg(palette::css(palette::kMistakeText)));
  mistakes_->setVisible(false);
  for (QLabel* l : {mistakes_, epoch_, step_, metrics_, speed_, device_, seed_}) {
    l->setContentsMargins(6, 0, 6, 0);  // fields never run into each other
    addPermanentWidget(l);
  }
  reset();
}

void RunStatusBar::reset() {
  info_.reset();
  step_record_.reset();
  epoch_record_.reset();
  lr_.reset();
  total_epochs_ = 0;
  inverse_rate_sum_ = 0;
  rated_epochs_ = 0;
  ended_ = false;
  showMistakes({});
  retranslate();
}

void RunStatusBar::showMistakes(const std::vector<std::string>& names) {
  mistake_names_ = names;
  mistakes_->setVisible(!names.empty());
  mistakes_->setText(names.empty() ? QString()
                                   : Tr::tr("TEACHING: %n mistake(s) on", nullptr,
                                            static_cast<int>(names.size())));
  mistakes_->setToolTip(EventText::mistakesBanner(names));
}

void RunStatusBar::showRunInfo(const RunInfo& info) {
  info_ = info;
  showMistakes(info.mistakes);
  total_epochs_ = info.epochs;
  render();
}

void RunStatusBar::showStep(const StepRecord& step, qint64 totalEpochs) {
  if (!step_record_ || step.step > step_record_->step) lr_ = step.lr;
  step_record_ = step;
  total_epochs_ = totalEpochs;
  render();
}

void RunStatusBar::showLearningRate(double lr) {
  lr_ = lr;
  render();
}

void RunStatusBar::showEpoch(const EpochRecord& epoch, qint64 totalEpochs) {
  epoch_record_ = epoch;
  lr_ = epoch.lr;
  if (epoch.samples_per_second > 0) {
    inverse_rate_sum_ += 1.0 / epoch.samples_per_second;
    ++rated_epochs_;
  }
  total_epochs_ = totalEpochs;
  render();
}

void RunStatusBar::showRunEnded() {
  ended_ = true;
  render();
}

void RunStatusBar::setCompact(bool compact) {
  compact_ = compact;
  speed_->setVisible(!compact);
  seed_->setVisible(!compact);
  // The fields' minimum widths follow the font they are drawn in now.
  for (QLabel* l : {epoch_, step_, metrics_, speed_, device_, seed_}) {
    l->setMinimumWidth(0);
    l->setMinimumWidth(l->sizeHint().width());
  }
}

void RunStatusBar::setField(QLabel* label, const QString& text) {
  if (label->text() == text) return;
  label->setText(text);
  // As wide as the text: the status bar never squeezes a field into "Step 3" for step 300.
  label->setMinimumWidth(label->sizeHint().width());
}

void RunStatusBar::retranslate() {
  showMistakes(mistake_names_);
  epoch_->setToolTip(Tr::tr("The epoch being trained (or the last one), of the planned epochs."));
  step_->setToolTip(Tr::tr("Optimizer steps (batches) done so far."));
  metrics_->setToolTip(
      Tr::tr("Validation result of the last finished epoch and the learning rate in force."));
  speed_->setToolTip(
      Tr::tr("Training throughput of the last epoch; when the run has ended, its mean over all "
             "epochs."));
  device_->setToolTip(Tr::tr("The device this run trains on (training.device; \"auto\" takes a "
                             "GPU when there is one) and its intra-op threads on the CPU."));
  seed_->setToolTip(
      Tr::tr("The random seed of this run; put it in the settings to repeat the run exactly. "
             "You can select and copy it."));
  render();
}

void RunStatusBar::render() {
  // The epoch shown is the one the newest step belongs to (the same number the events and
  // steps.csv give); before the first step, epoch 0.
  const qint64 epoch =
      step_record_ ? step_record_->epoch : (epoch_record_ ? epoch_record_->epoch : 0);
  setField(epoch_, total_epochs_ > 0 ? Tr::tr("Epoch %1/%2").arg(epoch).arg(total_epochs_)
                                     : Tr::tr("Epoch –"));
  setField(step_, step_record_ ? Tr::tr("Step %1").arg(step_record_->step) : Tr::tr("Step –"));
  if (epoch_record_) {
    const EpochRecord& e = *epoch_record_;
    // The learning rate in force now: a live change shows at once, not at the epoch's end.
    const QString lr = ScientificSpinBox::formatValue(lr_.value_or(e.lr));
    setField(metrics_,
             e.val_accuracy
                 ? Tr::tr("Validation accuracy %1 % · lr %2")
                       .arg(QLocale().toString(100.0 * *e.val_accuracy, 'f', 2), lr)
                 : Tr::tr("Validation loss %1 · lr %2").arg(EventText::number(e.val_loss), lr));
    // Every epoch has the same number of samples: the mean rate is epochs / sum of 1/rate.
    if (ended_ && rated_epochs_ > 0) {
      setField(speed_, Tr::tr("mean %1 samples/s")
                           .arg(QLocale().toString(rated_epochs_ / inverse_rate_sum_, 'f', 0)));
    } else {
      QString speed = Tr::tr("%1 samples/s").arg(QLocale().toString(e.samples_per_second, 'f', 0));
      // The share of the epoch spent waiting for batches (steps.csv data_wait), when it counts
      if (e.data_wait_share && *e.data_wait_share >= 0.05)
        speed = Tr::tr("%1, %2 % waiting for data")
                    .arg(speed, QLocale().toString(100.0 * *e.data_wait_share, 'f', 0));
      setField(speed_, speed);
    }
  } else {
    setField(metrics_, QString());
    setField(speed_, Tr::tr("– samples/s"));
  }
  setField(seed_, info_ ? Tr::tr("Seed %1").arg(info_->seed) : Tr::tr("Seed –"));
  if (!info_ || info_->device.empty())
    setField(device_, Tr::tr("Device –"));
  else if (info_->device == "cpu")
    setField(device_, Tr::tr("CPU, %n thread(s)", nullptr, info_->num_threads));
  else
    setField(device_, QString::fromStdString(info_->device));
}

void RunStatusBar::showState(RunState state) {
  using S = RunState;
  switch (state) {
    case S::Running:
      showMessage(Tr::tr("Training..."));
      break;
    case S::Paused:
      showMessage(Tr::tr("Paused"));
      break;
    case S::Stopping:
      showMessage(Tr::tr("Stopping..."));
      break;
    case S::Finished:
    case S::Idle:
      clearMessage();
      break;
  }
}

}  // namespace trainscope

#include "gui/panels/repro_panel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/config/train_config.h"
#include "gui/engine/run_commands.h"
#include "gui/model/run_store.h"
#include "gui/panels/amp_report_dialog.h"
#include "gui/panels/repro_report_dialog.h"
#include "gui/tr.h"

namespace trainscope {

ReproPanel::ReproPanel(const RunCommands* controller, std::function<TrainConfig()> config,
                       const DeviceInfo& device, QWidget* parent)
    : QGroupBox(parent), controller_(controller), config_(std::move(config)), device_(device) {
  setObjectName(QStringLiteral("reproPanel"));
  auto* layout = new QVBoxLayout(this);
  auto* steps_row = new QHBoxLayout;
  steps_caption_ = new QLabel(this);
  steps_ = new QSpinBox(this);
  steps_->setObjectName(QStringLiteral("reproStepsSpinBox"));
  steps_->setRange(1, 100000);
  steps_->setValue(100);  // as trainscope-cli verify-repro
  steps_caption_->setBuddy(steps_);
  steps_row->addWidget(steps_caption_);
  steps_row->addWidget(steps_, 1);
  layout->addLayout(steps_row);
  auto* buttons = new QHBoxLayout;
  verify_ = new QPushButton(this);
  verify_->setObjectName(QStringLiteral("verifyReproButton"));
  compare_ = new QPushButton(this);
  compare_->setObjectName(QStringLiteral("ampCompareButton"));
  buttons->addWidget(verify_);
  buttons->addWidget(compare_);
  layout->addLayout(buttons);
  connect(verify_, &QPushButton::clicked, this, &ReproPanel::verifyRepro);
  connect(compare_, &QPushButton::clicked, this, &ReproPanel::compareAmp);
  if (controller_)
    connect(controller_, &RunCommands::stateChanged, this, &ReproPanel::updateEnabled);
  retranslate();
  updateEnabled();
}

ReproPanel::~ReproPanel() {
  // The job's destructor cancels and joins before the panel's widgets go.
  job_.reset();
}

void ReproPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QGroupBox::changeEvent(event);
}

void ReproPanel::retranslate() {
  setTitle(Tr::tr("Reproducibility and precision"));
  steps_caption_->setText(Tr::tr("Steps per run:"));
  steps_->setToolTip(Tr::tr("Optimizer steps each of the two runs of a check trains."));
  verify_->setText(Tr::tr("&Verify reproducibility"));
  verify_->setToolTip(
      Tr::tr("Trains the current settings twice from the same seed and compares every loss and "
             "the final weights bit for bit. With a fixed seed they should be identical."));
  compare_->setText(Tr::tr("AMP &A/B"));
  compare_->setToolTip(
      Tr::tr("Trains the current settings twice from the same seed, with float32 and with "
             "mixed precision (AMP), and compares the losses and the speed."));
  updateEnabled();
}

void ReproPanel::updateEnabled() {
  const bool run_active = controller_ && controller_->isActive();
  const bool free = !job_ && !run_active;
  verify_->setEnabled(free);
  compare_->setEnabled(free);
  steps_->setEnabled(!job_);
  setToolTip(run_active ? Tr::tr("Available when no run is active: a check trains on the same "
                                 "cores.")
                        : QString());
}

bool ReproPanel::verifyRepro() { return start(CompareJob::Kind::VerifyRepro); }

bool ReproPanel::compareAmp() { return start(CompareJob::Kind::AmpCompare); }

bool ReproPanel::start(CompareJob::Kind kind) {
  if (job_ || (controller_ && controller_->isActive())) return false;
  CompareRequest request;
  request.config = config_();
  request.steps = steps_->value();
  job_ = std::make_unique<CompareJob>(kind, std::move(request));
  CompareJob* job = job_.get();
  connect(job, &CompareJob::progressed, this, &ReproPanel::onProgress);
  connect(job, &CompareJob::reproFinished, this, [this](const ReproReport& report) {
    endJob();
    showReport(new ReproReportDialog(report, window()));
  });
  connect(job, &CompareJob::ampFinished, this, [this](const AmpCompareReport& report) {
    endJob();
    showReport(new AmpReportDialog(report, device_, window()));
  });
  connect(job, &CompareJob::cancelled, this, &ReproPanel::endJob);
  connect(job, &CompareJob::failed, this, [this](const QString& message) {
    endJob();
    emit checkFailed(message);
    auto* box = new QMessageBox(
        QMessageBox::Warning, Tr::tr("The check could not run"),
        Tr::tr("The check could not run with the current settings.") + QLatin1Char('\n') + message,
        QMessageBox::Ok, window());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  });

  const bool repro = kind == CompareJob::Kind::VerifyRepro;
  progress_ = new QProgressDialog(window());
  progress_->setObjectName(QStringLiteral("compareProgressDialog"));
  progress_->setAttribute(Qt::WA_DeleteOnClose);
  progress_->setWindowTitle(repro ? Tr::tr("Reproducibility check") : Tr::tr("AMP A/B comparison"));
  progress_->setWindowModality(Qt::WindowModal);
  progress_->setAutoClose(false);
  progress_->setAutoReset(false);
  progress_->setMinimumDuration(0);
  progress_->setRange(0, static_cast<int>(job->runs() * job->steps()));
  progress_->setCancelButtonText(Tr::tr("Cancel"));
  connect(progress_, &QProgressDialog::canceled, job, &CompareJob::cancel);
  onProgress(0, 0);
  progress_->show();
  updateEnabled();
  return true;
}

void ReproPanel::onProgress(int run, qint64 step) {
  if (!progress_ || !job_) return;
  if (progress_->wasCanceled()) job_->cancel();
  const bool repro = job_->kind() == CompareJob::Kind::VerifyRepro;
  const QString which =
      repro ? Tr::tr("Run %1 of 2").arg(run + 1)
            : (compareAmpRunIsAmp(run) ? Tr::tr("AMP run, round %1 of %2")
                                       : Tr::tr("float32 run, round %1 of %2"))
                  .arg(run / 2 + 1)
                  .arg(job_->runs() / 2);
  progress_->setLabelText(Tr::tr("%1: step %2 of %3").arg(which).arg(step).arg(job_->steps()));
  progress_->setValue(static_cast<int>(run * job_->steps() + step));
}

void ReproPanel::endJob() {
  if (progress_) progress_->close();
  // Deleted later: this runs inside one of the job's signals.
  if (job_) {
    CompareJob* done = job_.release();
    done->setParent(this);
    done->deleteLater();
  }
  updateEnabled();
}

void ReproPanel::showReport(QDialog* dialog) {
  last_report_ = dialog;
  dialog->show();
  emit reportShown(dialog);
}

}  // namespace trainscope

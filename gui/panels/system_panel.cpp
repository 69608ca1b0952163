#include "gui/panels/system_panel.h"

#include <QDateTime>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>
#include <cmath>

#include "gui/engine/run_commands.h"
#include "gui/model/run_store.h"
#include "gui/panels/device_panel.h"
#include "gui/plots/palette.h"
#include "gui/tr.h"

namespace trainscope {

bool threadsOversubscribe(int threads, int processes, int cores) {
  return threads > 0 && processes > 0 && cores > 0 &&
         static_cast<int64_t>(threads) * processes > cores;
}

/// Each core's load as a bar (0-100 %), its number under it; a tooltip gives the figures.
class CoreBars : public QWidget {
 public:
  explicit CoreBars(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("coreBars"));
    setMinimumHeight(36);
  }
  void set(std::vector<double> load) {
    load_ = std::move(load);
    QStringList lines;
    for (std::size_t i = 0; i < load_.size(); ++i)
      lines << Tr::tr("core %1: %2% busy")
                   .arg(i)
                   .arg(std::isfinite(load_[i]) ? std::lround(load_[i]) : 0);
    setToolTip(lines.join(QLatin1Char('\n')));
    update();
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    const int n = static_cast<int>(load_.size());
    if (n == 0) return;
    const QFontMetrics fm(font());
    const int label_h = n <= 32 ? fm.height() : 0;
    const int w = std::max(2, std::min(40, width() / n));
    const int h = height() - label_h - 1;
    for (int i = 0; i < n; ++i) {
      const double v = std::isfinite(load_[static_cast<std::size_t>(i)])
                           ? load_[static_cast<std::size_t>(i)]
                           : 0;
      const QRect frame(i * w + 1, 0, w - 2, h);
      p.fillRect(frame, palette().base());
      const int filled = static_cast<int>(std::lround(h * std::clamp(v, 0.0, 100.0) / 100.0));
      p.fillRect(QRect(frame.left(), frame.bottom() - filled + 1, frame.width(), filled),
                 v > 90 ? palette::kAlarm : palette::tab10(0));
      p.setPen(palette::kGridLine);
      p.drawRect(frame.adjusted(0, 0, -1, -1));
      if (label_h > 0 && w >= fm.horizontalAdvance(QString::number(i))) {
        p.setPen(palette().text().color());
        p.drawText(QRect(i * w, h + 1, w, label_h), Qt::AlignCenter, QString::number(i));
      }
    }
  }

 private:
  std::vector<double> load_;
};

SystemPanel::SystemPanel(const DeviceInfo& info, RunCommands* controller, QWidget* parent)
    : QWidget(parent), controller_(controller), info_(info), blas_(blasKernel(info.blas_name)) {
  setObjectName(QStringLiteral("systemPanel"));
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(6, 4, 6, 4);
  caption_ = new QLabel(this);
  caption_->setWordWrap(true);
  outer->addWidget(caption_);
  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  auto row = [&](QLabel*& title, QWidget* value) {
    title = new QLabel(this);
    form->addRow(title, value);
  };
  auto value = [this](const char* name) {
    auto* l = new QLabel(this);
    l->setObjectName(QLatin1String(name));
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
  };
  cpu_ = value("cpuLabel");
  row(cpu_title_, cpu_);
  cores_ = new CoreBars(this);
  row(cores_title_, cores_);
  threads_ = value("threadsLabel");
  row(threads_title_, threads_);
  memory_ = value("systemMemoryLabel");
  row(memory_title_, memory_);
  throughput_ = value("throughputLabel");
  row(throughput_title_, throughput_);
  blas_label_ = value("blasKernelLabel");
  row(blas_title_, blas_label_);
  outer->addLayout(form);
  warning_ = value("threadsWarning");
  warning_->setStyleSheet(QStringLiteral("color: %1;").arg(palette::kAlarm.name()));
  warning_->hide();
  outer->addWidget(warning_);
  outer->addStretch(1);
  timer_.setInterval(kIntervalMs);
  connect(&timer_, &QTimer::timeout, this, &SystemPanel::refresh);
  if (controller_) {
    connect(controller_->store(), &RunStore::stepRecorded, this, &SystemPanel::addStep);
    connect(controller_->store(), &RunStore::runStarted, this,
            [this](const RunInfo& i) { setTorchThreads(i.num_threads); });
  }
  retranslate();
}

void SystemPanel::setTorchThreads(int threads) {
  torch_threads_ = threads;
  showFigures();
}

void SystemPanel::addStep(const StepRecord& s) {
  step_samples_ += s.batch_samples;
  step_wait_ += s.data_wait.value_or(0);
}

void SystemPanel::refresh() {
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  const double dt = last_ms_ > 0 ? static_cast<double>(now - last_ms_) / 1000.0 : 0;
  last_ms_ = now;
  sample_ = sampler_.sample();
  if (dt > 0 && step_samples_ > 0) {
    rate_ = static_cast<double>(step_samples_) / dt;
    wait_share_ = std::min(1.0, step_wait_ / dt);
  } else {
    rate_ = wait_share_ = -1;
  }
  step_samples_ = 0;
  step_wait_ = 0;
  const bool training = controller_ && controller_->state() == RunState::Running;
  processes_ = processes_for_test_ ? *processes_for_test_
               : training          ? countProcesses("trainscope")
                                   : 0;
  showFigures();
}

QString SystemPanel::warningText() const {
  return warning_->isHidden() ? QString() : warning_->text();
}

void SystemPanel::showFigures() {
  const int cores = usableCores();
  if (sample_) {
    const ProcessSample& s = *sample_;
    cpu_->setText(std::isfinite(s.cpu_percent)
                      ? Tr::tr("%1% of all %n core(s)", "", cores).arg(s.cpu_percent, 0, 'f', 0)
                      : QStringLiteral("–"));
    cores_->set(s.core_percent);
    memory_->setText(Tr::tr("%1 resident, %2 available")
                         .arg(DevicePanel::formatMegabytes(s.rss_bytes),
                              DevicePanel::formatMegabytes(s.available_bytes)));
    threads_->setText(
        torch_threads_ > 0
            ? Tr::tr("%1 torch (intra-op), %2 in the process").arg(torch_threads_).arg(s.os_threads)
            : Tr::tr("%1 in the process").arg(s.os_threads));
  }
  throughput_->setText(rate_ >= 0 ? Tr::tr("%1 samples/s, %2% of the time waiting for data")
                                        .arg(QLocale().toString(rate_, 'f', 0))
                                        .arg(100.0 * wait_share_, 0, 'f', 0)
                                  : Tr::tr("– (no training steps in the last second)"));
  if (threadsOversubscribe(torch_threads_, processes_, cores)) {
    warning_->setText(Tr::tr("%1 torch threads x %2 training processes ask for more than the %3 "
                             "cores: they take turns and each run is slower. Give each run fewer "
                             "threads (training.num_threads) or run fewer at once.")
                          .arg(torch_threads_)
                          .arg(processes_)
                          .arg(cores));
    warning_->show();
  } else {
    warning_->hide();
  }
  QString blas = QString::fromStdString(blas_.library.empty() ? std::string("?") : blas_.library);
  if (!blas_.core_type.empty()) {
    blas += QStringLiteral(", ") + Tr::tr("kernel %1").arg(QString::fromStdString(blas_.core_type));
    if (blas_.generic_fallback)
      blas += QLatin1Char('\n') +
              Tr::tr(
                  "A generic kernel on a CPU with %1: starting TrainScope with %2 selects its "
                  "kernels, for faster matrix products (results then differ from other runs "
                  "in the last bits). TrainScope never sets it.")
                  .arg(blas_.cpu_avx512 ? QStringLiteral("AVX-512") : QStringLiteral("AVX2"),
                       QString::fromStdString(blas_.suggestion));
  }
  blas_label_->setText(blas);
  blas_label_->setToolTip(QString::fromStdString(blas_.config));
}

void SystemPanel::retranslate() {
  caption_->setText(
      Tr::tr("This process and this machine, read once a second while this tab is "
             "shown (a run's folder keeps the same figures in system.csv)."));
  cpu_title_->setText(Tr::tr("CPU:"));
  cores_title_->setText(Tr::tr("Cores:"));
  threads_title_->setText(Tr::tr("Threads:"));
  memory_title_->setText(Tr::tr("Memory:"));
  throughput_title_->setText(Tr::tr("Training:"));
  blas_title_->setText(Tr::tr("BLAS:"));
  cpu_->setToolTip(
      Tr::tr("This process's CPU time (all its threads) as a share of all cores: "
             "100% is every core busy with it."));
  cores_->setAccessibleName(Tr::tr("Load of each core (any process)"));
  showFigures();
}

void SystemPanel::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  refresh();
  timer_.start();
}

void SystemPanel::hideEvent(QHideEvent* e) {
  QWidget::hideEvent(e);
  timer_.stop();
}

void SystemPanel::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(e);
}

}  // namespace trainscope

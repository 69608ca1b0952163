#include "gui/panels/device_panel.h"

#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>

#include "gui/tr.h"

namespace trainscope {

namespace {
QLabel* valueLabel(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}
}  // namespace

DevicePanel::DevicePanel(const DeviceInfo& info, QWidget* parent) : QGroupBox(parent), info_(info) {
  setObjectName(QStringLiteral("devicePanel"));
  new QFormLayout(this);
  retranslate();
}

void DevicePanel::retranslate() {
  // Rebuilt from the probed facts: every row's text is in the current language.
  auto* form = static_cast<QFormLayout*>(layout());
  while (form->rowCount() > 0) form->removeRow(0);
  const DeviceInfo& info = info_;
  setTitle(Tr::tr("Device"));
  setToolTip(Tr::tr("The hardware and libraries this computer trains with."));

  form->addRow(Tr::tr("libtorch:"), valueLabel(QString::fromStdString(info.torch_version), this));

  QString cuda;
  if (info.cuda_available) {
    cuda = Tr::tr("available, %n device(s)", nullptr, info.cuda_device_count);
  } else {
    if (info.cuda_unavailable_code == "built_without_cuda") {
      cuda = Tr::tr("not available: this libtorch was built without CUDA (CPU-only build)");
    } else if (info.cuda_unavailable_code == "no_device") {
      cuda = Tr::tr("not available: no CUDA device found (no GPU, or its driver is not loaded)");
    } else {
      cuda = Tr::tr("not available");
    }
  }
  auto* cuda_label = valueLabel(cuda, this);
  cuda_label->setToolTip(
      Tr::tr("CUDA lets libtorch train on an NVIDIA GPU; without it training "
             "runs on the CPU."));
  form->addRow(Tr::tr("CUDA:"), cuda_label);

  for (const std::string& name : info.cuda_devices) {
    form->addRow(Tr::tr("GPU:"), valueLabel(QString::fromStdString(name), this));
  }

  device_ = valueLabel(QString::fromStdString(info.default_device), this);
  device_->setToolTip(Tr::tr("The device the run trains on (\"auto\" picks CUDA when available)."));
  form->addRow(Tr::tr("Trains on:"), device_);

  form->addRow(Tr::tr("CPU:"), valueLabel(Tr::tr("%1 (%n logical core(s))", nullptr, info.cpu_cores)
                                              .arg(QString::fromStdString(info.cpu_name)),
                                          this));
  threads_ = valueLabel(QString(), this);
  threads_->setToolTip(Tr::tr("Threads libtorch uses for the math of one training step."));
  form->addRow(Tr::tr("CPU threads:"), threads_);

  const QString blas_path = QString::fromStdString(info.blas_library);
  auto* blas = valueLabel(
      blas_path.isEmpty() ? Tr::tr("unknown") : QString::fromStdString(info.blas_name), this);
  blas->setToolTip(blas_path.isEmpty()
                       ? Tr::tr("The linear-algebra library (BLAS) doing the matrix products.")
                       : Tr::tr("The linear-algebra library (BLAS) doing the matrix products: %1")
                             .arg(blas_path));
  form->addRow(Tr::tr("BLAS:"), blas);
  showRun();
}

void DevicePanel::setRunThreads(int threads, const QString& device, const QString& detail) {
  run_threads_ = threads;
  run_device_ = device;
  run_detail_ = detail;
  showRun();
}

void DevicePanel::clearRun() {
  run_threads_ = 0;
  run_device_.clear();
  run_detail_.clear();
  showRun();
}

void DevicePanel::showRun() {
  if (run_threads_ > 0) {
    QString text = Tr::tr("%1 in use").arg(run_threads_);
    if (!run_detail_.isEmpty()) text += QStringLiteral(" (") + run_detail_ + QLatin1Char(')');
    threads_->setText(text);
  } else {
    // The GUI leaves one core for drawing (see defaultThreadCount).
    threads_->setText(Tr::tr("%1 (default)").arg(defaultThreadCount(kGuiReservedCores)));
  }
  device_->setText(run_device_.isEmpty() ? QString::fromStdString(info_.default_device)
                                         : run_device_);
}

}  // namespace trainscope

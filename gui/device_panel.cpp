#include "gui/device_panel.h"

#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>

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
  setTitle(tr("Device"));
  setToolTip(tr("The hardware and libraries this computer trains with."));
  auto* form = new QFormLayout(this);

  form->addRow(tr("libtorch:"), valueLabel(QString::fromStdString(info.torch_version), this));

  QString cuda;
  if (info.cuda_available) {
    cuda = tr("available, %n device(s)", nullptr, info.cuda_device_count);
  } else {
    cuda = tr("not available");
    if (!info.cuda_unavailable_reason.empty()) {
      cuda += QStringLiteral(" (%1)").arg(QString::fromStdString(info.cuda_unavailable_reason));
    }
  }
  auto* cuda_label = valueLabel(cuda, this);
  cuda_label->setToolTip(
      tr("CUDA lets libtorch train on an NVIDIA GPU; without it training "
         "runs on the CPU."));
  form->addRow(tr("CUDA:"), cuda_label);

  for (const std::string& name : info.cuda_devices) {
    form->addRow(tr("GPU:"), valueLabel(QString::fromStdString(name), this));
  }

  device_ = valueLabel(QString::fromStdString(info.default_device), this);
  device_->setToolTip(tr("The device the run trains on (\"auto\" picks CUDA when available)."));
  form->addRow(tr("Trains on:"), device_);

  form->addRow(tr("CPU:"), valueLabel(tr("%1 (%n logical core(s))", nullptr, info.cpu_cores)
                                          .arg(QString::fromStdString(info.cpu_name)),
                                      this));
  threads_ = valueLabel(QString(), this);
  threads_->setToolTip(tr("Threads libtorch uses for the math of one training step."));
  form->addRow(tr("CPU threads:"), threads_);

  const QString blas_path = QString::fromStdString(info.blas_library);
  auto* blas =
      valueLabel(blas_path.isEmpty() ? tr("unknown") : QFileInfo(blas_path).fileName(), this);
  blas->setToolTip(
      blas_path.isEmpty()
          ? tr("The linear-algebra library (BLAS) doing the matrix products.")
          : tr("The linear-algebra library (BLAS) doing the matrix products: %1").arg(blas_path));
  form->addRow(tr("BLAS:"), blas);
  clearRun();
}

void DevicePanel::setRunThreads(int threads, const QString& device) {
  threads_->setText(tr("%1 in use").arg(threads));
  if (!device.isEmpty()) device_->setText(device);
}

void DevicePanel::clearRun() {
  threads_->setText(tr("%1 (default)").arg(info_.default_threads));
  device_->setText(QString::fromStdString(info_.default_device));
}

}  // namespace trainscope

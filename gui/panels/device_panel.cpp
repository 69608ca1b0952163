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
  setTitle(Tr::tr("Device"));
  setToolTip(Tr::tr("The hardware and libraries this computer trains with."));
  auto* form = new QFormLayout(this);

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
  clearRun();
}

void DevicePanel::setRunThreads(int threads, const QString& device, const QString& detail) {
  QString text = Tr::tr("%1 in use").arg(threads);
  if (!detail.isEmpty()) text += QStringLiteral(" (") + detail + QLatin1Char(')');
  threads_->setText(text);
  if (!device.isEmpty()) device_->setText(device);
}

void DevicePanel::clearRun() {
  // The GUI leaves one core for drawing (see defaultThreadCount).
  threads_->setText(Tr::tr("%1 (default)").arg(defaultThreadCount(kGuiReservedCores)));
  device_->setText(QString::fromStdString(info_.default_device));
}

}  // namespace trainscope

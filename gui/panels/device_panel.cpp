#include "gui/panels/device_panel.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>

#include "core/system/cuda_memory.h"
#include "core/system/memory.h"
#include "gui/engine/run_state.h"
#include "gui/engine/run_commands.h"
#include "gui/model/run_store.h"
#include "gui/tr.h"

namespace trainscope {

namespace {
QLabel* valueLabel(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

/// Why CUDA cannot be used, from DeviceInfo::cuda_unavailable_code, short.
QString cudaMissingReason(const std::string& code) {
  if (code == "built_without_cuda") return Tr::tr("this libtorch was built without CUDA");
  if (code == "no_driver") return Tr::tr("no NVIDIA driver is loaded");
  if (code == "no_device") return Tr::tr("no CUDA device was found");
  return Tr::tr("CUDA is not available");
}

/// The CUDA device index of "cuda:N" (0 for "cuda"), or -1 for other devices.
int cudaIndex(const QString& device) {
  if (!device.startsWith(QLatin1String("cuda"))) return -1;
  const int colon = device.indexOf(QLatin1Char(':'));
  return colon < 0 ? 0 : device.mid(colon + 1).toInt();
}
}  // namespace

DevicePanel::DevicePanel(const DeviceInfo& info, const RunCommands* controller,
                         QWidget* parent)
    : QGroupBox(parent), info_(info) {
  setObjectName(QStringLiteral("devicePanel"));
  new QFormLayout(this);
  memory_timer_.setInterval(kMemoryIntervalMs);
  connect(&memory_timer_, &QTimer::timeout, this, &DevicePanel::refreshMemory);
  if (controller) {
    // About once a second while a run is active; once more when it ends.
    connect(controller, &RunCommands::stateChanged, this,
            [this](RunState state) {
              using S = RunState;
              const bool active = state == S::Running || state == S::Paused || state == S::Stopping;
              if (active && !memory_timer_.isActive()) memory_timer_.start();
              if (!active) memory_timer_.stop();
              refreshMemory();
            });
  }
  retranslate();
}

QString DevicePanel::formatMegabytes(qint64 bytes) {
  return Tr::tr("%1 MB").arg(QLocale().toString(static_cast<double>(bytes) / 1e6, 'f', 1));
}

void DevicePanel::retranslate() {
  // Rebuilt from the probed facts: every row's text is in the current language.
  auto* form = static_cast<QFormLayout*>(layout());
  while (form->rowCount() > 0) form->removeRow(0);
  const DeviceInfo& info = info_;
  setTitle(Tr::tr("Device"));
  setToolTip(Tr::tr("The hardware and libraries this computer trains with."));

  form->addRow(Tr::tr("libtorch:"), valueLabel(QString::fromStdString(info.torch_version), this));

  const QString cuda =
      info.cuda_available
          ? Tr::tr("available, %n device(s)", nullptr, info.cuda_device_count)
          : Tr::tr("not available: %1").arg(cudaMissingReason(info.cuda_unavailable_code));
  auto* cuda_label = valueLabel(cuda, this);
  cuda_label->setObjectName(QStringLiteral("cudaLabel"));
  cuda_label->setToolTip(
      Tr::tr("CUDA lets libtorch train on an NVIDIA GPU; without it training "
             "runs on the CPU."));
  form->addRow(Tr::tr("CUDA:"), cuda_label);

  for (const std::string& name : info.cuda_devices) {
    form->addRow(Tr::tr("GPU:"), valueLabel(QString::fromStdString(name), this));
  }

  device_ = valueLabel(QString(), this);
  device_->setObjectName(QStringLiteral("trainsOnLabel"));
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

  // What the AMP check box does here.
  QString amp =
      info.bf16_native
          ? Tr::tr("CPU: bf16 autocast, native (%1)").arg(QString::fromStdString(info.bf16_flags))
          : Tr::tr("CPU: bf16 autocast, emulated (no avx512_bf16 or amx_bf16)");
  if (info.cuda_available)
    amp += QLatin1Char('\n') + Tr::tr("CUDA: fp16 autocast with loss scaling");
  auto* amp_label = valueLabel(amp, this);
  amp_label->setObjectName(QStringLiteral("ampSupportLabel"));
  amp_label->setToolTip(
      Tr::tr("Native: the CPU multiplies bf16 numbers in hardware. Emulated: each bf16 "
             "multiply-accumulate is converted to float32 and back, so AMP saves memory "
             "traffic at best and may run slower than float32."));
  form->addRow(Tr::tr("AMP:"), amp_label);

  memory_ = valueLabel(QString(), this);
  memory_->setObjectName(QStringLiteral("memoryLabel"));
  memory_->setToolTip(
      Tr::tr("Resident memory: the RAM this process (the dashboard and its run) occupies now. On "
             "a CUDA device also the GPU memory held by tensors (allocated), kept by libtorch's "
             "caching allocator (reserved) and the device's total. Updated every second while "
             "a run is active."));
  form->addRow(Tr::tr("Memory:"), memory_);
  showRun();
  refreshMemory();
}

void DevicePanel::setRunThreads(int threads, const QString& device, const QString& detail) {
  run_threads_ = threads;
  run_device_ = device;
  run_detail_ = detail;
  showRun();
  refreshMemory();
}

void DevicePanel::clearRun() {
  run_threads_ = 0;
  run_device_.clear();
  run_detail_.clear();
  showRun();
  refreshMemory();
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
  QString device =
      run_device_.isEmpty() ? QString::fromStdString(info_.default_device) : run_device_;
  // Where `auto` falls back to the CPU, say why.
  if (!info_.cuda_available && device == QLatin1String("cpu"))
    device =
        Tr::tr("cpu (auto uses the CPU: %1)").arg(cudaMissingReason(info_.cuda_unavailable_code));
  device_->setText(device);
}

void DevicePanel::refreshMemory() {
  const std::optional<int64_t> rss = residentMemoryBytes();
  resident_ = rss ? std::optional<qint64>(*rss) : std::nullopt;
  cuda_memory_.clear();
  const int index = cudaIndex(run_device_);
  if (index >= 0) {
    if (const std::optional<CudaMemory> m = cudaMemory(index)) {
      cuda_memory_ = Tr::tr("GPU: %1 allocated, %2 reserved of %3")
                         .arg(formatMegabytes(m->allocated), formatMegabytes(m->reserved),
                              formatMegabytes(m->total));
    } else {
      cuda_memory_ =
          Tr::tr("GPU: no figures (this build has no CUDA runtime, TRAINSCOPE_CUDA off)");
    }
  }
  showMemory();
}

void DevicePanel::showMemory() {
  if (!memory_) return;
  QString text = resident_ ? Tr::tr("%1 resident").arg(formatMegabytes(*resident_))
                           : Tr::tr("unknown (/proc/self/statm unreadable)");
  if (!cuda_memory_.isEmpty()) text += QLatin1Char('\n') + cuda_memory_;
  memory_->setText(text);
}

}  // namespace trainscope

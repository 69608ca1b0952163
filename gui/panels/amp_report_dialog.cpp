#include "gui/panels/amp_report_dialog.h"

#include <qcustomplot.h>

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>
#include <cmath>

#include "gui/panels/repro_report_dialog.h"
#include "gui/tr.h"
#include "gui/widgets/relative_font.h"

namespace trainscope {

namespace {
QLabel* valueLabel(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

/// Samples/s, or "too small to time" (AmpCompareReport::timed_steps 0): never "0 samples/s".
QString rate(const AmpCompareReport& r, double samplesPerSecond) {
  if (r.timed_steps <= 0) return Tr::tr("too small to time");
  return Tr::tr("%1 samples/s").arg(QLocale().toString(samplesPerSecond, 'f', 0));
}
}  // namespace

QString AmpReportDialog::explanation(const AmpCompareReport& r, const DeviceInfo& device) {
  if (r.timed_steps <= 0)
    return Tr::tr(
               "The run is too small to time: fewer than %1 steps could be timed (the first "
               "step of each epoch follows a validation and is not timed). Compare more steps or "
               "a larger dataset; the loss difference is still measured.")
        .arg(AmpCompareReport::kMinTimedSteps);
  if (r.device.rfind("cuda", 0) == 0) {
    return Tr::tr(
        "On CUDA, fp16 autocast runs the matrix products on tensor cores and a GradScaler keeps "
        "small gradients from underflowing. Small models are limited by kernel launches more "
        "than by arithmetic, so they gain less.");
  }
  QString text = Tr::tr(
      "On the CPU, autocast computes the matrix products of the forward pass in bf16, while "
      "weights, gradients and optimizer state stay float32: every step also converts weights "
      "and activations between float32 and bf16.");
  text += QLatin1Char(' ');
  text += device.bf16_native
              ? Tr::tr("This CPU multiplies bf16 in hardware (%1).")
                    .arg(QString::fromStdString(device.bf16_flags))
              : Tr::tr(
                    "This CPU has no bf16 instructions (avx512_bf16, amx_bf16): bf16 is "
                    "converted to float32 around each multiply-accumulate, so there is little "
                    "to gain.");
  text += QLatin1Char(' ');
  const QString blas =
      device.blas_name.empty() ? Tr::tr("unknown") : QString::fromStdString(device.blas_name);
  text += device.onednn
              ? Tr::tr(
                    "libtorch's oneDNN kernels do the bf16 matrix products; the float32 ones run "
                    "on the optimized BLAS (%1).")
                    .arg(blas)
              : Tr::tr(
                    "This libtorch has no oneDNN: bf16 matrix products use generic kernels while "
                    "float32 ones use the optimized BLAS (%1).")
                    .arg(blas);
  text += QLatin1Char(' ');
  text +=
      Tr::tr("The loss difference is bf16 rounding: 8 bits of mantissa instead of float32's 24.");
  return text;
}

AmpReportDialog::AmpReportDialog(const AmpCompareReport& report, const DeviceInfo& device,
                                 QWidget* parent)
    : QDialog(parent), report_(report) {
  setObjectName(QStringLiteral("ampReportDialog"));
  setAttribute(Qt::WA_DeleteOnClose);
  setWindowTitle(Tr::tr("AMP A/B comparison"));
  auto* layout = new QVBoxLayout(this);
  const QLocale locale;

  auto* headline = new QLabel(
      Tr::tr("%1 steps with float32, then with AMP (%2), from seed %3")
          .arg(locale.toString(static_cast<qlonglong>(report.steps)),
               report.amp_kind == "bf16 autocast" ? Tr::tr("bf16 autocast")
                                                  : Tr::tr("fp16 autocast with loss scaling"))
          .arg(report.seed),
      this);
  headline->setWordWrap(true);
  setRelativeFont(headline, 1, /*bold=*/true);
  layout->addWidget(headline);

  auto* plot = makeLossComparePlot(report.loss_fp32, report.loss_amp, Tr::tr("float32"),
                                   Tr::tr("AMP"), this);
  plot->setObjectName(QStringLiteral("ampComparePlot"));
  layout->addWidget(plot, 1);

  auto* form = new QFormLayout;
  auto diff = [&](double v) { return v == 0 ? QStringLiteral("0") : locale.toString(v, 'g', 4); };
  form->addRow(Tr::tr("Max |Δloss|:"), valueLabel(diff(report.max_loss_diff), this));
  form->addRow(Tr::tr("Mean |Δloss|:"), valueLabel(diff(report.mean_loss_diff), this));
  form->addRow(Tr::tr("float32:"),
               valueLabel(rate(report, report.samples_per_second_fp32), this));
  form->addRow(Tr::tr("AMP:"), valueLabel(rate(report, report.samples_per_second_amp), this));
  const RateSpread& sp = report.speedup_spread;
  const auto times = [&](double x) { return locale.toString(x, 'f', 2); };
  const QString percent = locale.toString(std::lround(100 * sp.spread));
  QString speedup_text;
  if (report.timed_steps <= 0)
    speedup_text = Tr::tr("too small to time");
  else if (sp.busy)
    speedup_text = Tr::tr("between %1× and %2× over %3 rounds: the machine was busy (spread %4%, "
                          "over 20%), so no single figure holds; close other programs and "
                          "compare again")
                       .arg(times(sp.low), times(sp.high))
                       .arg(sp.rounds)
                       .arg(percent);
  else if (sp.rounds > 1)
    speedup_text = Tr::tr("%1× (AMP samples/s ÷ float32 samples/s; median of %2 rounds, "
                          "%3× to %4×, spread %5%)")
                       .arg(times(report.speedup))
                       .arg(sp.rounds)
                       .arg(times(sp.low), times(sp.high), percent);
  else
    speedup_text = Tr::tr("%1× (AMP samples/s ÷ float32 samples/s; one round, no spread measured)")
                       .arg(times(report.speedup));
  auto* speedup = valueLabel(speedup_text, this);
  speedup->setObjectName(QStringLiteral("ampSpeedupLabel"));
  setRelativeFont(speedup, 1, /*bold=*/true);
  form->addRow(Tr::tr("Speed-up:"), speedup);
  form->addRow(Tr::tr("Run on:"), valueLabel(Tr::tr("%1, %n thread(s)", nullptr, report.threads)
                                                 .arg(QString::fromStdString(report.device)),
                                             this));
  layout->addLayout(form);

  auto* why = valueLabel(explanation(report, device), this);
  why->setObjectName(QStringLiteral("ampExplanationLabel"));
  layout->addWidget(why);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(600, 620);
}

}  // namespace trainscope

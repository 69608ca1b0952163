#include "gui/panels/repro_report_dialog.h"

#include "gui/plots/palette.h"
#include <qcustomplot.h>

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include "gui/event_text.h"
#include "gui/tr.h"
#include "gui/widgets/relative_font.h"
#include "gui/plots/plot_style.h"

namespace trainscope {

namespace {
/// A difference for people: "0" when exactly zero, else 4 significant digits.
QString formatDiff(double value) {
  if (value == 0) return QStringLiteral("0");
  return EventText::number(value);  // "3.621e+23" in every language, never "3.621E+23"
}

QLabel* valueLabel(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}
}  // namespace

QCustomPlot* makeLossComparePlot(const std::vector<double>& a, const std::vector<double>& b,
                                 const QString& nameA, const QString& nameB, QWidget* parent) {
  auto* plot = new QCustomPlot(parent);
  plot->setMinimumSize(360, 200);
  const std::vector<double>* curves[] = {&a, &b};
  const QString names[] = {nameA, nameB};
  const QPen pens[] = {QPen(palette::tab10(0), 2), QPen(palette::tab10(1), 1.5, Qt::DashLine)};
  for (int k = 0; k < 2; ++k) {
    QVector<double> x, y;
    for (std::size_t i = 0; i < curves[k]->size(); ++i) {
      x << static_cast<double>(i + 1);
      y << (*curves[k])[i];
    }
    QCPGraph* g = plot->addGraph();
    g->setData(x, y, /*alreadySorted=*/true);
    g->setName(names[k]);
    g->setPen(pens[k]);
  }
  plot->xAxis->setLabel(Tr::tr("step"));
  plot->yAxis->setLabel(Tr::tr("loss"));
  plot->legend->setVisible(true);
  plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
  plot->rescaleAxes();
  followPresentation(plot);  // thick curves and large texts on the projector
  return plot;
}

QString ReproReportDialog::causeText(const std::string& code, const ReproReport& r) {
  if (code == "unseeded")
    return Tr::tr(
               "The seed is off: each run drew its own seed (%1 and %2), so the initial weights, "
               "the batch order and dropout differ. Turn on a fixed seed.")
        .arg(r.seed_a)
        .arg(r.seed_b);
  if (code == "nondeterministic_kernels")
    return Tr::tr(
        "Deterministic algorithms are off (training.deterministic): some kernels may add up in "
        "a different order each time (atomics on CUDA, index_add, scatter).");
  if (code == "amp")
    return Tr::tr(
        "AMP is on: reduced-precision kernels may choose different algorithms between runs. "
        "Compare with AMP off.");
  if (code == "threads")
    return Tr::tr(
        "Both runs used %n threads: parallel floating-point sums can split the work "
        "differently. Compare with training.num_threads = 1.",
        nullptr, r.threads);
  return QString::fromStdString(code);
}

ReproReportDialog::ReproReportDialog(const ReproReport& report, QWidget* parent)
    : QDialog(parent), report_(report) {
  setObjectName(QStringLiteral("reproReportDialog"));
  setAttribute(Qt::WA_DeleteOnClose);
  setWindowTitle(Tr::tr("Reproducibility check"));
  auto* layout = new QVBoxLayout(this);

  verdict_ = new QLabel(verdictText(), this);
  verdict_->setObjectName(QStringLiteral("reproVerdictLabel"));
  verdict_->setWordWrap(true);
  setRelativeFont(verdict_, 1.25, /*bold=*/true);
  verdict_->setStyleSheet(QStringLiteral("color: %1;").arg(palette::css(
      report.identical ? palette::kSuccessText : palette::kWarningText)));
  layout->addWidget(verdict_);

  auto* form = new QFormLayout;
  const QLocale locale;
  form->addRow(Tr::tr("Steps compared:"),
               valueLabel(Tr::tr("%1 of %2 per run")
                              .arg(locale.toString(static_cast<qlonglong>(report.steps_compared)),
                                   locale.toString(static_cast<qlonglong>(report.steps_requested))),
                          this));
  auto* loss = valueLabel(formatDiff(report.max_loss_diff), this);
  loss->setObjectName(QStringLiteral("reproMaxLossDiffLabel"));
  form->addRow(Tr::tr("Max |Δloss|:"), loss);
  auto* weight = valueLabel(formatDiff(report.max_weight_diff), this);
  weight->setObjectName(QStringLiteral("reproMaxWeightDiffLabel"));
  form->addRow(Tr::tr("Max |Δweight|:"), weight);
  form->addRow(
      Tr::tr("Seeds:"),
      valueLabel(
          report.seeded
              ? Tr::tr("%1 and %2 (fixed)").arg(report.seed_a).arg(report.seed_b)
              : Tr::tr("%1 and %2 (drawn: the seed is off)").arg(report.seed_a).arg(report.seed_b),
          this));
  const QString on = Tr::tr("on"), off = Tr::tr("off");
  form->addRow(Tr::tr("Run on:"),
               valueLabel(Tr::tr("%1, %n thread(s), AMP %2, deterministic algorithms %3", nullptr,
                                 report.threads)
                              .arg(QString::fromStdString(report.device), report.amp ? on : off,
                                   report.deterministic ? on : off),
                          this));
  layout->addLayout(form);

  if (!report.identical && !report.cause_codes.empty()) {
    QString causes = Tr::tr("Likely causes:");
    for (const std::string& code : report.cause_codes)
      causes += QStringLiteral("\n• ") + causeText(code, report);
    auto* causes_label = valueLabel(causes, this);
    causes_label->setObjectName(QStringLiteral("reproCausesLabel"));
    layout->addWidget(causes_label);
  }
  layout->addWidget(
      makeLossComparePlot(report.losses_a, report.losses_b, Tr::tr("run 1"), Tr::tr("run 2"), this),
      1);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(560, 520);
}

QString ReproReportDialog::verdictText() const {
  const ReproReport& r = report_;
  if (r.identical)
    return Tr::tr(
        "Bitwise identical: the %n step(s) of both runs had the same losses and ended "
        "with the same weights, bit for bit.",
        nullptr, static_cast<int>(r.steps_compared));
  return Tr::tr("Differs by %1 (max |Δloss| %2, max |Δweight| %3).")
      .arg(formatDiff(std::max(r.max_loss_diff, r.max_weight_diff)), formatDiff(r.max_loss_diff),
           formatDiff(r.max_weight_diff));
}

}  // namespace trainscope

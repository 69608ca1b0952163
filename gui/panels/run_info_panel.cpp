#include "gui/panels/run_info_panel.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <algorithm>

#include "gui/tr.h"

namespace trainscope {

namespace {
QLabel* valueLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}
}  // namespace

RunInfoPanel::RunInfoPanel(QWidget* parent) : QGroupBox(parent) {
  setObjectName(QStringLiteral("summaryPanel"));
  auto* form = new QFormLayout(this);
  dataset_ = valueLabel(this);
  sizes_ = valueLabel(this);
  classes_ = valueLabel(this);
  batch_ = valueLabel(this);
  batch_->setObjectName(QStringLiteral("effectiveBatchLabel"));
  parameters_ = valueLabel(this);
  model_ = valueLabel(this);
  for (QLabel* value : {dataset_, sizes_, classes_, batch_, parameters_, model_}) {
    captions_.push_back(new QLabel(this));
    form->addRow(captions_.back(), value);
  }
  retranslate();
}

void RunInfoPanel::retranslate() {
  setTitle(Tr::tr("Data and model"));
  setToolTip(
      Tr::tr("What the current run learns from and the network it trains. Filled in when "
             "a run starts."));
  sizes_->setToolTip(
      Tr::tr("Samples used for training, for validation after every epoch, and for "
             "the final test."));
  parameters_->setToolTip(Tr::tr("Number of trainable numbers (weights and biases) in the model."));
  batch_->setToolTip(
      Tr::tr("Samples per optimizer step: the batch size times the gradient accumulation "
             "steps (micro-batches whose gradients are added before one step)."));
  const QString captions[] = {Tr::tr("Dataset:"),    Tr::tr("Train / val / test:"),
                              Tr::tr("Classes:"),    Tr::tr("Batch per step:"),
                              Tr::tr("Parameters:"), Tr::tr("Model:")};
  for (std::size_t i = 0; i < captions_.size(); ++i) captions_[i]->setText(captions[i]);
  if (info_) {
    setRunInfo(*info_);
  } else {
    clear();
  }
}

void RunInfoPanel::setRunInfo(const RunInfo& info) {
  info_ = info;
  const QLocale locale;
  const DataSummary& d = info.data;
  const QString task = d.task == "classification" ? Tr::tr("classification")
                       : d.task == "regression"   ? Tr::tr("regression")
                                                  : QString::fromStdString(d.task);
  dataset_->setText(
      Tr::tr("%1 (%2, %n input(s) per sample)", nullptr, static_cast<int>(d.n_features))
          .arg(QString::fromStdString(d.source), task));
  sizes_->setText(
      QStringLiteral("%1 / %2 / %3")
          .arg(locale.toString(static_cast<qlonglong>(d.n_train)),
               locale.toString(static_cast<qlonglong>(d.n_val)),
               d.n_test > 0 ? locale.toString(static_cast<qlonglong>(d.n_test)) : Tr::tr("none")));
  if (d.n_classes > 0) {
    QStringList names;
    for (const std::string& n : d.class_names) names << QString::fromStdString(n);
    classes_->setText(
        names.isEmpty() ? QString::number(d.n_classes)
                        : Tr::tr("%1: %2").arg(d.n_classes).arg(names.join(QStringLiteral(", "))));
  } else {
    classes_->setText(Tr::tr("none (regression)"));
  }
  const qint64 effective = info.effective_batch_size > 0
                               ? info.effective_batch_size
                               : info.batch_size * std::max<int64_t>(1, info.grad_accum_steps);
  batch_->setText(info.grad_accum_steps > 1
                      ? Tr::tr("%1 samples (%2 × %3 accumulated micro-batches)")
                            .arg(locale.toString(effective))
                            .arg(info.batch_size)
                            .arg(info.grad_accum_steps)
                      : Tr::tr("%1 samples").arg(locale.toString(effective)));
  parameters_->setText(locale.toString(static_cast<qlonglong>(info.model.parameter_count)));
  model_->setText(QString::fromStdString(info.model.description));
}

void RunInfoPanel::clear() {
  info_.reset();
  const QString dash = Tr::tr("(starts with the run)");
  dataset_->setText(dash);
  sizes_->setText(QStringLiteral("–"));
  classes_->setText(QStringLiteral("–"));
  batch_->setText(QStringLiteral("–"));
  parameters_->setText(QStringLiteral("–"));
  model_->setText(QStringLiteral("–"));
}

}  // namespace trainscope

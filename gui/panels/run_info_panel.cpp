#include "gui/panels/run_info_panel.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>

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
  setTitle(Tr::tr("Data and model"));
  setToolTip(
      Tr::tr("What the current run learns from and the network it trains. Filled in when "
             "a run starts."));
  auto* form = new QFormLayout(this);
  dataset_ = valueLabel(this);
  sizes_ = valueLabel(this);
  sizes_->setToolTip(
      Tr::tr("Samples used for training, for validation after every epoch, and for "
             "the final test."));
  classes_ = valueLabel(this);
  parameters_ = valueLabel(this);
  parameters_->setToolTip(Tr::tr("Number of trainable numbers (weights and biases) in the model."));
  model_ = valueLabel(this);
  form->addRow(Tr::tr("Dataset:"), dataset_);
  form->addRow(Tr::tr("Train / val / test:"), sizes_);
  form->addRow(Tr::tr("Classes:"), classes_);
  form->addRow(Tr::tr("Parameters:"), parameters_);
  form->addRow(Tr::tr("Model:"), model_);
  clear();
}

void RunInfoPanel::setRunInfo(const RunInfo& info) {
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
  parameters_->setText(locale.toString(static_cast<qlonglong>(info.model.parameter_count)));
  model_->setText(QString::fromStdString(info.model.description));
}

void RunInfoPanel::clear() {
  const QString dash = Tr::tr("(starts with the run)");
  dataset_->setText(dash);
  sizes_->setText(QStringLiteral("–"));
  classes_->setText(QStringLiteral("–"));
  parameters_->setText(QStringLiteral("–"));
  model_->setText(QStringLiteral("–"));
}

}  // namespace trainscope

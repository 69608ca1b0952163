#include "gui/panels/stopping_settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include "core/config/train_config.h"
#include "gui/tr.h"
#include "gui/widgets/config_key_range.h"
#include "gui/widgets/scientific_spin_box.h"

namespace trainscope {

namespace {
/// The dashboard's policy when the config leaves training.non_finite unset
/// (RunSession passes "pause" as the front end's default).
const char* kDefaultPolicy = "pause";
}  // namespace

StoppingSettings::StoppingSettings(QFormLayout* form, QWidget* parent) : QObject(parent) {
  setObjectName(QStringLiteral("stoppingSettings"));

  policy_ = new QComboBox(parent);
  policy_->setObjectName(QStringLiteral("nonFiniteComboBox"));
  addKeyChoices(policy_, "training.non_finite");
  policy_label_ = new QLabel(parent);
  policy_label_->setBuddy(policy_);
  form->addRow(policy_label_, policy_);

  early_ = new QCheckBox(parent);
  early_->setObjectName(QStringLiteral("earlyStoppingCheckBox"));
  early_label_ = new QLabel(parent);
  early_label_->setBuddy(early_);
  form->addRow(early_label_, early_);
  // A row of its own: beside the check box the spin box would widen the settings column.
  patience_ = new QSpinBox(parent);
  patience_->setObjectName(QStringLiteral("patienceSpinBox"));
  setKeyRange(patience_, "training.early_stopping.patience");
  patience_label_ = new QLabel(parent);
  patience_label_->setBuddy(patience_);
  form->addRow(patience_label_, patience_);

  min_delta_ = new ScientificSpinBox(parent);
  min_delta_->setObjectName(QStringLiteral("minDeltaSpinBox"));
  setKeyRange(min_delta_, "training.early_stopping.min_delta", 0, 1e9);  // >= 0
  delta_label_ = new QLabel(parent);
  delta_label_->setBuddy(min_delta_);
  form->addRow(delta_label_, min_delta_);

  monitor_ = new QComboBox(parent);
  monitor_->setObjectName(QStringLiteral("monitorComboBox"));
  addKeyChoices(monitor_, "training.monitor");
  monitor_label_ = new QLabel(parent);
  monitor_label_->setBuddy(monitor_);
  form->addRow(monitor_label_, monitor_);
  connect(monitor_, &QComboBox::activated, this, &StoppingSettings::changed);

  connect(policy_, &QComboBox::activated, this, [this] {
    emit nonFinitePolicyEdited(policy_->currentData().toString());
    emit changed();
  });
  connect(early_, &QCheckBox::toggled, this, [this](bool on) {
    patience_->setEnabled(on && early_->isEnabled());
    min_delta_->setEnabled(on && early_->isEnabled());
    emit changed();
  });
  connect(patience_, &QSpinBox::valueChanged, this, &StoppingSettings::changed);
  connect(min_delta_, &QDoubleSpinBox::valueChanged, this, &StoppingSettings::changed);
  retranslate();
}

void StoppingSettings::showConfig(const TrainConfig& c) {
  const QSignalBlocker blockers[] = {QSignalBlocker(policy_), QSignalBlocker(early_),
                                     QSignalBlocker(patience_), QSignalBlocker(min_delta_),
                                     QSignalBlocker(monitor_)};
  if (const int m = monitor_->findData(QString::fromStdString(c.training.monitor)); m >= 0)
    monitor_->setCurrentIndex(m);
  showNonFinitePolicy(QString::fromStdString(c.training.non_finite.value_or(kDefaultPolicy)));
  const EarlyStoppingConfig& es = c.training.early_stopping;
  early_->setChecked(es.enabled);
  patience_->setValue(static_cast<int>(std::min<int64_t>(es.patience, patience_->maximum())));
  min_delta_->setValue(es.min_delta);
  patience_->setEnabled(es.enabled && early_->isEnabled());
  min_delta_->setEnabled(es.enabled && early_->isEnabled());
}

void StoppingSettings::showNonFinitePolicy(const QString& policy) {
  const QSignalBlocker block(policy_);
  const int index = policy_->findData(policy);
  if (index >= 0) policy_->setCurrentIndex(index);
}

void StoppingSettings::apply(TrainConfig& c) const {
  const std::string policy = policy_->currentData().toString().toStdString();
  if (c.training.non_finite || policy != kDefaultPolicy) c.training.non_finite = policy;
  EarlyStoppingConfig& es = c.training.early_stopping;
  es.enabled = early_->isChecked();
  es.patience = patience_->value();
  es.min_delta = min_delta_->value();
  c.training.monitor = monitor_->currentData().toString().toStdString();
}

bool StoppingSettings::sameKeys(const TrainConfig& a, const TrainConfig& b) {
  const EarlyStoppingConfig &x = a.training.early_stopping, &y = b.training.early_stopping;
  return a.training.non_finite.value_or(kDefaultPolicy) ==
             b.training.non_finite.value_or(kDefaultPolicy) &&
         x.enabled == y.enabled && x.patience == y.patience && x.min_delta == y.min_delta &&
         a.training.monitor == b.training.monitor;
}

QString StoppingSettings::keyOutsideWidgets(const TrainConfig& c, QString* range) const {
  const EarlyStoppingConfig& es = c.training.early_stopping;
  if (es.patience < patience_->minimum() || es.patience > patience_->maximum()) {
    if (range)
      *range = QStringLiteral("%1 – %2").arg(patience_->minimum()).arg(patience_->maximum());
    return QStringLiteral("training.early_stopping.patience");
  }
  if (es.min_delta < min_delta_->minimum() || es.min_delta > min_delta_->maximum()) {
    if (range)
      *range = QStringLiteral("%1 – %2").arg(ScientificSpinBox::formatValue(min_delta_->minimum()),
                                             ScientificSpinBox::formatValue(min_delta_->maximum()));
    return QStringLiteral("training.early_stopping.min_delta");
  }
  return QString();
}

void StoppingSettings::setEditable(bool editable) {
  policy_->setEnabled(true);  // live: RunCommands::setNonFinitePolicy
  early_->setEnabled(editable);
  monitor_->setEnabled(editable);
  patience_->setEnabled(editable && early_->isChecked());
  min_delta_->setEnabled(editable && early_->isChecked());
}

void StoppingSettings::retranslate() {
  policy_label_->setText(Tr::tr("When NaN/Inf:"));
  policy_->setItemText(0, Tr::tr("pause and show why"));
  policy_->setItemText(1, Tr::tr("stop the run"));
  policy_->setItemText(2, Tr::tr("skip the step, keep going"));
  policy_->setToolTip(
      Tr::tr("What a step whose loss or gradient norm is NaN or Inf does (training.non_finite; "
             "a divergence too). Its update is never applied. Pause: the run waits and shows "
             "the evidence; stop: the run ends; skip: the step is left out and the run goes on. "
             "Can be changed while a run is running or paused: it applies from the next step."));
  early_label_->setText(Tr::tr("Early stopping:"));
  early_->setText(Tr::tr("On"));
  early_->setToolTip(
      Tr::tr("Stop the run when the metric under Best by (the validation loss unless chosen) "
             "has not improved for the number of epochs below (training.early_stopping). "
             "Applies when the next run starts."));
  patience_label_->setText(Tr::tr("Patience:"));
  patience_->setSuffix(Tr::tr(" epochs"));
  patience_->setToolTip(
      Tr::tr("Epochs without an improvement of the validation loss before early stopping ends "
             "the run (training.early_stopping.patience). The overfitting watch uses it too."));
  monitor_label_->setText(Tr::tr("Best by:"));
  const std::pair<const char*, QString> metrics[] = {
      {"val_loss", Tr::tr("validation loss (lower)")},
      {"val_accuracy", Tr::tr("validation accuracy (higher)")},
      {"val_r2", Tr::tr("validation R² (higher)")},
      {"val_mae", Tr::tr("validation MAE (lower)")},
      {"val_rmse", Tr::tr("validation RMSE (lower)")}};
  for (const auto& [key, text] : metrics)
    if (const int i = monitor_->findData(QLatin1String(key)); i >= 0) monitor_->setItemText(i, text);
  monitor_->setToolTip(
      Tr::tr("The validation metric that picks the best epoch: best.pt, early stopping and the "
             "test's best weights (training.monitor). Accuracy is for classes; R², MAE and RMSE "
             "for a regression target. Applies when the next run starts."));
  delta_label_->setText(Tr::tr("Min. delta:"));
  min_delta_->setToolTip(
      Tr::tr("A fall of the validation loss by more than this counts as an improvement "
             "(training.early_stopping.min_delta; 0 = any fall)."));
}

}  // namespace trainscope

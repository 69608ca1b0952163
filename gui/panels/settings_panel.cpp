#include "gui/panels/settings_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolTip>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <optional>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/config/kinds.h"
#include "core/config/live_settings.h"
#include "core/errors.h"
#include "gui/panels/mistake_settings.h"
#include "gui/panels/model_data_settings.h"
#include "gui/panels/stopping_settings.h"
#include "gui/preset_text.h"
#include "gui/tr.h"
#include "gui/views/data_dialog.h"
#include "gui/views/shapes_dialog.h"
#include "gui/widgets/config_key_range.h"
#include "gui/widgets/scientific_spin_box.h"
#include "gui/views/all_settings_dialog.h"

namespace trainscope {

namespace {
/// The keys ModelDataSettings shows are equal in `a` and `b`.
bool sameModelData(const TrainConfig& a, const TrainConfig& b) {
  return a.optimizer.name == b.optimizer.name && a.model.hidden == b.model.hidden &&
         a.model.cnn.channels == b.model.cnn.channels &&
         a.model.dropout == b.model.dropout &&
         a.optimizer.weight_decay == b.optimizer.weight_decay &&
         a.data.n_samples == b.data.n_samples && a.data.limit == b.data.limit &&
         a.data.val_fraction == b.data.val_fraction && a.training.device == b.training.device &&
         a.training.num_threads == b.training.num_threads;
}
/// The data keys the Data dialog edits are equal in `a` and `b`.
bool sameDataSource(DataConfig a, DataConfig b) {
  b.n_samples = a.n_samples;  // ModelDataSettings' keys
  b.limit = a.limit;
  b.val_fraction = a.val_fraction;
  TrainConfig ca, cb;
  ca.data = std::move(a);
  cb.data = std::move(b);
  return configToJson(ca)["data"] == configToJson(cb)["data"];
}
}  // namespace

SettingsPanel::SettingsPanel(const DeviceInfo& devices, QWidget* parent) : QGroupBox(parent) {
  setObjectName(QStringLiteral("settingsPanel"));
  auto* form = new QFormLayout(this);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  auto row = [this, form](QWidget* buddy, QLayout* field) {
    auto* label = new QLabel(this);
    label->setBuddy(buddy);
    if (field) {
      form->addRow(label, field);
    } else {
      form->addRow(label, buddy);
    }
    labels_.push_back(label);
  };

  preset_ = new QComboBox(this);
  preset_->setObjectName(QStringLiteral("presetComboBox"));
  for (const PresetInfo& p : presets())
    preset_->addItem(QString::fromStdString(p.name), QString::fromStdString(p.name));
  connect(preset_, &QComboBox::activated, this, &SettingsPanel::onPresetActivated);
  // The data beside the preset, which names it; no row of its own, so the run
  // controls stay in view at 1024x768. Its tooltip says what data the next run uses.
  data_button_ = new QPushButton(this);
  data_button_->setObjectName(QStringLiteral("dataButton"));
  connect(data_button_, &QPushButton::clicked, this, &SettingsPanel::openDataDialog);
  // The combo shrinks to its minimum contents rather than widen the column (names are short).
  preset_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  preset_->setMinimumContentsLength(4);
  preset_->setMinimumWidth(100);  // its hint counts the placeholder text
  auto* preset_row = new QHBoxLayout;
  preset_row->addWidget(preset_, 1);
  preset_row->addWidget(data_button_);
  row(preset_, preset_row);
  preset_description_ = new QLabel(this);
  preset_description_->setObjectName(QStringLiteral("presetDescriptionLabel"));
  preset_description_->setWordWrap(true);
  preset_description_->setMinimumWidth(1);  // wraps to the column; never widens it
  // Its height follows the text's (a long description must not overlap the next row).
  preset_description_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  form->addRow(preset_description_);

  origin_ = new QLabel(this);
  origin_->setObjectName(QStringLiteral("sourceLabel"));
  origin_->setWordWrap(true);
  origin_->setMinimumWidth(1);
  origin_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  row(origin_, nullptr);

  lr_ = new ScientificSpinBox(this);
  lr_->setObjectName(QStringLiteral("learningRateSpinBox"));
  setKeyRange(lr_, "optimizer.lr", 1e-10, 1e3);  // lr > 0
  auto* lr_row = new QHBoxLayout;                // the range test next to the value it proposes
  lr_find_ = new QPushButton(this);
  lr_find_->setObjectName(QStringLiteral("lrFindButton"));
  lr_row->addWidget(lr_, 1);
  lr_row->addWidget(lr_find_);
  row(lr_, lr_row);

  batch_ = new QSpinBox(this);
  batch_->setObjectName(QStringLiteral("batchSizeSpinBox"));
  setKeyRange(batch_, "training.batch_size");
  row(batch_, nullptr);

  epochs_ = new QSpinBox(this);
  epochs_->setObjectName(QStringLiteral("epochsSpinBox"));
  setKeyRange(epochs_, "training.epochs");
  row(epochs_, nullptr);

  auto* seed_row = new QHBoxLayout;
  seed_enabled_ = new QCheckBox(this);
  seed_enabled_->setObjectName(QStringLiteral("seedCheckBox"));
  seed_ = new QSpinBox(this);
  seed_->setObjectName(QStringLiteral("seedSpinBox"));
  setKeyRange(seed_, "training.seed");
  connect(seed_enabled_, &QCheckBox::toggled, seed_, &QWidget::setEnabled);
  seed_row->addWidget(seed_enabled_);
  seed_row->addWidget(seed_, 1);
  row(seed_enabled_, seed_row);

  amp_ = new QCheckBox(this);
  amp_->setObjectName(QStringLiteral("ampCheckBox"));
  connect(amp_, &QCheckBox::clicked, this,  // user clicks only
          [this](bool on) { emit liveSettingEdited(QStringLiteral("training.amp"), on); });
  row(amp_, nullptr);

  auto* clip_row = new QHBoxLayout;
  clip_enabled_ = new QCheckBox(this);
  clip_enabled_->setObjectName(QStringLiteral("clipCheckBox"));
  clip_max_norm_ = new ScientificSpinBox(this);
  clip_max_norm_->setObjectName(QStringLiteral("clipMaxNormSpinBox"));
  setKeyRange(clip_max_norm_, "training.clip.max_norm", 1e-6, 1e6);  // > 0
  clip_max_norm_->setSingleStep(0.1);
  connect(clip_enabled_, &QCheckBox::toggled, clip_max_norm_, &QWidget::setEnabled);
  clip_row->addWidget(clip_enabled_);
  clip_row->addWidget(clip_max_norm_, 1);
  row(clip_enabled_, clip_row);

  // A value typed out of range is refused with the reason, never silently clamped.
  for (ScientificSpinBox* box : {lr_, clip_max_norm_}) {
    connect(box, &ScientificSpinBox::valueRejected, this, [this, box](const QString& text) {
      const QString message =
          Tr::tr(
              "\"%1\" was not accepted: the value must be between %2 and %3. The previous "
              "value %4 is kept.")
              .arg(text, ScientificSpinBox::formatValue(box->minimum()),
                   ScientificSpinBox::formatValue(box->maximum()),
                   ScientificSpinBox::formatValue(box->value()));
      QToolTip::showText(box->mapToGlobal(QPoint(0, box->height())), message, box, {}, 8000);
      emit valueRejected(message);
    });
  }
  // Editing a preset's values marks it modified.
  connect(lr_, &QDoubleSpinBox::valueChanged, this, &SettingsPanel::updateModified);
  // The learning rate is live: one change per finished edit.
  lr_->setKeyboardTracking(false);
  connect(lr_, &QDoubleSpinBox::valueChanged, this,
          [this](double lr) { emit liveSettingEdited(QStringLiteral("optimizer.lr"), lr); });
  connect(lr_find_, &QPushButton::clicked, this, &SettingsPanel::lrFindRequested);
  connect(clip_max_norm_, &QDoubleSpinBox::valueChanged, this, &SettingsPanel::updateModified);
  for (QSpinBox* box : {batch_, epochs_, seed_})
    connect(box, &QSpinBox::valueChanged, this, &SettingsPanel::updateModified);
  for (QCheckBox* box : {seed_enabled_, clip_enabled_, amp_})
    connect(box, &QCheckBox::toggled, this, &SettingsPanel::updateModified);
  // Clipping is live: the value counts when typing ends (Enter, focus out, arrows).
  clip_max_norm_->setKeyboardTracking(false);
  connect(clip_enabled_, &QCheckBox::clicked, this, [this](bool on) {
    emit liveSettingEdited(QStringLiteral("training.clip.enabled"), on);
  });
  connect(clip_max_norm_, &QDoubleSpinBox::valueChanged, this, [this](double max_norm) {
    emit liveSettingEdited(QStringLiteral("training.clip.max_norm"), max_norm);
  });

  stopping_ = new StoppingSettings(form, this);
  connect(stopping_, &StoppingSettings::changed, this, &SettingsPanel::updateModified);
  connect(stopping_, &StoppingSettings::nonFinitePolicyEdited, this, [this](const QString& p) {
    emit liveSettingEdited(QStringLiteral("training.non_finite"), p);
  });

  more_ = new ModelDataSettings(devices, this);
  form->addRow(more_);
  connect(more_, &ModelDataSettings::changed, this, &SettingsPanel::updateModified);
  connect(more_, &ModelDataSettings::valueRejected, this, &SettingsPanel::valueRejected);
  mistakes_ = new MistakeSettings(this);  // teaching.mistakes, folded
  form->addRow(mistakes_);
  // Every key the CLI takes, from the key table.
  all_settings_ = new QPushButton(this);
  all_settings_->setObjectName(QStringLiteral("allSettingsButton"));
  connect(all_settings_, &QPushButton::clicked, this, &SettingsPanel::openAllSettingsDialog);
  form->addRow(all_settings_);
  connect(mistakes_, &MistakeSettings::changed, this, &SettingsPanel::updateModified);

  retranslate();
  loadPreset(QString::fromStdString(defaultPresetName()));
}

void SettingsPanel::updateModified() {
  const int index = preset_->currentIndex();
  if (from_file_ || index < 0) return;
  const QString name = preset_->itemData(index).toString();
  const TrainConfig shown = config();
  const bool modified =
      edited_all_ || !sameModelData(shown, base_) || !sameDataSource(shown.data, base_.data) || !StoppingSettings::sameKeys(shown, base_) ||
      shown.optimizer.lr != base_.optimizer.lr ||
      shown.teaching.mistakes != base_.teaching.mistakes ||
      shown.training.batch_size != base_.training.batch_size ||
      shown.training.epochs != base_.training.epochs ||
      shown.training.seed != base_.training.seed || shown.training.amp != base_.training.amp ||
      shown.training.clip.enabled != base_.training.clip.enabled ||
      (shown.training.clip.enabled && shown.training.clip.max_norm != base_.training.clip.max_norm);
  preset_->setItemText(index, modified ? Tr::tr("%1 (modified)").arg(name) : name);
}

namespace {

/// "<data file or folder name>-<model kind>" ("houses-mlp", "flowers-cnn"), the source's name
/// for data without a file; characters other than letters, digits, '.', '_' and '-' become '_'.
std::string dataAndModelName(const TrainConfig& c) {
  const DataConfig& d = c.data;
  std::optional<std::string> path;  // the user's own file or folder (its row's section)
  if (const DataSourceKind* kind = findDataSource(d.source); kind && kind->user_data) {
    DataConfig fields = d;
    if (const auto* p = sourceFields(fields, kind->key_section).path) path = *p;
  }
  std::string stem = d.source;
  if (path && !path->empty()) {
    std::filesystem::path p(*path);
    if (!p.has_filename()) p = p.parent_path();  // "flowers/"
    stem = p.filename().string();
    for (const char* suffix : {".gz", ".csv", ".tsv", ".npz", ".npy", ".txt"})
      if (stem.size() > std::strlen(suffix) && stem.compare(stem.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
        stem.resize(stem.size() - std::strlen(suffix));
  }
  std::string name = stem.substr(0, 80) + "-" + c.model.kind;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '_' && ch != '-') ch = '_';
  return name;
}

}  // namespace

TrainConfig SettingsPanel::config() const {
  TrainConfig c = base_;
  if (data_) c.data = *data_;  // the Data dialog's choice; ModelDataSettings' keys follow
  c.optimizer.lr = lr_->value();
  c.training.batch_size = batch_->value();
  c.training.epochs = epochs_->value();
  if (seed_enabled_->isChecked()) {
    c.training.seed = seed_->value();
  } else {
    c.training.seed.reset();
  }
  c.training.amp = amp_->isChecked();
  c.training.clip.enabled = clip_enabled_->isChecked();
  c.training.clip.max_norm = clip_max_norm_->value();
  stopping_->apply(c);
  more_->apply(c);
  mistakes_->apply(c);
  // A run on data chosen in the Data dialog is named after that data and the model (issue 43
  // item 10: an image folder's runs were named "overfit-sine-...").
  if (data_) c.name = dataAndModelName(c);
  return c;
}

void SettingsPanel::setConfig(const TrainConfig& config, const QString& fileName) {
  base_ = config;
  data_.reset();
  edited_all_ = false;
  from_file_ = true;
  from_checkpoint_ = false;
  origin_name_ = fileName;
  for (int i = 0; i < preset_->count(); ++i)
    preset_->setItemText(i, preset_->itemData(i).toString());
  preset_->setCurrentIndex(-1);  // shows the placeholder: no preset is in effect
  showConfig(config);
  retranslate();
}

void SettingsPanel::showConfig(const TrainConfig& c) {
  lr_->setValue(c.optimizer.lr);
  batch_->setValue(static_cast<int>(c.training.batch_size));
  epochs_->setValue(static_cast<int>(c.training.epochs));
  seed_enabled_->setChecked(c.training.seed.has_value());
  seed_->setEnabled(c.training.seed.has_value());
  if (c.training.seed) seed_->setValue(static_cast<int>(*c.training.seed));
  amp_->setChecked(c.training.amp);
  clip_enabled_->setChecked(c.training.clip.enabled);
  clip_max_norm_->setEnabled(c.training.clip.enabled);
  clip_max_norm_->setValue(c.training.clip.max_norm);
  stopping_->showConfig(c);
  more_->showConfig(c);
  mistakes_->showConfig(c);
  showDataSummary(c.data);
}

void SettingsPanel::loadPreset(const QString& name) {
  const TrainConfig c = presetConfig(name.toStdString());  // throws for unknown names
  setConfig(c, name);
  from_file_ = false;
  const int index = preset_->findData(name);
  if (index >= 0) preset_->setCurrentIndex(index);
  retranslate();
}

QString SettingsPanel::presetName() const {
  return from_file_ ? QString() : preset_->currentData().toString();
}

void SettingsPanel::onPresetActivated(int index) {
  const QString name = preset_->itemData(index).toString();
  if (name.isEmpty()) return;
  loadPreset(name);
  emit presetLoaded(name);
}

void SettingsPanel::setEditable(bool editable) {
  // A setting the key table marks live (isLiveSetting: learning rate, clipping, AMP) stays
  // enabled: it applies to an active run. The preset and the data choice have no key.
  const std::pair<QWidget*, const char*> widgets[] = {
      {preset_, nullptr},
      {data_button_, nullptr},
      {batch_, "training.batch_size"},
      {epochs_, "training.epochs"},
      {seed_enabled_, "training.seed"},
      {clip_enabled_, "training.clip.enabled"},
      {amp_, "training.amp"},
  };
  for (const auto& [w, key] : widgets) w->setEnabled(editable || (key && isLiveSetting(key)));
  seed_->setEnabled(editable && seed_enabled_->isChecked());
  more_->setEnabled(true);
  more_->setEditable(editable);
  mistakes_->setEditable(editable);
  stopping_->setEditable(editable);
  clip_max_norm_->setEnabled(clip_enabled_->isChecked());
}

void SettingsPanel::refuseLiveSetting(const QString& key, const QString& error,
                                      const TrainConfig& live) {
  if (!key.startsWith(QLatin1String("training.clip."))) {  // the only value the engine refuses
    emit valueRejected(error);
    return;
  }
  emit valueRejected(Tr::tr("Clipping was not changed: %1").arg(error));
  showClipping(live.training.clip.enabled, live.training.clip.max_norm);
}

void SettingsPanel::showClipping(bool enabled, double maxNorm) {
  const QSignalBlocker block_box(clip_enabled_), block_norm(clip_max_norm_);
  clip_enabled_->setChecked(enabled);
  clip_max_norm_->setValue(maxNorm);
  clip_max_norm_->setEnabled(enabled);
  updateModified();
}

void SettingsPanel::setLearningRate(double lr) { lr_->setValue(lr); }

void SettingsPanel::setLearningRateEnabled(bool enabled) { lr_->setEnabled(enabled); }

void SettingsPanel::setLrFindEnabled(bool enabled) { lr_find_->setEnabled(enabled); }

void SettingsPanel::showNonFinitePolicy(const QString& policy) {
  stopping_->showNonFinitePolicy(policy);
  updateModified();
}

void SettingsPanel::setCheckpointConfig(const TrainConfig& config, const QString& fileName) {
  setConfig(config, fileName);
  from_checkpoint_ = true;
  retranslate();
}

bool SettingsPanel::loadPresetNamed(const QString& name, QString* error) {
  try {
    loadPreset(name);
    return true;
  } catch (const Error& e) {
    if (error) *error = Tr::tr("Unknown preset \"%1\". %2").arg(name, QString::fromUtf8(e.what()));
    return false;
  }
}

}  // namespace trainscope

// The settings panel (settings_panel.h): its texts in the interface language, the data summary
// and the keys its widgets cannot show.
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

void SettingsPanel::retranslate() {
  setTitle(Tr::tr("Settings"));
  const QString texts[] = {
      Tr::tr("&Preset:"), Tr::tr("Source:"), Tr::tr("&Learning rate:"), Tr::tr("Batch si&ze:"),
      Tr::tr("Ep&ochs:"), Tr::tr("See&d:"),  Tr::tr("&Mixed precision:"), Tr::tr("&Clipping:")};
  for (std::size_t i = 0; i < labels_.size(); ++i) labels_[i]->setText(texts[i]);
  const QString preset_help = Tr::tr(
      "A ready-made experiment: dataset, model and training settings. "
      "Choosing one loads its values into the fields below.");
  const std::vector<PresetInfo> all = presets();
  QString description;
  for (std::size_t i = 0; i < all.size() && static_cast<int>(i) < preset_->count(); ++i) {
    const QString text = PresetText::description(all[i]);
    preset_->setItemData(static_cast<int>(i), text, Qt::ToolTipRole);
    if (!from_file_ && static_cast<int>(i) == preset_->currentIndex()) description = text;
  }
  preset_->setToolTip(description.isEmpty() ? preset_help
                                            : description + QStringLiteral("\n\n") + preset_help);
  preset_description_->setText(description);
  data_button_->setText(Tr::tr("D&ata…"));
  all_settings_->setText(Tr::tr("All settings…"));
  all_settings_->setToolTip(Tr::tr("Every setting of the next run in one table, as config files "
                                   "and trainscope-cli train --set name them: model kinds and "
                                   "their layers, scheduler, split, checkpoints, ..."));
  showDataSummary(config().data);
  preset_description_->setVisible(!description.isEmpty());
  preset_->setPlaceholderText(Tr::tr("(from a config file)"));
  origin_->setToolTip(Tr::tr("Where the current settings came from."));
  lr_->setToolTip(
      Tr::tr("How big a step the optimizer takes on each batch. Too high and the loss "
             "jumps around or becomes NaN; too low and training crawls. "
             "Type values like 3e-4 or 0.001. It can be changed while a run trains or is "
             "paused."));
  lr_find_->setText(Tr::tr("Find…"));
  lr_find_->setToolTip(
      Tr::tr("Learning-rate range test: trains a copy of the model with the current settings "
             "while the learning rate grows from 1e-7 to 10, and suggests the learning rate "
             "where the loss falls fastest."));
  batch_->setToolTip(
      Tr::tr("How many samples are used for each optimizer step. Larger batches give "
             "smoother but fewer steps per epoch."));
  epochs_->setToolTip(Tr::tr("How many full passes over the training data the run makes."));
  seed_enabled_->setText(Tr::tr("Fixed"));
  seed_enabled_->setToolTip(
      Tr::tr("On: use the seed on the right, so the same settings give exactly "
             "the same run again. Off: draw a new random seed for every run "
             "(it is shown in the status bar and saved with the run)."));
  seed_->setToolTip(
      Tr::tr("The random seed: it decides the initial weights and the order of the "
             "batches."));
  amp_->setText(Tr::tr("AMP"));
  amp_->setToolTip(
      Tr::tr("Automatic mixed precision: the forward pass computes in bf16 on the CPU (fp16 with "
             "loss scaling on a CUDA GPU); weights, gradients and optimizer state stay float32. "
             "Can be switched while a run is running or paused: it applies from the next step."));
  clip_enabled_->setText(Tr::tr("On"));
  clip_enabled_->setToolTip(
      Tr::tr("Gradient clipping: when the total gradient norm exceeds the "
             "maximum on the right, the gradient is scaled down to it. "
             "Protects against exploding gradients."));
  clip_max_norm_->setToolTip(
      Tr::tr("The largest gradient norm allowed when clipping is on. "
             "It is drawn as a line on the gradient norm plot."));
  stopping_->retranslate();
  more_->retranslate();
  mistakes_->retranslate();
  origin_->setText(from_checkpoint_ ? Tr::tr("checkpoint %1").arg(origin_name_)
                   : from_file_     ? Tr::tr("config file %1").arg(origin_name_)
                                    : Tr::tr("built-in preset \"%1\"").arg(origin_name_));
  updateModified();
}


void SettingsPanel::showDataSummary(const DataConfig& d) {
  QString file;
  for (const std::optional<std::string>* p : {&d.csv.path, &d.image_folder.path, &d.npy.path,
                                               &d.idx.path, &d.path})
    if (*p && !(*p)->empty()) file = QFileInfo(QString::fromStdString(**p)).fileName();
  const QString title = DataDialog::sourceTitle(d.source);
  data_button_->setToolTip(
      Tr::tr("Data of the next run: %1").arg(file.isEmpty() ? title : QStringLiteral("%1: %2").arg(title, file)) +
      QStringLiteral("\n\n") +
      Tr::tr("Train on your own data: a CSV table, a folder of images per class, NumPy arrays or "
             "IDX files. Shows what was read (samples, classes, warnings) before training."));
}


QString SettingsPanel::keyOutsideWidgets(const TrainConfig& c, QString* range) const {
  auto outside = [&](double v, double lo, double hi, const char* key) {
    if (v >= lo && v <= hi) return QString();
    if (range)
      *range = QStringLiteral("%1 – %2").arg(ScientificSpinBox::formatValue(lo),
                                             ScientificSpinBox::formatValue(hi));
    return QString::fromLatin1(key);
  };
  for (const QString& key :
       {outside(c.optimizer.lr, lr_->minimum(), lr_->maximum(), "optimizer.lr"),
        outside(static_cast<double>(c.training.batch_size), batch_->minimum(), batch_->maximum(),
                "training.batch_size"),
        outside(static_cast<double>(c.training.epochs), epochs_->minimum(), epochs_->maximum(),
                "training.epochs"),
        outside(c.training.clip.max_norm, clip_max_norm_->minimum(), clip_max_norm_->maximum(),
                "training.clip.max_norm")}) {
    if (!key.isEmpty()) return key;
  }
  if (const QString key = stopping_->keyOutsideWidgets(c, range); !key.isEmpty()) return key;
  return more_->keyOutsideWidgets(c, range);
}


}  // namespace trainscope

// The settings panel (settings_panel.h): the dialogs it opens (All settings, Data, Shapes,
// TorchScript) and the config files it reads and writes.
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

void SettingsPanel::openAllSettingsDialog() {
  AllSettingsDialog dialog(config(), this);
  if (dialog.exec() == QDialog::Accepted) applyAllSettings(dialog.config());
}

void SettingsPanel::applyAllSettings(const TrainConfig& config) {
  base_ = config;
  data_.reset();
  edited_all_ = !from_file_;
  showConfig(config);
  retranslate();
  updateModified();
}

void SettingsPanel::openDataDialog() {
  DataDialog dialog(config().data, this);
  if (dialog.exec() != QDialog::Accepted) return;
  data_ = dialog.dataConfig();
  // The rows below show the dialog's data (its validation fraction too), not the other way
  // round: config() would put the rows' old values over it.
  TrainConfig shown = config();
  shown.data = *data_;
  showConfig(shown);  // samples and validation rows follow the source (limit vs n_samples)
  updateModified();
  emit dataChosen();
}

void SettingsPanel::openShapesDialog() {
  ShapesDialog dialog(config(), this);
  dialog.exec();
}

void SettingsPanel::openTorchScriptDialog() {
  const QString path = QFileDialog::getOpenFileName(
      this, Tr::tr("Use a TorchScript model"), QString(),
      Tr::tr("TorchScript files (*.pt *.pth *.ts);;All files (*)"));
  if (!path.isEmpty()) importTorchScript(path);
}

bool SettingsPanel::importTorchScript(const QString& path) {
  TrainConfig c = config();
  c.model.kind = "torchscript";
  c.model.torchscript.path = QFileInfo(path).absoluteFilePath().toStdString();
  ShapesDialog dialog(c, this, /*choose=*/true);
  if (dialog.exec() != QDialog::Accepted) return false;
  base_.model = c.model;  // the data, optimizer and training settings stay as they are
  showConfig(config());
  updateModified();
  return true;
}

bool SettingsPanel::openConfigFile(const QString& path, QString* error) {
  try {
    // defaults < the file's base "preset" (when it names one) < the file's keys
    const TrainConfig config =
        configFromJson(configFileJson(path.toStdString()));  // validates; throws naming the key
    QString range;
    const QString key = keyOutsideWidgets(config, &range);
    if (!key.isEmpty()) {
      if (error) {
        *error = Tr::tr(
                     "The config file \"%1\" was not loaded: the setting \"%2\" is outside what "
                     "the dashboard can set (%3). Use trainscope-cli for such values.")
                     .arg(path, key, range) +
                 QLatin1Char('\n') + Tr::tr("The previous settings are kept.");
      }
      return false;
    }
    setConfig(config, QFileInfo(path).fileName());
    emit configFileOpened(path);
    return true;
  } catch (const Error& e) {
    if (error) {
      const QString subject = QString::fromStdString(e.subject());
      *error = (e.code() == ErrorCode::Config && !subject.isEmpty() && subject != path)
                   ? Tr::tr("The config file \"%1\" was not loaded: the setting \"%2\" is invalid.")
                         .arg(path, subject)
                   : Tr::tr("The config file \"%1\" was not loaded.").arg(path);
      *error += QLatin1Char('\n') + QString::fromUtf8(e.what()) + QLatin1Char('\n') +
                Tr::tr("The previous settings are kept.");
    }
    return false;
  } catch (const std::exception& e) {
    if (error) {
      *error = Tr::tr("The config file \"%1\" was not loaded.").arg(path) + QLatin1Char('\n') +
               QString::fromUtf8(e.what()) + QLatin1Char('\n') +
               Tr::tr("The previous settings are kept.");
    }
    return false;
  }
}

bool SettingsPanel::saveConfigFile(const QString& path, QString* error) const {
  try {
    trainscope::saveConfigFile(path.toStdString(), config());
    return true;
  } catch (const std::exception& e) {
    if (error) {
      *error = Tr::tr("Could not save the config to \"%1\".").arg(path) + QLatin1Char('\n') +
               QString::fromUtf8(e.what());
    }
    return false;
  }
}

void SettingsPanel::openConfigDialog() {
  const QString path = QFileDialog::getOpenFileName(this, Tr::tr("Open config"), QString(),
                                                    Tr::tr("Config files (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!openConfigFile(path, &error))
    QMessageBox::warning(this, Tr::tr("Cannot open config"), error);
}

void SettingsPanel::saveConfigDialog() {
  const QString path = QFileDialog::getSaveFileName(
      this, Tr::tr("Save config"),
      QStringLiteral("%1.json").arg(QString::fromStdString(config().name)),
      Tr::tr("Config files (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!saveConfigFile(path, &error)) {
    QMessageBox::warning(this, Tr::tr("Cannot save config"), error);
  } else {
    emit configFileSaved(path);
  }
}
}  // namespace trainscope

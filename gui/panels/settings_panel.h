#pragma once
/// The settings group of the main window: preset and the most-used training settings.
#include <QGroupBox>
#include <optional>
#include <vector>

#include "core/config/train_config.h"
#include "core/system/device_info.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace trainscope {

class MistakeSettings;

class ModelDataSettings;
class ScientificSpinBox;
class StoppingSettings;

/// Shows a base config (a preset, or a config file) and lets the user override the learning
/// rate, batch size, epochs, seed and gradient clipping, (StoppingSettings) the non-finite
/// policy and early stopping, and (ModelDataSettings) the model, data and device. The selected
/// preset's description stands under the preset selector (`presetDescriptionLabel`) and in
/// its tooltip, translated. config() is the base config with the widget values applied; it
/// is read when a run starts.
class SettingsPanel : public QGroupBox {
  Q_OBJECT
 public:
  /// `devices` lists the devices the device selector offers.
  explicit SettingsPanel(const DeviceInfo& devices, QWidget* parent = nullptr);

  /// The base config with the widgets' values applied.
  TrainConfig config() const;
  /// The first config key whose value the widgets cannot show exactly (outside a spin box's
  /// range), with that range in `range`; empty when every value fits. Loading such a config
  /// would silently change it, so the window refuses it instead.
  QString keyOutsideWidgets(const TrainConfig& config, QString* range = nullptr) const;
  /// Loads `config` (from the file `fileName`) as the new base and shows its values.
  void setConfig(const TrainConfig& config, const QString& fileName);
  /// Loads the settings of the checkpoint `fileName` (Source: "checkpoint last.pt").
  void setCheckpointConfig(const TrainConfig& config, const QString& fileName);
  /// Selects a built-in preset and loads it. Throws Error(Config) for an unknown name.
  void loadPreset(const QString& name);
  /// loadPreset() that reports an unknown name in `error` (translated) instead of throwing.
  bool loadPresetNamed(const QString& name, QString* error = nullptr);
  /// Loads a (possibly partial) config file merged over the defaults. On failure returns false,
  /// sets `error` (naming the file and the key) and keeps the previous settings.
  bool openConfigFile(const QString& path, QString* error = nullptr);
  /// Saves config() as a config file (atomically). On failure returns false and sets `error`.
  bool saveConfigFile(const QString& path, QString* error = nullptr) const;
  /// Name of the selected preset, or empty when the settings came from a file.
  QString presetName() const;
  /// Enables or disables editing (settings apply when a run starts). The live settings stay
  /// editable (see liveSettingEdited).
  void setEditable(bool editable);
  /// Shows a clipping setting changed elsewhere (the engine, a roll-back) without emitting
  /// liveSettingEdited.
  void showClipping(bool enabled, double maxNorm);
  /// A live edit of `key` the run refused (RunCommands::setLiveSetting's `error`, English):
  /// says so through valueRejected and shows the values in force again (`live`,
  /// RunStore::liveConfig) without emitting liveSettingEdited.
  void refuseLiveSetting(const QString& key, const QString& error, const TrainConfig& live);
  /// Shows a non-finite policy changed elsewhere without emitting liveSettingEdited.
  void showNonFinitePolicy(const QString& policy);
  /// Sets the learning rate spin box to `lr`, as if typed: liveSettingEdited follows when the
  /// value changes (the range test's choice).
  void setLearningRate(double lr);
  /// Enables or disables the learning rate (a live setting) and the range-test button.
  void setLearningRateEnabled(bool enabled);
  void setLrFindEnabled(bool enabled);

  /// Sets every text in the current language.
  void retranslate();
  /// File > Open config: asks for a file, loads it, warns (naming the key) when it cannot.
  void openConfigDialog();
  /// File > Save config: asks for a file name and saves config() there.
  void saveConfigDialog();
  /// dataButton: the Data dialog (source, file, target, import report); its checked choice
  /// becomes the data of config() until another preset, file or checkpoint is loaded.
  void openDataDialog();
  /// allSettingsButton: every config key in a table (AllSettingsDialog); OK applies them.
  void openAllSettingsDialog();
  /// Makes `config` (every key edited, e.g. by the All settings dialog) the settings of the next
  /// run: the preset stays named, marked "(modified)".
  void applyAllSettings(const TrainConfig& config);
  /// File > Check shapes: the Shapes dialog for config() (one batch through the model).
  void openShapesDialog();
  /// File > Use a TorchScript model...: asks for the file, then importTorchScript().
  void openTorchScriptDialog();
  /// Shows the import report of the TorchScript file `path` and one batch of the current data
  /// through it (ShapesDialog); "Use this model" makes it the model of the next runs
  /// (model.kind torchscript, model.torchscript.path absolute). Returns whether it was chosen.
  bool importTorchScript(const QString& path);

 signals:
  /// The user picked another preset and its values were loaded.
  void presetLoaded(const QString& name);
  /// The Data dialog's checked data became the settings' data.
  void dataChosen();
  /// A config file was loaded (openConfigFile() or the dialog) or saved (the dialog).
  void configFileOpened(const QString& path);
  void configFileSaved(const QString& path);
  /// A typed value was refused; `message` (translated) says why.
  void valueRejected(const QString& message);
  /// A live setting was edited (the keys the key table marks live, isLiveSetting, and
  /// training.non_finite): learningRateSpinBox ("optimizer.lr", a double, once per finished
  /// edit, also when set from the range test), ampCheckBox ("training.amp", a bool, clicks
  /// only), clipCheckBox and clipMaxNormSpinBox ("training.clip.enabled" / ".max_norm") and the
  /// non-finite policy ("training.non_finite", a QString). The main window sends it to the run
  /// session (RunCommands::setLiveSetting), which applies it to an active run from its next
  /// step; without a run only config() changes.
  void liveSettingEdited(const QString& key, const QVariant& value);
  /// The user clicked lrFindButton (the learning rate range test).
  void lrFindRequested();

 private:
  void onPresetActivated(int index);
  void showConfig(const TrainConfig& config);
  /// Shows "(modified)" after the preset's name while the fields differ from the preset.
  void updateModified();
  void showDataSummary(const DataConfig& data);

  TrainConfig base_;
  bool from_file_ = false;
  bool from_checkpoint_ = false;  ///< with from_file_: the file is a checkpoint
  bool edited_all_ = false;       ///< applyAllSettings changed the preset's keys
  QPushButton* all_settings_ = nullptr;  ///< `allSettingsButton`
  QString origin_name_;          ///< the preset's name or the config file's name
  std::vector<QLabel*> labels_;  ///< the form's row labels, in order
  QComboBox* preset_ = nullptr;
  std::optional<DataConfig> data_;       ///< the Data dialog's choice (over base_.data)
  QPushButton* data_button_ = nullptr;   ///< `dataButton`: opens the Data dialog; its tooltip
                                         ///< names the data of the next run
  ModelDataSettings* more_ = nullptr;  ///< model, data and device rows
  StoppingSettings* stopping_ = nullptr;  ///< non-finite policy and early stopping rows
  QLabel* preset_description_ = nullptr;  ///< `presetDescriptionLabel`
  QLabel* origin_ = nullptr;
  ScientificSpinBox* lr_ = nullptr;
  QPushButton* lr_find_ = nullptr;  ///< `lrFindButton`
  QSpinBox* batch_ = nullptr;
  QSpinBox* epochs_ = nullptr;
  MistakeSettings* mistakes_ = nullptr;  ///< teaching.mistakes (folded)
  QCheckBox* seed_enabled_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QCheckBox* amp_ = nullptr;  ///< ampCheckBox: training.amp, live while a run is active
  QCheckBox* clip_enabled_ = nullptr;
  ScientificSpinBox* clip_max_norm_ = nullptr;
};

}  // namespace trainscope

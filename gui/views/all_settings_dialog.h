#pragma once
/// Every config key in one table (the settings column cannot set up an image
/// model, a scheduler or a split; the CLI's --set can): built from the key table
/// (core/config/config_file.h configKeyInfos), so a key added there appears here too.
#include <QDialog>

#include "core/config/train_config.h"

class QLabel;
class QLineEdit;
class QTableWidget;

namespace trainscope {

/// The keys of `config` as rows (objectName allSettingsTable): the key, its value (editable;
/// JSON as `--set` takes it: numbers, true/false, null, [lists], or plain text for strings),
/// the allowed values; the key's help and default as tooltip; changed values bold. A filter
/// (allSettingsFilter) shows the keys containing its text. OK applies the edited values as
/// `--set KEY=VALUE` would (applySet) and validates the whole config (configFromJson): an
/// invalid value keeps the dialog open with the error naming the key (allSettingsError).
class AllSettingsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit AllSettingsDialog(const TrainConfig& config, QWidget* parent = nullptr);

  /// The config with the edits, after a successful apply() (OK); else the one given.
  const TrainConfig& config() const { return config_; }
  /// Types `text` as the value of `key` (tests, automation); false for an unknown key.
  bool setValueText(const QString& key, const QString& text);
  /// The shown value of `key`, as typed or as the config has it.
  QString valueText(const QString& key) const;
  /// Applies the edited values; false with the message shown (and in `error`) when the result
  /// is not a valid config.
  bool apply(QString* error = nullptr);
  /// The keys listed, in the key table's order.
  QStringList keys() const;

  void accept() override;

 private:
  void filter(const QString& text);
  void markChanged(int row);

  TrainConfig config_;
  QStringList original_;  ///< each row's value text as shown at first
  QTableWidget* table_;
  QLineEdit* filter_;
  QLabel* error_;
};

}  // namespace trainscope

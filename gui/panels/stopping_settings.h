#pragma once
/// The settings rows for what ends or holds a run besides its epochs: the non-finite policy and
/// early stopping. Part of the settings panel.
#include <QObject>

#include "core/config/config_fwd.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace trainscope {

class ScientificSpinBox;

/// Shows and edits `training.non_finite` (nonFiniteComboBox: pause | stop | skip; a config
/// without the key shows the dashboard's default, pause) and `training.early_stopping.enabled`
/// (earlyStoppingCheckBox), `.patience` (patienceSpinBox, epochs, 1 .. 1,000,000) and
/// `.min_delta` (minDeltaSpinBox, >= 0), with the ranges of core/config/config_keys.cpp. Early
/// stopping applies when the next run starts; the policy is live: picking one while a run is
/// active emits nonFinitePolicyEdited. One row each ("When NaN/Inf", "Early stopping",
/// "Patience", "Min. delta"), in the settings panel's form; and `training.monitor`
/// (monitorComboBox, "Best by": the validation metric that picks best.pt and early stopping).
class StoppingSettings : public QObject {
  Q_OBJECT
 public:
  /// Adds the rows to `form` (the settings panel's, so that the columns line up); the widgets
  /// are children of `parent`.
  StoppingSettings(QFormLayout* form, QWidget* parent);
  /// Shows `config`'s values (without emitting nonFinitePolicyEdited).
  void showConfig(const TrainConfig& config);
  /// Writes the widgets' values into `config`; an unset training.non_finite stays unset while
  /// the default (pause) is shown.
  void apply(TrainConfig& config) const;
  /// The keys these rows show are equal in `a` and `b` (for the "modified" mark).
  static bool sameKeys(const TrainConfig& a, const TrainConfig& b);
  /// The first key of `config` these rows cannot show exactly, with the range in `range`.
  QString keyOutsideWidgets(const TrainConfig& config, QString* range) const;
  /// Shows a policy set elsewhere (the non-finite panel) without emitting.
  void showNonFinitePolicy(const QString& policy);
  /// Early stopping is editable only between runs; the policy always.
  void setEditable(bool editable);
  void retranslate();

 signals:
  void changed();
  /// The user picked `policy` ("pause", "stop" or "skip").
  void nonFinitePolicyEdited(const QString& policy);

 private:
  QLabel* policy_label_ = nullptr;
  QLabel* early_label_ = nullptr;
  QLabel* patience_label_ = nullptr;
  QLabel* delta_label_ = nullptr;
  QLabel* monitor_label_ = nullptr;
  QComboBox* monitor_ = nullptr;
  QComboBox* policy_ = nullptr;
  QCheckBox* early_ = nullptr;
  QSpinBox* patience_ = nullptr;
  ScientificSpinBox* min_delta_ = nullptr;
};

}  // namespace trainscope

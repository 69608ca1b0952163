#pragma once
/// File > New sweep...: a sweep of the current settings (issue 47 §3). A table of the config
/// keys that apply to the current settings (sweepParametersTable; sweepKeyFilterEdit narrows
/// it): tick "vary" on a key, choose how (choices, uniform, log_uniform, int_uniform) and give
/// its values or range, prefilled from the key table (a number's range around its current
/// value within the key's bounds, a string's allowed values, true and false). Then the method,
/// the trial budget, trials at once, the objective and its goal, seeds and the pruner.
/// sweepPlanLabel says how many trials it makes, or what is wrong (the key and the problem, as
/// `trainscope-cli sweep` says it). Start writes the sweep file and starts it
/// (sweep_launcher.h); started() gives the sweep folder.
#include <QDialog>
#include <QString>
#include <nlohmann/json.hpp>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace trainscope {

class NewSweepDialog : public QDialog {
  Q_OBJECT
 public:
  /// `config`: the current settings (configToJson); `root`: the runs folder the sweep goes in.
  NewSweepDialog(const nlohmann::json& config, const QString& root, QWidget* parent = nullptr);

  /// Ticks `key` to vary with `kind` ("choices", "uniform", "log_uniform", "int_uniform") and
  /// `values` as typed in the table ("0.001, 0.01" or "1e-4, 1e-1"); false for a key not listed.
  bool vary(const QString& key, const QString& kind, const QString& values);
  /// The sweep file's fields as the dialog would write them (no "base"); nullopt with `error`
  /// naming the key and the problem.
  std::optional<nlohmann::json> sweepJson(QString* error) const;
  /// Starts the sweep (the Start button); the sweep folder, or empty with `error`.
  QString start(QString* error);

 signals:
  /// The sweep in folder `dir` was started.
  void started(const QString& dir);

 private:
  void updatePlan();
  int rowOf(const QString& key) const;

  nlohmann::json config_;
  QString root_;
  QLineEdit* name_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QTableWidget* table_ = nullptr;
  QComboBox* method_ = nullptr;
  QSpinBox* max_trials_ = nullptr;
  QSpinBox* concurrent_ = nullptr;
  QComboBox* metric_ = nullptr;
  QComboBox* goal_ = nullptr;
  QSpinBox* seeds_ = nullptr;
  QComboBox* pruner_ = nullptr;
  QLabel* plan_ = nullptr;
  QPushButton* start_ = nullptr;
};

}  // namespace trainscope

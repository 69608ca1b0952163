#pragma once
/// "Show me the PyTorch code" (issue 25 §7) in the dashboard: the current settings written as
/// a plain PyTorch 1.13 script (core/train/teaching/python_script.h), read-only and monospaced,
/// with Copy and Save as... (objectName pythonCodeDialog; the text pythonCodeText). The user's
/// own data (csv, npy, idx, image-folder) is written from the run shown (its config.json and
/// split.json: the samples it read); without a run folder the dialog says to start one.
#include <QDialog>

#include "core/config/config_fwd.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace trainscope {

class PythonCodeDialog : public QDialog {
  Q_OBJECT
 public:
  /// `config`: the settings to write; `source` says where they came from (in the script's
  /// header, English like the script). `liveChanges`: the settings changed or steps rolled
  /// back while the run shown trained ("step 120: ..."); when there are any, the dialog says
  /// that run's losses differ from the script's after the first of them (issue 43 item 20:
  /// it promised equal losses), as `trainscope-cli export-python` warns. `runDir`: the folder
  /// of the run shown (empty: none), which own data is written from.
  PythonCodeDialog(const TrainConfig& config, const std::string& source, QWidget* parent = nullptr,
                   const QStringList& liveChanges = {}, qint64 firstChangeStep = 0,
                   const QString& runDir = {});

  /// The script, or empty when the settings cannot be written as one.
  QString script() const { return script_; }
  /// Writes the script to `file` atomically; false with `error` (translated) naming the file.
  bool saveTo(const QString& file, QString* error) const;

 private:
  void saveAs();

  QString script_;
  QString name_;  ///< config.name: the default file name
  QPlainTextEdit* text_ = nullptr;
};

}  // namespace trainscope

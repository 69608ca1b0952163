#pragma once
/// File > Export model... (issue 50): the shown run's checkpoint as ONNX or TorchScript with
/// its model card, through core/export/export_model.h (what `trainscope-cli export` runs).
#include <QDialog>
#include <QString>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace trainscope {

/// Format (`exportFormat`: ONNX / TorchScript), checkpoint (`exportCheckpoint`: best / last,
/// those the run has), "the run's preprocessing inside" (`exportPreprocessing`, on),
/// "softmax" (`exportSoftmax`), the file (`exportFile`, Browse...), Export
/// (`exportButton`). The result or the refusal (`exportResult`) is shown in the dialog; a
/// refused export writes nothing. Modal; the run keeps training meanwhile.
class ExportModelDialog : public QDialog {
  Q_OBJECT
 public:
  /// `run_dir`: the shown run's folder (absolute).
  explicit ExportModelDialog(const QString& run_dir, QWidget* parent = nullptr);

  /// Runs the export with the dialog's choices; returns whether it was written. The text of
  /// exportResult says what was written, or why not.
  bool exportNow();
  QString resultText() const;

 private:
  void formatChanged();
  void browse();

  QString run_dir_;
  QComboBox* format_ = nullptr;
  QComboBox* checkpoint_ = nullptr;
  QCheckBox* preprocessing_ = nullptr;
  QCheckBox* softmax_ = nullptr;
  QLineEdit* file_ = nullptr;
  QLabel* note_ = nullptr;
  QLabel* result_ = nullptr;
  QPushButton* export_ = nullptr;
};

}  // namespace trainscope

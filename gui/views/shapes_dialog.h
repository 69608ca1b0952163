#pragma once
/// "Shape first" in the dashboard (issue 23): the first batch of the configured data through the
/// configured model, as `trainscope-cli train --dry-run` prints it.
#include <QDialog>
#include <QString>

#include "core/config/config_fwd.h"

class QLabel;
class QTableWidget;

namespace trainscope {

struct ShapeReport;

/// Runs shapeReport (core/train/probes/shapes.h) for `config` on a worker thread and shows x and
/// y of the batch (shape, dtype, device, value range), a table of every layer (name, layer,
/// output shape with the batch, parameters) and the output; a model that does not fit the data
/// shows the error naming both shapes. Nothing is trained or written. For model.kind
/// "torchscript" it first shows the file's import report (inspectTorchScript: scripted or
/// traced, parameters trainable and frozen, buffers, submodules, warnings).
class ShapesDialog : public QDialog {
  Q_OBJECT
 public:
  /// `choose`: the dialog offers "Use this model" (accept), enabled once the model fits.
  explicit ShapesDialog(const TrainConfig& config, QWidget* parent = nullptr, bool choose = false);
  /// The error of the check, empty when the model fits (for tests).
  QString error() const { return error_; }
  QTableWidget* table() const { return table_; }
  /// The import report's text (TorchScript only; empty otherwise).
  QString importReport() const;

 signals:
  void finished(bool ok);

 private:
  void show(const ShapeReport* report, const QString& error, const QString& import);
  class QPushButton* use_ = nullptr;

  QLabel* import_;
  QLabel* summary_;
  QTableWidget* table_;
  QLabel* output_;
  QString error_;
};

}  // namespace trainscope

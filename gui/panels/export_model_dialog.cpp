#include "gui/panels/export_model_dialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/errors.h"
#include "core/export/export_model.h"
#include "gui/tr.h"

namespace trainscope {

ExportModelDialog::ExportModelDialog(const QString& run_dir, QWidget* parent)
    : QDialog(parent), run_dir_(run_dir) {
  setObjectName(QStringLiteral("exportModelDialog"));
  setWindowTitle(Tr::tr("Export model"));
  auto* form = new QFormLayout;
  format_ = new QComboBox(this);
  format_->setObjectName(QStringLiteral("exportFormat"));
  format_->addItem(Tr::tr("ONNX (OpenCV, onnxruntime, ...)"), QStringLiteral("onnx"));
  format_->addItem(Tr::tr("TorchScript (torch.jit.load)"), QStringLiteral("torchscript"));
  form->addRow(Tr::tr("Format:"), format_);
  checkpoint_ = new QComboBox(this);
  checkpoint_->setObjectName(QStringLiteral("exportCheckpoint"));
  const QDir checkpoints(run_dir + QStringLiteral("/checkpoints"));
  if (QFileInfo(checkpoints.filePath(QStringLiteral("best.pt"))).isFile())
    checkpoint_->addItem(Tr::tr("Best (lowest validation loss)"), QStringLiteral("best"));
  if (QFileInfo(checkpoints.filePath(QStringLiteral("last.pt"))).isFile())
    checkpoint_->addItem(Tr::tr("Last (the final weights)"), QStringLiteral("last"));
  form->addRow(Tr::tr("Weights:"), checkpoint_);
  preprocessing_ = new QCheckBox(Tr::tr("Include the run's preprocessing (inputs as stored: pixels 0-255)"), this);
  preprocessing_->setObjectName(QStringLiteral("exportPreprocessing"));
  preprocessing_->setChecked(true);
  form->addRow(QString(), preprocessing_);
  softmax_ = new QCheckBox(Tr::tr("Output probabilities (softmax) instead of logits"), this);
  softmax_->setObjectName(QStringLiteral("exportSoftmax"));
  form->addRow(QString(), softmax_);
  file_ = new QLineEdit(this);
  file_->setObjectName(QStringLiteral("exportFile"));
  auto* browse = new QPushButton(Tr::tr("Browse..."), this);
  auto* row = new QHBoxLayout;
  row->addWidget(file_, 1);
  row->addWidget(browse);
  form->addRow(Tr::tr("File:"), row);
  note_ = new QLabel(this);
  note_->setWordWrap(true);
  result_ = new QLabel(this);
  result_->setObjectName(QStringLiteral("exportResult"));
  result_->setWordWrap(true);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  export_ = buttons->addButton(Tr::tr("Export"), QDialogButtonBox::ActionRole);
  export_->setObjectName(QStringLiteral("exportButton"));
  export_->setEnabled(checkpoint_->count() > 0);
  if (checkpoint_->count() == 0) result_->setText(Tr::tr("This run has no checkpoint to export yet."));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note_);
  layout->addWidget(result_);
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(export_, &QPushButton::clicked, this, [this] { exportNow(); });
  connect(browse, &QPushButton::clicked, this, &ExportModelDialog::browse);
  connect(format_, &QComboBox::currentIndexChanged, this, &ExportModelDialog::formatChanged);
  connect(checkpoint_, &QComboBox::currentIndexChanged, this, &ExportModelDialog::formatChanged);
  formatChanged();
  resize(560, sizeHint().height());
}

void ExportModelDialog::formatChanged() {
  const QString format = format_->currentData().toString();
  const QString name = QFileInfo(run_dir_).fileName() + QLatin1Char('-') +
                       (checkpoint_->count() ? checkpoint_->currentData().toString() : QStringLiteral("best")) +
                       (format == QLatin1String("onnx") ? QStringLiteral(".onnx") : QStringLiteral(".pt"));
  const QFileInfo current(file_->text());
  const QString dir = file_->text().isEmpty() ? QDir::homePath() : current.absolutePath();
  file_->setText(QDir(dir).filePath(name));
  note_->setText(format == QLatin1String("onnx")
                     ? Tr::tr("ONNX (opset 13) is written for MLP and CNN models; a model card "
                              "(.model-card.md and .json) is written beside the file.")
                     : Tr::tr("TorchScript is written for every model kind; a model card "
                              "(.model-card.md and .json) is written beside the file."));
}

void ExportModelDialog::browse() {
  const bool onnx = format_->currentData().toString() == QLatin1String("onnx");
  const QString file = QFileDialog::getSaveFileName(
      this, Tr::tr("Export model"), file_->text(),
      onnx ? Tr::tr("ONNX model (*.onnx)") : Tr::tr("TorchScript module (*.pt)"));
  if (!file.isEmpty()) file_->setText(file);
}

bool ExportModelDialog::exportNow() {
  ExportRequest request;
  request.run = run_dir_.toStdString();
  request.format = format_->currentData().toString().toStdString();
  request.checkpoint = checkpoint_->currentData().toString().toStdString();
  request.output = file_->text().toStdString();
  request.raw_input = !preprocessing_->isChecked();
  request.softmax = softmax_->isChecked();
  QApplication::setOverrideCursor(Qt::WaitCursor);
  try {
    const ExportResult r = exportModel(request);
    QApplication::restoreOverrideCursor();
    result_->setStyleSheet(QString());
    result_->setText(Tr::tr("Written: %1 (epoch %2), with its model card %3.")
                         .arg(QString::fromStdString(r.file.string()))
                         .arg(r.epoch)
                         .arg(QString::fromStdString(r.card_markdown.filename().string())));
    for (const std::string& n : r.notes)  // English, as the card says it
      result_->setText(result_->text() + QLatin1Char('\n') + QString::fromStdString(n));
    return true;
  } catch (const std::exception& e) {  // Error: what and why (English, as the CLI says it)
    QApplication::restoreOverrideCursor();
    result_->setStyleSheet(QStringLiteral("color: #b00020;"));
    result_->setText(Tr::tr("Not exported: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

QString ExportModelDialog::resultText() const { return result_->text(); }

}  // namespace trainscope

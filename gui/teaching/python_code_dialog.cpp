// The "Show me the PyTorch code" dialog (python_code_dialog.h).
#include "gui/teaching/python_code_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QVBoxLayout>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/train/teaching/python_script.h"
#include "gui/tr.h"

namespace trainscope {

PythonCodeDialog::PythonCodeDialog(const TrainConfig& config, const std::string& source,
                                   QWidget* parent, const QStringList& liveChanges,
                                   qint64 firstChangeStep, const QString& runDir)
    : QDialog(parent), name_(QString::fromStdString(config.name)) {
  setObjectName(QStringLiteral("pythonCodeDialog"));
  setWindowTitle(Tr::tr("The PyTorch code of these settings"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  QString error;
  const bool own_data = isOwnDataSource(config.data.source) && !runDir.isEmpty();
  try {
    if (own_data) {  // the run shown: its settings and the samples its split.json lists
      const std::filesystem::path dir = runDir.toStdString();
      const TrainConfig shown = configFromJson(readConfigFile(dir / "config.json"));
      PythonScriptSource run_source{"the run " + dir.string()};
      run_source.own_data = readOwnDataRecord(dir, shown);
      script_ = QString::fromStdString(pythonScript(shown, run_source));
    } else {
      script_ = QString::fromStdString(pythonScript(config, {source}));
    }
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  }
  if (script_.isEmpty()) {
    intro->setText(Tr::tr("These settings cannot be written as a plain PyTorch script: %1")
                       .arg(error));
  } else {
    QString text = Tr::tr("What TrainScope does with these settings, written as a plain PyTorch "
                          "script in the usual training loop. Run it with python3 FILE --out "
                          "DIR: on the CPU every step's loss equals the steps.csv of a run "
                          "started with these settings.");
    if (own_data)
      text += QStringLiteral("\n") +
              Tr::tr("Your own data is read as the run shown read it (%1): the samples its "
                     "split.json lists, with the settings that run started with.")
                  .arg(QDir::toNativeSeparators(runDir));
    if (!liveChanges.isEmpty())
      text += QStringLiteral("\n") +
              Tr::tr("The run shown was changed while it trained (%1): the script trains with "
                     "the settings from the start, so its losses differ from that run's after "
                     "step %2 (trainscope-cli train --replay repeats the changes).")
                  .arg(liveChanges.mid(0, 3).join(QStringLiteral("; ")) +
                           (liveChanges.size() > 3 ? QStringLiteral("; …") : QString()))
                  .arg(firstChangeStep);
    intro->setText(text);
  }
  text_ = new QPlainTextEdit(this);
  text_->setObjectName(QStringLiteral("pythonCodeText"));
  text_->setReadOnly(true);
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSizeF(font().pointSizeF());  // follows presentation mode's larger texts
  text_->setFont(mono);
  text_->setPlainText(script_);
  text_->setVisible(!script_.isEmpty());
  layout->addWidget(text_, 1);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  QPushButton* copy = buttons->addButton(Tr::tr("&Copy"), QDialogButtonBox::ActionRole);
  copy->setObjectName(QStringLiteral("pythonCodeCopy"));
  QPushButton* save = buttons->addButton(Tr::tr("&Save as..."), QDialogButtonBox::ActionRole);
  save->setObjectName(QStringLiteral("pythonCodeSave"));
  copy->setEnabled(!script_.isEmpty());
  save->setEnabled(!script_.isEmpty());
  connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(script_); });
  connect(save, &QPushButton::clicked, this, &PythonCodeDialog::saveAs);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(900, 640);
}

bool PythonCodeDialog::saveTo(const QString& file, QString* error) const {
  QSaveFile out(file);
  if (!out.open(QIODevice::WriteOnly) || out.write(script_.toUtf8()) < 0 || !out.commit()) {
    *error = Tr::tr("Cannot write %1: %2").arg(file, out.errorString());
    return false;
  }
  return true;
}

void PythonCodeDialog::saveAs() {
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("exportDir")).toString();
  const QString file = QFileDialog::getSaveFileName(
      this, Tr::tr("Save the PyTorch script"),
      (dir.isEmpty() ? QString() : dir + QLatin1Char('/')) + name_ + QStringLiteral(".py"),
      Tr::tr("Python scripts (*.py)"));
  if (file.isEmpty()) return;
  settings.setValue(QStringLiteral("exportDir"), QFileInfo(file).absolutePath());
  QString error;
  if (!saveTo(file, &error)) QMessageBox::warning(this, Tr::tr("Save the PyTorch script"), error);
}

}  // namespace trainscope

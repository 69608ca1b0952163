#include "gui/views/folder_dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>

#include "gui/tr.h"

namespace trainscope {

QString rememberedRunsRoot() {
  QString base = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  if (base.isEmpty()) base = QStandardPaths::writableLocation(QStandardPaths::HomeLocation);
  if (base.isEmpty()) base = QDir::homePath();
  const QString fallback = QDir(base).filePath(QStringLiteral("TrainScope/runs"));
  return QSettings().value(QStringLiteral("runsRoot"), fallback).toString();
}

QString chooseRunsRoot(QWidget* parent, const QString& current) {
  const QString dir =
      QFileDialog::getExistingDirectory(parent, Tr::tr("Choose where runs are saved"), current);
  if (!dir.isEmpty()) QSettings().setValue(QStringLiteral("runsRoot"), dir);
  return dir;
}

QString askPastRunFolder(QWidget* parent, const QString& start) {
  return QFileDialog::getExistingDirectory(parent, Tr::tr("Show a past run: choose its folder"),
                                           start);
}

void tellPastRunRefused(QWidget* parent, const QString& error) {
  QMessageBox::warning(parent, Tr::tr("Show a past run"),
                       Tr::tr("This folder cannot be shown as a run:\n%1").arg(error));
}

}  // namespace trainscope

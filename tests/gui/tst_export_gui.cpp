// File > Export model... (issue 50): enabled with a run folder shown, the dialog writes what
// `trainscope-cli export` writes and says why when it refuses (nothing written).
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/config/train_config.h"
#include "core/train/trainer.h"
#include "gui/app/translations.h"
#include "gui/main_window.h"
#include "gui/panels/export_model_dialog.h"
#include "test_main.h"

namespace tst_export_gui_suite {

using namespace trainscope;

class TstExportGui : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void dialogExportsTheShownRun();
};

void TstExportGui::dialogExportsTheShownRun() {
  QTemporaryDir tmp;
  const QString run = tmp.filePath("moons");
  {
    TrainConfig c = presetConfig("moons");
    c.training.epochs = 2;
    TrainerOptions o;
    o.run_dir = run.toStdString();
    Trainer(c, o).run();
  }
  MainWindow main;
  main.setConfirmClose(false);
  auto* action = main.findChild<QAction*>(QStringLiteral("actionExportModel"));
  QVERIFY(action);
  QVERIFY(!action->isEnabled());  // no run folder yet
  QString error;
  QVERIFY2(main.openRun(run, &error), qPrintable(error));
  QVERIFY(action->isEnabled());

  ExportModelDialog dialog(run);
  auto* format = dialog.findChild<QComboBox*>(QStringLiteral("exportFormat"));
  auto* checkpoint = dialog.findChild<QComboBox*>(QStringLiteral("exportCheckpoint"));
  auto* file = dialog.findChild<QLineEdit*>(QStringLiteral("exportFile"));
  auto* softmax = dialog.findChild<QCheckBox*>(QStringLiteral("exportSoftmax"));
  QVERIFY(format && checkpoint && file && softmax);
  QCOMPARE(checkpoint->count(), 2);  // best and last
  QVERIFY(file->text().endsWith("moons-best.onnx"));
  format->setCurrentIndex(1);  // TorchScript: the suggested name follows
  QVERIFY(file->text().endsWith("moons-best.pt"));
  // Inside the run folder: refused, said in the dialog, nothing written.
  file->setText(run + "/m.pt");
  QVERIFY(!dialog.exportNow());
  QVERIFY2(dialog.resultText().contains("inside the run folder"), qPrintable(dialog.resultText()));
  QVERIFY(!QFile::exists(run + "/m.pt"));
  // Elsewhere: the file and its card.
  format->setCurrentIndex(0);
  softmax->setChecked(true);
  file->setText(tmp.filePath("m.onnx"));
  QVERIFY2(dialog.exportNow(), qPrintable(dialog.resultText()));
  QVERIFY(QFile::exists(tmp.filePath("m.onnx")) && QFile::exists(tmp.filePath("m.model-card.md")));
  std::ifstream in(tmp.filePath("m.model-card.json").toStdString());
  const nlohmann::json card = nlohmann::json::parse(in);
  QCOMPARE(card["format"].get<std::string>(), std::string("onnx"));
  QCOMPARE(card["checkpoint"]["which"].get<std::string>(), std::string("best"));
  QVERIFY(card["output"].get<std::string>().rfind("probabilities", 0) == 0);
  QVERIFY(dialog.resultText().contains("m.model-card.md"));
  // To look at: TRAINSCOPE_EXPORT_SHOTS=DIR saves the dialog in English and Chinese.
  if (const QString shots = qEnvironmentVariable("TRAINSCOPE_EXPORT_SHOTS"); !shots.isEmpty()) {
    dialog.show();
    QVERIFY(dialog.grab().save(shots + "/export-en.png"));
    installTranslations(*QCoreApplication::instance(), QLocale(QStringLiteral("zh_CN")));
    ExportModelDialog zh(run);
    zh.show();
    zh.findChild<QLineEdit*>(QStringLiteral("exportFile"))->setText(tmp.filePath("zh.onnx"));
    QVERIFY(zh.exportNow());
    QVERIFY(zh.grab().save(shots + "/export-zh.png"));
    installTranslations(*QCoreApplication::instance(), QLocale(QStringLiteral("en")));
  }
}

TRAINSCOPE_TEST_MAIN(TstExportGui)
}  // namespace tst_export_gui_suite
#include "tst_export_gui.moc"

// The Data section and the Evaluation tab: a CSV chosen in the dialog fills the
// target combo from its header, the check shows the import report (classes, counts), a bad
// table shows the error naming file and line and is never applied; a run on the chosen data
// trains a model with one output per class and the Evaluation tab shows its confusion matrix.
#include <QComboBox>
#include <algorithm>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/checkpoint_panel.h"
#include "gui/panels/settings_panel.h"
#include "gui/views/evaluation_dialog.h"
#include "gui/views/all_settings_dialog.h"
#include "gui/views/data_dialog.h"
#include "gui/views/evaluation_view.h"
#include "gui/views/shapes_dialog.h"
#include "core/config/config_json.h"
#include "core/config/config_file.h"
#include "core/config/kinds.h"
#include "core/run/run_reader.h"
#include <QTableWidget>
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_data_dialog_suite {

using namespace trainscope;

class TstDataDialog : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void csvHeaderFillsTargetAndReportShowsClasses();
  void everySourceHasATitleInBothLanguages();
  void badTableIsShownAndNotApplied();
  void evaluationViewShowsTheConfusionMatrix();
  void shapesDialogShowsEveryLayerOrTheMismatch();
  void allSettingsReachEveryKey();
  void screenshotsForTheReadme();
  void imageResizeModeRoundTrips();

 private:
  QString writeCsv(const QString& name, const QByteArray& text);
  QTemporaryDir dir_;
};

void TstDataDialog::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(dir_.isValid());
}

void TstDataDialog::imageResizeModeRoundTrips() {
  // data.image_folder.resize: shown for image folders, applied as chosen
  DataConfig d;
  d.source = "image-folder";
  d.image_folder.path = dir_.path().toStdString();
  d.image_folder.size = {5, 5};
  d.image_folder.resize = "area";
  DataDialog dialog(d);
  auto* resize = dialog.findChild<QComboBox*>(QStringLiteral("imageResizeComboBox"));
  QVERIFY(resize);
  QCOMPARE(resize->currentData().toString(), QStringLiteral("area"));
  QCOMPARE(dialog.dataConfig().image_folder.resize, std::string("area"));
  resize->setCurrentIndex(resize->findData(QStringLiteral("bicubic")));
  QCOMPARE(dialog.dataConfig().image_folder.resize, std::string("bicubic"));
  QCOMPARE(resize->itemText(0), QStringLiteral("bilinear"));
}

void TstDataDialog::everySourceHasATitleInBothLanguages() {
  // Issue 43: the Data dialog showed the raw key "sine-sequence". Every source of the table
  // (core/kinds/builtin_kinds.cpp) has a title of its own, translated.
  for (const char* lang : {"en", "zh_CN"}) {
    installTranslations(*QCoreApplication::instance(), QLocale(QString::fromLatin1(lang)));
    for (const DataSourceKind& k : dataSources()) {
      const QString title = DataDialog::sourceTitle(k.name);
      QVERIFY2(title != QString::fromStdString(k.name), k.name.c_str());
      const bool chinese = std::any_of(title.begin(), title.end(), [](QChar ch) {
        return ch.unicode() >= 0x4E00 && ch.unicode() <= 0x9FFF;
      });
      QVERIFY2(chinese == (QLatin1String(lang) == QLatin1String("zh_CN")), qPrintable(title));
    }
  }
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
}

QString TstDataDialog::writeCsv(const QString& name, const QByteArray& text) {
  QFile f(dir_.filePath(name));
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(text);
  return f.fileName();
}

/// 3 classes with string labels, the label in the middle column: 30 rows of each.
QByteArray flowers() {
  QByteArray t = "petal,species,sepal\n";
  const char* names[] = {"setosa", "versicolor", "virginica"};
  for (int i = 0; i < 90; ++i)
    t += QByteArray::number(i % 3 + 0.01 * i) + "," + names[i % 3] + "," +
         QByteArray::number(1.5 * (i % 3) - 0.02 * i) + "\n";
  return t;
}

void TstDataDialog::csvHeaderFillsTargetAndReportShowsClasses() {
  const QString file = writeCsv(QStringLiteral("flowers.csv"), flowers());
  DataConfig start;
  start.source = "csv";
  start.csv.path = file.toStdString();
  DataDialog dialog(start);
  auto* target = dialog.findChild<QComboBox*>(QStringLiteral("targetColumnComboBox"));
  QVERIFY(target);
  QTRY_COMPARE(target->count(), 4);  // the last column, petal, species, sepal
  target->setCurrentIndex(target->findData(QStringLiteral("species")));
  QSignalSpy done(&dialog, &DataDialog::checkFinished);
  dialog.checkData();
  QTRY_COMPARE(done.count(), 1);
  QCOMPARE(done.at(0).at(0).toBool(), true);
  const QString report = dialog.reportText();
  QVERIFY2(report.contains(QStringLiteral("classification into 3 classes")), qPrintable(report));
  for (const char* name : {"setosa", "versicolor", "virginica"})
    QVERIFY2(report.contains(QLatin1String(name)), qPrintable(report));
  QVERIFY2(report.contains(QStringLiteral("72 training, 18 validation")), qPrintable(report));
  QVERIFY(dialog.checkedOk());
  const DataConfig chosen = dialog.dataConfig();
  QCOMPARE(chosen.source, std::string("csv"));
  QCOMPARE(chosen.csv.target.name.value_or(""), std::string("species"));
  // Another target makes the check stale: OK would check again.
  target->setCurrentIndex(target->findData(QStringLiteral("sepal")));
  QMetaObject::invokeMethod(target, "activated", Q_ARG(int, target->currentIndex()));
  QVERIFY(!dialog.checkedOk());
}

void TstDataDialog::badTableIsShownAndNotApplied() {
  const QString file = writeCsv(QStringLiteral("ragged.csv"), "a,b,y\n1,2,x\n3,4\n5,6,z\n");
  DataConfig start;
  start.source = "csv";
  start.csv.path = file.toStdString();
  DataDialog dialog(start);
  QSignalSpy done(&dialog, &DataDialog::checkFinished);
  dialog.accept();  // OK checks first, and stays open when the check fails
  QTRY_COMPARE(done.count(), 1);
  QCOMPARE(done.at(0).at(0).toBool(), false);
  QVERIFY(dialog.result() != QDialog::Accepted);
  const QString report = dialog.reportText();
  QVERIFY2(report.contains(QStringLiteral("ragged.csv")) && report.contains(QStringLiteral("line 3")),
           qPrintable(report));
  QVERIFY(!dialog.checkedOk());
}

void TstDataDialog::evaluationViewShowsTheConfusionMatrix() {
  // The species last: the dialog's default target.
  QByteArray table;
  for (const QByteArray& line : flowers().split('\n')) {
    const QList<QByteArray> cells = line.split(',');
    if (cells.size() == 3) table += cells[0] + "," + cells[2] + "," + cells[1] + "\n";
  }
  const QString file = writeCsv(QStringLiteral("train.csv"), table);
  MainWindow w;
  auto* settings = w.findChild<SettingsPanel*>();
  QVERIFY(settings);
  // The dialog as a user drives it: the button opens it; the check passes; OK applies.
  QTimer::singleShot(0, this, [&] {
    auto* dialog = w.findChild<DataDialog*>();
    QVERIFY(dialog);
    auto* source = dialog->findChild<QComboBox*>(QStringLiteral("dataSourceComboBox"));
    source->setCurrentIndex(source->findData(QStringLiteral("csv")));
    QMetaObject::invokeMethod(source, "activated", Q_ARG(int, source->currentIndex()));
    auto* path = dialog->findChild<QLineEdit*>(QStringLiteral("dataPathLineEdit"));
    path->setText(file);
    QMetaObject::invokeMethod(path, "editingFinished");
    connect(dialog, &DataDialog::checkFinished, dialog, [dialog](bool ok) {
      if (!ok) {
        qWarning("check failed: %s", qPrintable(dialog->reportText()));
        dialog->reject();
      }
    });
    dialog->accept();  // checks, then closes
  });
  QSignalSpy chosen(settings, &SettingsPanel::dataChosen);
  settings->findChild<QPushButton*>(QStringLiteral("dataButton"))->click();
  QCOMPARE(chosen.count(), 1);
  TrainConfig c = settings->config();
  QCOMPARE(c.data.source, std::string("csv"));
  QCOMPARE(c.data.csv.path.value_or(""), file.toStdString());
  // Issue 43 item 10: the split is the data's (the key table's 0.2, not overfit-sine's 0.5) and
  // the run is named after the data and the model, not the preset.
  QCOMPARE(c.data.val_fraction, 0.2);
  QCOMPARE(c.name, std::string("train-mlp"));

  // A short run on it: 3 outputs, class names from the table, the Evaluation tab filled.
  auto* controller = w.findChild<RunSession*>();
  QVERIFY(controller);
  c.training.epochs = 2;
  c.training.num_threads = 1;
  QSignalSpy finished(controller->store(), &RunStore::runFinished);
  QTemporaryDir runs;
  QVERIFY(controller->start(c, runs.path()));
  QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
  auto* view = w.findChild<EvaluationView*>();
  QVERIFY(view);
  QVERIFY(view->detail().has_value());
  QCOMPARE(view->detail()->n_classes, 3);
  QCOMPARE(view->detail()->epoch, 2);
  const int64_t n_val = std::llround(90 * c.data.val_fraction);  // the split's formula
  QVERIFY2(view->caption().contains(QStringLiteral("of %1 samples right").arg(n_val)),
           qPrintable(view->caption()));

  // Evaluate the best checkpoint from the panel: the same validation split, the same accuracy.
  auto* panel = w.findChild<CheckpointPanel*>();
  QVERIFY(panel);
  const QString best = QDir(controller->store()->runDirectory()).filePath(QStringLiteral("checkpoints/best.pt"));
  QVERIFY(QFileInfo::exists(best));
  EvaluationDialog* dialog = panel->evaluate(best);
  QSignalSpy evaluated(dialog, &EvaluationDialog::finished);
  QTRY_VERIFY_WITH_TIMEOUT(evaluated.count() == 1, 30000);
  QVERIFY2(evaluated.at(0).at(0).toBool(), qPrintable(dialog->error()));
  QCOMPARE(dialog->view()->detail()->n_classes, 3);
  int64_t total = 0;
  for (int64_t c : dialog->view()->detail()->confusion) total += c;
  QCOMPARE(total, n_val);
  QVERIFY2(dialog->view()->caption().contains(QStringLiteral("accuracy")),
           qPrintable(dialog->view()->caption()));
  dialog->close();

  // The run opened from its folder: no predictions in its files, the last
  // epoch's metrics as metrics.csv holds them, and the way to the picture.
  const QString run_dir = controller->store()->runDirectory();
  QString error;
  QVERIFY2(controller->openRun(run_dir, &error), qPrintable(error));
  QVERIFY(!view->detail().has_value());
  const auto epochs = readMetricsCsv(std::filesystem::path(run_dir.toStdString()) / "metrics.csv");
  QCOMPARE(epochs.size(), size_t{2});
  const QString text = view->emptyText();
  QVERIFY2(text.contains(QStringLiteral("Epoch 2")) &&
               text.contains(QString::number(*epochs.back().val_accuracy, 'g', 4)) &&
               text.contains(QString::number(epochs.back().val_loss, 'g', 4)) &&
               text.contains(QStringLiteral("Evaluate...")),
           qPrintable(text));
  // Regression: R², MAE and RMSE, from the record
  EvaluationView alone;
  RunInfo reg;
  reg.data.task = "regression";
  alone.setRunInfo(reg);
  EpochRecord e;
  e.epoch = 7;
  e.val_loss = 0.25;
  e.val_r2 = 0.9123;
  e.val_mae = 0.375;
  e.val_rmse = 0.5;
  alone.setEpoch(e);
  QVERIFY2(alone.emptyText().contains(QStringLiteral("Epoch 7: validation loss 0.25, R² 0.9123, "
                                                     "MAE 0.375, RMSE 0.5")),
           qPrintable(alone.emptyText()));
  // Classes named by their number are not labelled twice ("1 1"); others keep their index.
  RunInfo digits;
  digits.data.task = "classification";
  digits.data.class_names = {"0", "1", "cat"};
  alone.setRunInfo(digits);
  ValidationDetail d;
  d.epoch = 1;
  d.n_classes = 3;
  d.confusion = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  alone.setDetail(d);
  QCOMPARE(alone.matrixLabels(), (QStringList{"0", "1", "2 cat"}));
}

// Issue 43 item 10: every key the CLI takes is reachable from the settings: the All settings
// table lists the key table's keys, applies edits as --set does and refuses an invalid value
// naming the key, changing nothing; the settings then run with the edits, marked modified.
void TstDataDialog::allSettingsReachEveryKey() {
  MainWindow w;
  auto* settings = w.findChild<SettingsPanel*>();
  QVERIFY(settings && settings->findChild<QPushButton*>(QStringLiteral("allSettingsButton")));
  QVERIFY(w.loadPreset(QStringLiteral("moons")));
  const TrainConfig before = settings->config();
  AllSettingsDialog dialog(before);
  QStringList expected;
  for (const auto& k : configKeyInfos()) expected << QString::fromStdString(k.key);
  QCOMPARE(dialog.keys(), expected);
  QCOMPARE(dialog.valueText(QStringLiteral("optimizer.lr")), QString::number(before.optimizer.lr));
  QCOMPARE(dialog.valueText(QStringLiteral("data.source")), QStringLiteral("moons"));
  QVERIFY(dialog.setValueText(QStringLiteral("training.batch_size"), QStringLiteral("0")));
  QString error;
  QVERIFY(!dialog.apply(&error));
  QVERIFY2(error.contains(QStringLiteral("training.batch_size")), qPrintable(error));
  QCOMPARE(dialog.config().training.batch_size, before.training.batch_size);
  QVERIFY(dialog.setValueText(QStringLiteral("training.batch_size"), QStringLiteral("16")));
  QVERIFY(dialog.setValueText(QStringLiteral("scheduler.name"), QStringLiteral("StepLR")));
  QVERIFY(dialog.setValueText(QStringLiteral("scheduler.step_size"), QStringLiteral("5")));
  QVERIFY(dialog.setValueText(QStringLiteral("model.cnn.channels"), QStringLiteral("[8, 16]")));
  QVERIFY(dialog.setValueText(QStringLiteral("training.monitor"), QStringLiteral("val_accuracy")));
  QVERIFY(!dialog.setValueText(QStringLiteral("no.such.key"), QStringLiteral("1")));
  QVERIFY2(dialog.apply(&error), qPrintable(error));
  settings->applyAllSettings(dialog.config());
  const TrainConfig after = settings->config();
  QCOMPARE(after.training.batch_size, int64_t{16});
  QCOMPARE(after.scheduler.name, std::string("StepLR"));
  QCOMPARE(after.scheduler.step_size, int64_t{5});
  QCOMPARE(after.model.cnn.channels, (std::vector<int64_t>{8, 16}));
  QCOMPARE(after.training.monitor, std::string("val_accuracy"));
  QCOMPARE(after.optimizer.lr, before.optimizer.lr);  // untouched keys as they were
  auto* preset = settings->findChild<QComboBox*>(QStringLiteral("presetComboBox"));
  QVERIFY2(preset->currentText().contains(QStringLiteral("modified")), qPrintable(preset->currentText()));
}

/// With TRAINSCOPE_SHOTS=DIR: the README's pictures of the Data dialog's report and of the
/// Evaluation tab (flowers-csv, fashion-png), at 1024x768, in English and Chinese; skipped
/// otherwise.
// Shape first in the dashboard: the CNN preset's layers with the batch's shapes,
// computed here by the conv arithmetic (28 -> pool -> 14 -> pool -> 7); a stack too deep for
// 28x28 shows the mismatch naming the image size and the block.
void TstDataDialog::shapesDialogShowsEveryLayerOrTheMismatch() {
  const TrainConfig c = resolveConfig("fashion-mnist-cnn", {}, {"data.limit=300"});
  ShapesDialog ok(c);
  QSignalSpy done(&ok, &ShapesDialog::finished);
  QVERIFY(done.wait(60000));
  QCOMPARE(done.at(0).at(0).toBool(), true);
  QTableWidget* t = ok.table();
  QCOMPARE(t->rowCount(), 11);
  const int64_t b = c.training.batch_size;  // 64, fewer than the 240 training samples
  auto at = [t](int r, int col) { return t->item(r, col)->text(); };
  QCOMPARE(at(1, 1), QString("Conv2d(1->32, 3x3)"));
  QCOMPARE(at(1, 2), QString("[%1, 32, 28, 28]").arg(b));
  QCOMPARE(at(1, 3), QString::number(1 * 32 * 9 + 32));
  QCOMPARE(at(8, 2), QString("[%1, 64, 7, 7]").arg(b));
  QCOMPARE(at(10, 2), QString("[%1, 10]").arg(b));
  QVERIFY(ok.error().isEmpty());
  if (const QByteArray shots = qgetenv("TRAINSCOPE_SHOTS"); !shots.isEmpty())
    QVERIFY(ok.grab().save(QString::fromLocal8Bit(shots) + "/shapes-dialog.png"));

  const TrainConfig deep = resolveConfig("fashion-mnist-cnn", {}, {"data.limit=300", "model.cnn.channels=[8,8,8,8,8]"});
  ShapesDialog bad(deep);
  QSignalSpy failed(&bad, &ShapesDialog::finished);
  QVERIFY(failed.wait(60000));
  QCOMPARE(failed.at(0).at(0).toBool(), false);
  QVERIFY2(bad.error().contains("1x28x28") && bad.error().contains("block 5 of 5"),
           qPrintable(bad.error()));
  QCOMPARE(bad.table()->rowCount(), 0);
}

void TstDataDialog::screenshotsForTheReadme() {
  const QString out = qEnvironmentVariable("TRAINSCOPE_SHOTS");
  if (out.isEmpty()) QSKIP("set TRAINSCOPE_SHOTS=DIR to write the pictures");
  for (const char* lang : {"en", "zh_CN"}) {
    switchLanguage(QLatin1String(lang));
    for (const char* preset : {"flowers-csv", "fashion-png", "housing-csv"}) {
      MainWindow w;
      w.setConfirmClose(false);
      w.setFullSpeed();
      QTemporaryDir runs;
      w.setRunsRoot(runs.path());
      w.resize(1024, 768);
      w.show();
      QVERIFY(w.loadPreset(QLatin1String(preset)));
      auto* settings = w.findChild<SettingsPanel*>();
      if (QLatin1String(preset) != QLatin1String("housing-csv")) {
        // The Data dialog with its report.
        QTimer::singleShot(0, this, [&] {
          auto* dialog = w.findChild<DataDialog*>();
          QSignalSpy done(dialog, &DataDialog::checkFinished);
          dialog->checkData();
          QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 60000);
          dialog->resize(760, 700);
          dialog->grab().save(QStringLiteral("%1/data-%2-%3.png").arg(out, QLatin1String(preset), QLatin1String(lang)));
          dialog->reject();
        });
        settings->findChild<QPushButton*>(QStringLiteral("dataButton"))->click();
      }
      TrainConfig c = settings->config();
      c.training.epochs = QLatin1String(preset) == QLatin1String("fashion-png") ? 3 : 15;
      QSignalSpy finished(w.controller()->store(), &RunStore::runFinished);
      QVERIFY(w.controller()->start(c, runs.path()));
      QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 120000);
      auto* view = w.findChild<EvaluationView*>();
      auto* tabs = qobject_cast<QTabWidget*>(view->parentWidget()->parentWidget());
      QVERIFY(tabs);
      tabs->setCurrentWidget(view);
      QTest::qWait(200);
      w.grabWindowImage().save(
          QStringLiteral("%1/evaluation-%2-%3.png").arg(out, QLatin1String(preset), QLatin1String(lang)));
    }
  }
  switchLanguage(QStringLiteral("en"));
}

TRAINSCOPE_GUI_TEST_MAIN(TstDataDialog)
}  // namespace tst_data_dialog_suite
#include "tst_data_dialog.moc"

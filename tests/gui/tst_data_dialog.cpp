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
#include "gui/engine/training_worker.h"
#include "gui/panels/system_panel.h"
#include "gui/plots/plot_area.h"
#include "gui/views/class_curves.h"
#include "gui/views/confusion_matrix.h"
#include "gui/views/evaluation_view.h"
#include "gui/views/sample_thumbnails.h"
#include "gui/plots/palette.h"
#include <QCheckBox>
#include <QSlider>
#include <QToolButton>
#include "gui/views/shapes_dialog.h"
#include "core/config/config_json.h"
#include "core/config/config_file.h"
#include "core/config/kinds.h"
#include "core/run/run_reader.h"
#include <QTableWidget>
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_data_dialog_suite {

/// Brings an evaluation view's page to the front (hidden pages draw when shown).
void showPage(trainscope::EvaluationView* view, QWidget* page) {
  view->findChild<QTabWidget*>(QStringLiteral("evaluationTabs"))->setCurrentWidget(page);
  QCoreApplication::processEvents();
}

using namespace trainscope;

class TstDataDialog : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void csvHeaderFillsTargetAndReportShowsClasses();
  void everySourceHasATitleInBothLanguages();
  void badTableIsShownAndNotApplied();
  void evaluationViewShowsTheConfusionMatrix();
  void evaluationThresholdSliderAndCurves();
  void systemPanelShowsTheMachine();
  void queueKeepsTheNewestDetail();
  void shapesDialogShowsEveryLayerOrTheMismatch();
  void allSettingsReachEveryKey();
  void screenshotsForTheReadme();
  void gradCamWindowScreenshot();
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

  // Issue 49 §1: the per-class table's numbers follow from the confusion matrix (precision =
  // diagonal / column sum, recall = diagonal / row sum, support = row sum), computed here.
  {
    const ValidationDetail& d = *view->detail();
    QCOMPARE(static_cast<int64_t>(d.classes.size()), int64_t{3});
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* tabs = qobject_cast<QTabWidget*>(view->parentWidget()->parentWidget());
    QVERIFY(tabs);
    tabs->setCurrentWidget(view);
    showPage(view, view->classTable());
    QTableWidget* table = view->classTable()->table();
    QCOMPARE(table->rowCount(), 3);
    for (int t = 0; t < 3; ++t) {
      int64_t row = 0, col = 0;
      for (int q = 0; q < 3; ++q) {
        row += d.confusion[static_cast<std::size_t>(t * 3 + q)];
        col += d.confusion[static_cast<std::size_t>(q * 3 + t)];
      }
      const double diag = static_cast<double>(d.confusion[static_cast<std::size_t>(t * 4)]);
      const double precision = col > 0 ? diag / static_cast<double>(col) : 0;
      const double recall = row > 0 ? diag / static_cast<double>(row) : 0;
      const double f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0;
      QCOMPARE(table->item(t, 1)->text(), QString::number(row));
      QCOMPARE(table->item(t, 3)->text(), QString::number(precision, 'f', 3));
      QCOMPARE(table->item(t, 4)->text(), QString::number(recall, 'f', 3));
      QCOMPARE(table->item(t, 5)->text(), QString::number(f1, 'f', 3));
    }
    showPage(view, view->prCurves());
    QCOMPARE(view->prCurves()->curveCount(), 3);
    showPage(view, view->rocCurves());
    QCOMPARE(view->rocCurves()->curveCount(), 3);
    // A click on a cell shows that cell's samples: the first in split order, all of that cell.
    int t = -1, p = -1;
    for (int a = 0; a < 3 && t < 0; ++a)
      for (int b = 0; b < 3 && t < 0; ++b)
        if (a != b && d.confusion[static_cast<std::size_t>(a * 3 + b)] > 0) t = a, p = b;
    if (t < 0) t = p = 0;  // no mistake: the first diagonal cell
    QTest::qWait(50);
    const QRect cell = view->matrix()->cellRect(t, p);
    QVERIFY(!cell.isEmpty());
    QTest::mouseClick(view->matrix(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(view->matrix()->selected(), std::make_pair(t, p));
    const auto& samples = d.cells[static_cast<std::size_t>(t * 3 + p)];
    const int64_t count = d.confusion[static_cast<std::size_t>(t * 3 + p)];
    QCOMPARE(static_cast<int64_t>(samples.size()), std::min<int64_t>(count, ValidationDetail::kCellSamples));
    for (std::size_t i = 0; i < samples.size(); ++i) {
      QCOMPARE(samples[i].target, int64_t{t});
      QCOMPARE(samples[i].predicted, int64_t{p});
      QVERIFY(!d.worst.empty());
      QCOMPARE(samples[i].raw.size(), d.worst.front().raw.size());  // the table's features
      if (i > 0) QVERIFY(samples[i].position > samples[i - 1].position);
    }
    QVERIFY2(view->samplesCaption().contains(QStringLiteral("of %1 sample").arg(count)),
             qPrintable(view->samplesCaption()));
    auto* rows = view->findChild<QTableWidget*>(QStringLiteral("worstRows"));
    QCOMPARE(rows->rowCount(), static_cast<int>(samples.size()));
    view->findChild<QPushButton*>(QStringLiteral("showWorstButton"))->click();
    QCOMPARE(view->matrix()->selected(), std::make_pair(-1, -1));
    QCOMPARE(rows->rowCount(), static_cast<int>(d.worst.size()));
    // The same epoch in a window of its own: a copy, with its own pages.
    auto* button = view->findChild<QToolButton*>(QStringLiteral("evaluationWindowButton"));
    QVERIFY(button && button->isVisible());
    QWidget* window = view->openWindow();
    QVERIFY(window);
    auto* copy = window->findChild<EvaluationView*>();
    QVERIFY(copy && copy->detail().has_value());
    QCOMPARE(copy->detail()->epoch, d.epoch);
    QCOMPARE(copy->detail()->confusion, d.confusion);
    showPage(copy, copy->classTable());
    QCOMPARE(copy->classTable()->table()->rowCount(), 3);
    window->close();
  }

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
  // ... with its per-class table and curves from the checkpoint's scores
  showPage(dialog->view(), dialog->view()->classTable());
  QCOMPARE(dialog->view()->classTable()->table()->rowCount(), 3);
  showPage(dialog->view(), dialog->view()->prCurves());
  QCOMPARE(dialog->view()->prCurves()->curveCount(), 3);
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
/// Issue 49 §1, two classes: the matrix at the slider's threshold on class 1's probability,
/// checked against counts made by hand; the curves of class 1 alone.
void TstDataDialog::evaluationThresholdSliderAndCurves() {
  EvaluationView view;
  RunInfo info;
  info.data.task = "classification";
  info.data.class_names = {"neg", "pos"};
  view.setRunInfo(info);
  // p(class 1) 0.1 (neg), 0.4 (pos), 0.6 (neg), 0.9 (pos); argmax: [[1, 1], [1, 1]]
  const std::vector<double> p1{0.1, 0.4, 0.6, 0.9};
  const std::vector<int64_t> label{0, 1, 0, 1};
  std::vector<double> scores;
  std::vector<int64_t> predicted;
  for (double p : p1) {
    scores.push_back(1 - p);
    scores.push_back(p);
    predicted.push_back(p >= 0.5 ? 1 : 0);
  }
  ValidationDetail d;
  d.epoch = 3;
  d.n_classes = 2;
  d.confusion = {1, 1, 1, 1};
  d.cells.resize(4);
  d.classes = classReports(scores, label, predicted, 2, true);
  ThresholdCounts counts = thresholdCounts(scores, label, 2, ValidationDetail::kThresholds);
  d.tp_at = counts.tp;
  d.fp_at = counts.fp;
  view.setDetail(d);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  QSlider* slider = view.thresholdSlider();
  QVERIFY(slider->isVisible());
  QCOMPARE(slider->value(), 100);  // 0.5: the model's own decision
  auto matrix = [&] {
    std::vector<int64_t> m;
    for (int t = 0; t < 2; ++t)
      for (int q = 0; q < 2; ++q) m.push_back(view.matrix()->count(t, q));
    return m;
  };
  QCOMPARE(matrix(), (std::vector<int64_t>{1, 1, 1, 1}));
  slider->setValue(110);  // 0.55: 0.6 (neg) and 0.9 (pos) predicted pos
  QCOMPARE(matrix(), (std::vector<int64_t>{1, 1, 1, 1}));
  slider->setValue(140);  // 0.70: only 0.9
  QCOMPARE(matrix(), (std::vector<int64_t>{2, 0, 1, 1}));
  slider->setValue(0);  // 0: everything pos
  QCOMPARE(matrix(), (std::vector<int64_t>{0, 2, 0, 2}));
  slider->setValue(200);  // 1.0: nothing reaches it
  QCOMPARE(matrix(), (std::vector<int64_t>{2, 0, 2, 0}));
  slider->setValue(80);  // 0.40: 0.4, 0.6, 0.9: precision 2/3, recall 1
  QVERIFY2(view.findChild<QLabel*>(QStringLiteral("thresholdLabel"))->text().contains(
               QStringLiteral("precision 0.667, recall 1.000")),
           qPrintable(view.findChild<QLabel*>(QStringLiteral("thresholdLabel"))->text()));
  showPage(&view, view.prCurves());
  QCOMPARE(view.prCurves()->curveCount(), 1);  // class 1 against class 0 says it all
  showPage(&view, view.rocCurves());
  QCOMPARE(view.rocCurves()->curveCount(), 1);
  showPage(&view, view.classTable());
  // sklearn: roc_auc_score([0,1,0,1], [.1,.4,.6,.9]) = 0.75, average_precision_score = 0.8333
  QCOMPARE(view.classTable()->table()->item(1, 7)->text(), QStringLiteral("0.750"));
  QCOMPARE(view.classTable()->table()->item(1, 6)->text(), QStringLiteral("0.833"));
  // Grad-CAM over image thumbnails: the switches appear when the worst samples carry maps;
  // ReLU'd, what speaks against the class is not drawn; signed, it is blue.
  {
    EvaluationView images;
    RunInfo ii = info;
    ii.data.image_shape = {1, 2, 2};
    images.setRunInfo(ii);
    ValidationDetail di = d;
    WorstSample w;
    w.raw = {0, 80, 160, 240};
    w.target = 1;
    w.predicted = 0;
    w.cams = {{-1, 0, 1, 2}, {2, 1, 0, -1}};
    di.worst = {w};
    images.setDetail(di);
    images.show();
    QVERIFY(QTest::qWaitForWindowExposed(&images));
    auto* controls = images.findChild<QWidget*>(QStringLiteral("gradCamControls"));
    QVERIFY(controls && controls->isVisible());
    images.findChild<QCheckBox*>(QStringLiteral("gradCamCheck"))->setChecked(true);
    auto* cls = images.findChild<QComboBox*>(QStringLiteral("gradCamClass"));
    QCOMPARE(cls->count(), 3);  // predicted class, neg, pos
    QCOMPARE(WorstImagesWidget::camColor(-1, 2, false).alpha(), 0);
    QCOMPARE(WorstImagesWidget::camColor(2, 2, false).alpha(), 200);
    QCOMPARE(WorstImagesWidget::camColor(2, 2, false).rgb(), palette::kAlarm.rgb());
    QCOMPARE(WorstImagesWidget::camColor(-1, 2, true).alpha(), 100);
    QCOMPARE(WorstImagesWidget::camColor(-1, 2, true).rgb(), palette::tab10(0).rgb());
  }
  // An empty cell says so.
  d.confusion = {2, 0, 1, 1};
  view.setDetail(d);
  QTest::mouseClick(view.matrix(), Qt::LeftButton, {}, view.matrix()->cellRect(0, 1).center());
  QVERIFY2(view.samplesCaption().contains(QStringLiteral("no validation sample")),
           qPrintable(view.samplesCaption()));
}

/// Issue 49 §5: the System tab reads this process (resident memory as /proc/self/statm says,
/// the CPU share), warns when threads x processes exceed the cores, and is a side tab of the
/// main window.
void TstDataDialog::systemPanelShowsTheMachine() {
  QVERIFY(threadsOversubscribe(2, 2, 2));
  QVERIFY(threadsOversubscribe(3, 1, 2));
  QVERIFY(!threadsOversubscribe(1, 2, 2));
  QVERIFY(!threadsOversubscribe(2, 1, 2));
  QVERIFY(!threadsOversubscribe(0, 4, 2));  // no run
  DeviceInfo info;
  info.blas_name = "OpenBLAS";
  SystemPanel panel(info, nullptr);
  panel.resize(360, 400);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  QTest::qWait(1100);
  panel.refresh();
  QVERIFY(panel.lastSample().has_value());
  const ProcessSample s = *panel.lastSample();
  QVERIFY(s.rss_bytes > 10'000'000);
  QVERIFY(std::isfinite(s.cpu_percent) && s.cpu_percent >= 0);
  QVERIFY2(panel.findChild<QLabel*>(QStringLiteral("cpuLabel"))->text().contains(QStringLiteral("core")),
           qPrintable(panel.findChild<QLabel*>(QStringLiteral("cpuLabel"))->text()));
  QVERIFY(panel.findChild<QLabel*>(QStringLiteral("blasKernelLabel"))->text().startsWith(QStringLiteral("OpenBLAS")));
  QVERIFY(panel.warningText().isEmpty());
  const int cores = usableCores();
  panel.setTorchThreads(cores);
  panel.setProcessCountForTest(2);
  panel.refresh();
  QVERIFY2(panel.warningText().contains(QStringLiteral("%1 torch threads x 2 training processes").arg(cores)),
           qPrintable(panel.warningText()));
  panel.setProcessCountForTest(1);
  panel.refresh();
  QVERIFY(panel.warningText().isEmpty());
  MainWindow w;
  QVERIFY(w.findChild<SystemPanel*>());
}

/// The hand-over queue keeps one validation detail, the newest, and everything else in order.
void TstDataDialog::queueKeepsTheNewestDetail() {
  RecordQueue q;
  ValidationDetail a, b;
  a.epoch = 1;
  b.epoch = 2;
  StepRecord s;
  s.step = 7;
  QVERIFY(q.push(a));   // empty before: notify
  QVERIFY(!q.push(s));  // a notification is on its way
  QVERIFY(!q.push(b));
  const std::vector<WorkerItem> items = q.takeAll();
  QCOMPARE(items.size(), std::size_t{2});
  QCOMPARE(std::get<StepRecord>(items[0]).step, int64_t{7});
  QCOMPARE(std::get<ValidationDetail>(items[1]).epoch, int64_t{2});
  QVERIFY(q.push(a));  // taken: empty again
}

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

/// A CNN run's evaluation in its own window with Grad-CAM on (TRAINSCOPE_SHOTS only): the
/// picture a lecturer shows; the overlay changes the thumbnails' pixels.
void TstDataDialog::gradCamWindowScreenshot() {
  const QString out = qEnvironmentVariable("TRAINSCOPE_SHOTS");
  if (out.isEmpty()) QSKIP("set TRAINSCOPE_SHOTS=DIR to write the pictures");
  for (const char* lang : {"en", "zh_CN"}) {
    switchLanguage(QLatin1String(lang));
    MainWindow w;
    w.setConfirmClose(false);
    w.setFullSpeed();
    QTemporaryDir runs;
    w.setRunsRoot(runs.path());
    w.resize(1024, 768);
    w.show();
    TrainConfig c = resolveConfig("fashion-mnist-cnn", {}, {"data.limit=1500"});
    c.training.epochs = 2;
    QSignalSpy finished(w.controller()->store(), &RunStore::runFinished);
    QVERIFY(w.controller()->start(c, runs.path()));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 180000);
    auto* view = w.findChild<EvaluationView*>();
    QWidget* window = view->openWindow();
    QVERIFY(window);
    auto* copy = window->findChild<EvaluationView*>();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    auto* thumbs = copy->findChild<QWidget*>(QStringLiteral("worstImages"));
    const QImage before = thumbs->grab().toImage();
    copy->findChild<QCheckBox*>(QStringLiteral("gradCamCheck"))->setChecked(true);
    QTest::qWait(100);
    QVERIFY(thumbs->grab().toImage() != before);
    window->grab().save(QStringLiteral("%1/gradcam-window-%2.png").arg(out, QLatin1String(lang)));
    copy->findChild<QCheckBox*>(QStringLiteral("gradCamSigned"))->setChecked(true);
    QTest::qWait(100);
    window->grab().save(QStringLiteral("%1/gradcam-window-signed-%2.png").arg(out, QLatin1String(lang)));
    window->close();
  }
  switchLanguage(QStringLiteral("en"));
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
      // Issue 49: each page under the matrix, the embedding and the system panel.
      if (auto* pages = view->findChild<QTabWidget*>(QStringLiteral("evaluationTabs"));
          pages && QLatin1String(preset) != QLatin1String("housing-csv")) {
        for (int i = 1; i < pages->count(); ++i) {
          pages->setCurrentIndex(i);
          QTest::qWait(150);
          w.grabWindowImage().save(QStringLiteral("%1/evaluation-%2-%3-page%4.png")
                                       .arg(out, QLatin1String(preset), QLatin1String(lang))
                                       .arg(i));
        }
        pages->setCurrentIndex(0);
        auto* area = w.findChild<PlotArea*>();
        for (const char* key : {"embedding", "system", "distributions"}) {
          area->showView(area->view(QLatin1String(key)));
          QTest::qWait(1200);
          w.grabWindowImage().save(QStringLiteral("%1/%2-%3-%4.png")
                                       .arg(out, QLatin1String(key), QLatin1String(preset), QLatin1String(lang)));
        }
      }
    }
  }
  switchLanguage(QStringLiteral("en"));
}

TRAINSCOPE_GUI_TEST_MAIN(TstDataDialog)
}  // namespace tst_data_dialog_suite
#include "tst_data_dialog.moc"

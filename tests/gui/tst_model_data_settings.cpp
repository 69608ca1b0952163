// The "Model, data and device" rows: they show the preset's values, the run's config takes
// what is typed there, bad sizes are refused with the previous value kept, and a config file
// whose values the rows cannot show exactly is refused instead of silently changed.
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "core/config/train_config.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/plots/training_plots.h"
#include "gui/app/translations.h"
#include "gui/views/augmentation_preview.h"
#include "gui/widgets/scientific_spin_box.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_model_data_settings_suite {

using trainscope::MainWindow;
using trainscope::ScientificSpinBox;
namespace runs = trainscope::runs;

class TstModelDataSettings : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void showsThePresetAndAppliesEdits();
  void badHiddenSizesAreRefused();
  void imagesUseLimitWithAll();
  void aCnnEditsItsConvChannels();
  void configFileOutsideTheRowsIsRefused();
  void foldsAndRemembers();
  void previousRunStaysAsAGhostNamedByTheChange();
  void augmentationIsShownAndPreviewed();
};

void TstModelDataSettings::showsThePresetAndAppliesEdits() {
  MainWindow w;
  QVERIFY(w.loadPreset(QStringLiteral("overfit-sine")));
  auto* hidden = w.findChild<QLineEdit*>(QStringLiteral("hiddenSizesLineEdit"));
  auto* dropout = w.findChild<ScientificSpinBox*>(QStringLiteral("dropoutSpinBox"));
  auto* decay = w.findChild<ScientificSpinBox*>(QStringLiteral("weightDecaySpinBox"));
  auto* samples = w.findChild<QSpinBox*>(QStringLiteral("samplesSpinBox"));
  auto* val = w.findChild<ScientificSpinBox*>(QStringLiteral("valFractionSpinBox"));
  auto* optimizer = w.findChild<QComboBox*>(QStringLiteral("optimizerComboBox"));
  auto* device = w.findChild<QComboBox*>(QStringLiteral("deviceComboBox"));
  auto* threads = w.findChild<QSpinBox*>(QStringLiteral("threadsSpinBox"));
  auto* accum = w.findChild<QSpinBox*>(QStringLiteral("gradAccumSpinBox"));
  QVERIFY(hidden && dropout && decay && samples && val && optimizer && device && threads && accum);
  // overfit-sine: hidden [256, 256], 40 samples, half for validation, Adam, one thread.
  QCOMPARE(hidden->text(), QStringLiteral("256, 256"));
  QCOMPARE(samples->value(), 40);
  QCOMPARE(val->value(), 0.5);
  QCOMPARE(optimizer->currentData().toString(), QStringLiteral("adam"));
  // The registry's optimizers, shown by their torch.optim class names.
  QCOMPARE(optimizer->count(), 3);
  QCOMPARE(optimizer->itemText(optimizer->findData(QStringLiteral("sgd"))), QStringLiteral("SGD"));
  QCOMPARE(optimizer->itemText(optimizer->findData(QStringLiteral("adamw"))),
           QStringLiteral("AdamW"));
  QCOMPARE(device->currentData().toString(), QStringLiteral("auto"));
  QCOMPARE(device->findText(QStringLiteral("cuda:0")), -1);  // no CUDA in this build
  QCOMPARE(threads->value(), 1);
  QCOMPARE(accum->value(), 1);

  hidden->setText(QStringLiteral("32,16"));
  emit hidden->editingFinished();
  dropout->setValue(0.3);
  decay->setValue(1e-4);
  samples->setValue(400);
  val->setValue(0.25);
  optimizer->setCurrentIndex(optimizer->findData(QStringLiteral("sgd")));
  device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
  threads->setValue(0);
  accum->setValue(4);
  const trainscope::TrainConfig c = w.currentConfig();
  QCOMPARE(c.training.grad_accum_steps, int64_t{4});
  QCOMPARE(c.model.hidden, (std::vector<int64_t>{32, 16}));
  QCOMPARE(c.model.dropout, 0.3);
  QCOMPARE(c.optimizer.weight_decay, 1e-4);
  QCOMPARE(c.data.n_samples, 400);
  QCOMPARE(c.data.val_fraction, 0.25);
  QCOMPARE(c.optimizer.name, std::string("sgd"));
  QCOMPARE(c.training.device, std::string("cpu"));
  QVERIFY(!c.training.num_threads.has_value());  // 0 = auto
  // The preset shows as modified.
  auto* preset = w.findChild<QComboBox*>(QStringLiteral("presetComboBox"));
  QVERIFY2(preset->currentText().contains(QStringLiteral("modified")),
           qPrintable(preset->currentText()));
}

void TstModelDataSettings::badHiddenSizesAreRefused() {
  MainWindow w;
  QVERIFY(w.loadPreset(QStringLiteral("moons")));
  const std::vector<int64_t> before = w.currentConfig().model.hidden;
  auto* hidden = w.findChild<QLineEdit*>(QStringLiteral("hiddenSizesLineEdit"));
  QSignalSpy rejected(w.findChild<QObject*>(QStringLiteral("settingsPanel")),
                      SIGNAL(valueRejected(QString)));
  hidden->setText(QStringLiteral("32, 0"));  // 0 passes the validator, not the range
  emit hidden->editingFinished();
  QCOMPARE(rejected.count(), 1);
  QVERIFY(rejected.at(0).at(0).toString().contains(QStringLiteral("32, 0")));
  QCOMPARE(w.currentConfig().model.hidden, before);
}

void TstModelDataSettings::imagesUseLimitWithAll() {
  MainWindow w;
  QVERIFY(w.loadPreset(QStringLiteral("fashion-mnist-mlp")));
  auto* samples = w.findChild<QSpinBox*>(QStringLiteral("samplesSpinBox"));
  const trainscope::TrainConfig preset = w.currentConfig();
  QCOMPARE(samples->value(), static_cast<int>(preset.data.limit.value_or(0)));
  samples->setValue(0);
  QCOMPARE(samples->text(), QStringLiteral("all"));
  QVERIFY(!w.currentConfig().data.limit.has_value());
  samples->setValue(5000);
  QCOMPARE(w.currentConfig().data.limit.value_or(-1), 5000);
  QCOMPARE(w.currentConfig().data.n_samples, preset.data.n_samples);  // untouched
}

// model.kind cnn reads model.cnn.channels, not model.hidden: the layer-sizes field follows the
// kind (label, values, what it writes), and back for an MLP preset.
void TstModelDataSettings::aCnnEditsItsConvChannels() {
  MainWindow w;
  QVERIFY(w.loadPreset(QStringLiteral("fashion-mnist-cnn")));
  auto* sizes = w.findChild<QLineEdit*>(QStringLiteral("hiddenSizesLineEdit"));
  QVERIFY(sizes);
  QCOMPARE(sizes->text(), QStringLiteral("32, 64"));
  auto* label = qobject_cast<QLabel*>(
      [&]() -> QWidget* {
        for (QLabel* l : w.findChildren<QLabel*>())
          if (l->buddy() == sizes) return l;
        return nullptr;
      }());
  QVERIFY(label);
  QCOMPARE(label->text(), QStringLiteral("Conv channels:"));
  const std::vector<int64_t> hidden = w.currentConfig().model.hidden;
  sizes->setText(QStringLiteral("16, 32, 48"));
  QVERIFY(QMetaObject::invokeMethod(sizes, "editingFinished"));
  QCOMPARE(w.currentConfig().model.cnn.channels, (std::vector<int64_t>{16, 32, 48}));
  QCOMPARE(w.currentConfig().model.hidden, hidden);  // the MLP's key untouched
  QVERIFY(w.loadPreset(QStringLiteral("fashion-mnist-mlp")));
  QCOMPARE(sizes->text(), QStringLiteral("256, 128"));
  QCOMPARE(label->text(), QStringLiteral("Hidden layers:"));
}

void TstModelDataSettings::configFileOutsideTheRowsIsRefused() {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("c.json"));
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(R"({"data": {"val_fraction": 0.995}})");
  f.close();
  MainWindow w;
  const trainscope::TrainConfig before = w.currentConfig();
  QString error;
  QVERIFY(!w.openConfigFile(path, &error));
  QVERIFY2(error.contains(QStringLiteral("data.val_fraction")), qPrintable(error));
  QCOMPARE(w.currentConfig().data.val_fraction, before.data.val_fraction);
  // A config file's accumulation is shown and kept.
  const QString accum_path = dir.filePath(QStringLiteral("a.json"));
  QFile a(accum_path);
  QVERIFY(a.open(QIODevice::WriteOnly));
  a.write(R"({"training": {"batch_size": 32, "grad_accum_steps": 4}})");
  a.close();
  QVERIFY2(w.openConfigFile(accum_path, &error), qPrintable(error));
  QCOMPARE(w.findChild<QSpinBox*>(QStringLiteral("gradAccumSpinBox"))->value(), 4);
  QCOMPARE(w.currentConfig().training.grad_accum_steps, int64_t{4});
}

void TstModelDataSettings::foldsAndRemembers() {
  {
    MainWindow w;
    w.show();
    auto* toggle = w.findChild<QToolButton*>(QStringLiteral("modelDataToggle"));
    auto* dropout = w.findChild<ScientificSpinBox*>(QStringLiteral("dropoutSpinBox"));
    toggle->setChecked(false);
    QVERIFY(!dropout->isVisible());  // folded: the run controls stay in view at 1024x768
    toggle->setChecked(true);
    QVERIFY(dropout->isVisible());
  }
  MainWindow w;
  w.show();
  QVERIFY(w.findChild<ScientificSpinBox*>(QStringLiteral("dropoutSpinBox"))->isVisible());
  w.findChild<QToolButton*>(QStringLiteral("modelDataToggle"))->setChecked(false);
}

void TstModelDataSettings::previousRunStaysAsAGhostNamedByTheChange() {
  namespace series = trainscope::series;
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("small.json"));
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(R"({"name": "ghost-test", "data": {"source": "sine", "n_samples": 100, "seed": 3},
              "model": {"hidden": [8]}, "optimizer": {"name": "sgd", "lr": 0.01},
              "training": {"epochs": 3, "batch_size": 16, "seed": 5, "num_threads": 1}})");
  f.close();
  MainWindow w;
  w.setConfirmClose(false);
  w.setFullSpeed();
  w.setRunsRoot(dir.filePath(QStringLiteral("runs")));
  QString error;
  QVERIFY2(w.openConfigFile(path, &error), qPrintable(error));
  w.show();
  auto* plot = w.findChild<trainscope::LossPlot*>(QStringLiteral("lossPlot"));
  auto* clear = w.findChild<QPushButton*>(QStringLiteral("lossClearGhostButton"));
  QVERIFY(plot && clear);
  auto runToEnd = [&] {
    QSignalSpy finished(w.controller()->store(), &trainscope::RunStore::runFinished);
    QVERIFY(w.startRun());
    QVERIFY(finished.wait(60000));
  };
  runToEnd();
  QCOMPARE(plot->pointCount(runs::kPrevious, series::kEpochValLoss), 0);  // nothing before the first run
  QVERIFY(!clear->isVisible());

  w.findChild<ScientificSpinBox*>(QStringLiteral("dropoutSpinBox"))->setValue(0.3);
  runToEnd();
  QTRY_COMPARE(plot->pointCount(runs::kPrevious, series::kEpochValLoss), 3);
  QCOMPARE(plot->pointCount(runs::kPrevious, series::kEpochTrainLoss), 3);
  QCOMPARE(plot->pointCount(series::kEpochValLoss), 3);
  auto* label = w.findChild<QLabel*>(QStringLiteral("lossGhostLabel"));
  QVERIFY2(label->text().contains(QStringLiteral("dropout 0.0 → 0.3")), qPrintable(label->text()));
  QVERIFY(label->isVisible());
  QVERIFY(clear->isVisible());
  if (const QByteArray shots = qgetenv("TRAINSCOPE_SCREENSHOT_DIR"); !shots.isEmpty()) {
    w.resize(1024, 768);
    w.grabWindowImage().save(
        QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("ghost.png")));
  }

  QTest::mouseClick(clear, Qt::LeftButton);
  QCOMPARE(plot->pointCount(runs::kPrevious, series::kEpochValLoss), 0);
  QVERIFY(!clear->isVisible());
  QCOMPARE(plot->pointCount(series::kEpochValLoss), 3);  // the current run stays

  runToEnd();  // same settings again: the ghost says so
  QTRY_COMPARE(plot->pointCount(runs::kPrevious, series::kEpochValLoss), 3);
  QVERIFY(label->text().contains(QStringLiteral("same settings")));
  QVERIFY(w.close());
}

void TstModelDataSettings::augmentationIsShownAndPreviewed() {
  // A config with augmentation: the rows name the transforms (training only), and Preview
  // shows the training image and 16 variants drawn as the batches draw them.
  QTemporaryDir dir;
  const QString file = dir.filePath(QStringLiteral("aug.json"));
  QFile f(file);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(R"({"name": "aug", "data": {"source": "fashion-mnist", "limit": 200,
              "augment": {"crop_padding": 3, "hflip": 0.5}},
              "model": {"hidden": [16]}, "training": {"epochs": 1, "seed": 4}})");
  f.close();
  MainWindow w;
  QString error;
  QVERIFY2(w.openConfigFile(file, &error), qPrintable(error));
  auto* summary = w.findChild<QLabel*>(QStringLiteral("augmentSummaryLabel"));
  auto* button = w.findChild<QPushButton*>(QStringLiteral("augmentPreviewButton"));
  QVERIFY(summary && button);
  QCOMPARE(summary->text(), QStringLiteral("training only: RandomCrop,\nRandomHorizontalFlip"));
  QVERIFY(summary->toolTip().contains(QStringLiteral("T.RandomCrop(padding=3)")));
  QVERIFY(button->isEnabled());
  button->click();
  auto* dialog = w.findChild<trainscope::AugmentationPreviewDialog*>();
  QVERIFY(dialog);
  QSignalSpy loaded(dialog, &trainscope::AugmentationPreviewDialog::loaded);
  QVERIFY(loaded.count() == 1 || loaded.wait(30000));
  QCOMPARE(loaded.first().first().toBool(), true);
  QCOMPARE(dialog->variantCount(), 16);
  auto* transforms = dialog->findChild<QLabel*>(QStringLiteral("augmentPreviewTransforms"));
  QCOMPARE(transforms->text(), QStringLiteral("T.RandomCrop(size=(28, 28), padding=3)\n"
                                              "T.RandomHorizontalFlip(p=0.5)"));
  // The variants differ from one another (16 draws of a shift of up to 3 pixels and a flip)
  auto* grid = dialog->findChild<QWidget*>(QStringLiteral("augmentPreviewGrid"));
  QSet<QByteArray> distinct;
  for (QLabel* cell : grid->findChildren<QLabel*>()) {
    const QImage im = cell->pixmap().toImage();
    distinct.insert(QByteArray(reinterpret_cast<const char*>(im.constBits()), im.sizeInBytes()));
  }
  QVERIFY2(distinct.size() >= 8, qPrintable(QString::number(distinct.size())));
  qInfo("16 variants of a 28x28 image in %.1f ms", dialog->lastSeconds() * 1000);
  const QString before = dialog->statusText();
  QVERIFY2(before.startsWith(QStringLiteral("Training image 1 of 160")), qPrintable(before));
  dialog->findChild<QPushButton*>(QStringLiteral("augmentPreviewRedraw"))->click();
  QVERIFY(dialog->statusText().contains(QStringLiteral("16 variants")));
  dialog->findChild<QPushButton*>(QStringLiteral("augmentPreviewNextImage"))->click();
  QVERIFY(dialog->statusText().startsWith(QStringLiteral("Training image 2 of 160")));
  dialog->close();
  // TRAINSCOPE_AUGMENT_SCREENSHOT=PREFIX: the window at 1024x768 with the rows open and the
  // preview, in both languages (PREFIX-main-en.png, PREFIX-preview-zh_CN.png ...)
  if (!qEnvironmentVariableIsEmpty("TRAINSCOPE_AUGMENT_SCREENSHOT")) {
    const QString prefix = qEnvironmentVariable("TRAINSCOPE_AUGMENT_SCREENSHOT");
    for (const char* lang : {"en", "zh_CN"}) {
      trainscope::switchLanguage(QLatin1String(lang));
      MainWindow shown;
      QVERIFY(shown.openConfigFile(file, &error));
      shown.resize(1024, 768);
      shown.show();
      shown.findChild<QToolButton*>(QStringLiteral("modelDataToggle"))->setChecked(true);
      QTest::qWait(300);
      auto* row = shown.findChild<QLabel*>(QStringLiteral("augmentSummaryLabel"));
      for (QScrollArea* area : shown.findChildren<QScrollArea*>())
        if (area->isAncestorOf(row)) area->ensureWidgetVisible(row);
      QTest::qWait(100);
      shown.grab().save(prefix + "-main-" + lang + ".png");
      shown.findChild<QPushButton*>(QStringLiteral("augmentPreviewButton"))->click();
      auto* d = shown.findChild<trainscope::AugmentationPreviewDialog*>();
      QSignalSpy ready(d, &trainscope::AugmentationPreviewDialog::loaded);
      QVERIFY(ready.count() == 1 || ready.wait(30000));
      QTest::qWait(300);
      d->grab().save(prefix + "-preview-" + lang + ".png");
      d->close();
    }
    trainscope::switchLanguage(QStringLiteral("en"));
  }
}

TRAINSCOPE_GUI_TEST_MAIN(TstModelDataSettings)
}  // namespace tst_model_data_settings_suite
#include "tst_model_data_settings.moc"

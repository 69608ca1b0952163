// The overfitting views as a user meets them: the smoothed loss equals debiased EMA
// and moving-window values computed here by hand; the best-epoch marker sits at the argmin of
// the runs' validation losses; accuracy points equal the epoch records; the model view shows
// each record (decision-region map of grid_w x grid_h cells with its probabilities); a
// learning rate changed mid-run is a config_changed event and the lr of every later step; the
// range-test dialog suggests what core's findLearningRate computes; early stopping and the
// overfitting onset are marked where the events say, and a new validation minimum clears the
// onset; the events panel shows the latest onset only.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "core/train/monitors/model_view.h"
#include "core/train/probes/lr_finder.h"
#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/events_panel.h"
#include "gui/plots/epoch_plots.h"
#include "gui/plots/training_plots.h"
#include "gui/event_text.h"
#include "gui/views/distributions_view.h"
#include "gui/views/lr_find_dialog.h"
#include "gui/views/model_view.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_overfitting_gui_suite {

using namespace trainscope;
using State = RunSession::State;

class TstOverfittingGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void smoothedCurveIsDebiasedEmaOrMovingWindowOfTheRawLoss();
  void moonsRunMarksBestEpochAccuracyAndDecisionRegions();
  void modelViewShowsCurveAndImageRecords();
  void learningRateChangedMidRunIsAnEventAndTheLaterStepsLr();
  void lrFindDialogSuggestsWhatCoreComputes();
  void earlyStopAndOverfittingOnsetAreMarked();
  void newMinimumClearsTheOnset();
  void noBestMarkerWhenNoEpochBeatTheUntrainedModel();
  void distributionsViewShowsTheRunsReadings();

 private:
  std::unique_ptr<MainWindow> makeWindow(const QString& config);
  QString writeFile(const QString& name, const QByteArray& content);
  static void runToEnd(MainWindow& w, std::vector<EpochRecord>* epochs = nullptr,
                       std::vector<Event>* events = nullptr);
  QTemporaryDir dir_;
};

void TstOverfittingGui::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(dir_.isValid());
}

QString TstOverfittingGui::writeFile(const QString& name, const QByteArray& content) {
  const QString path = dir_.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(content);
  return path;
}

std::unique_ptr<MainWindow> TstOverfittingGui::makeWindow(const QString& config) {
  auto w = std::make_unique<MainWindow>();
  w->setConfirmClose(false);
  w->setFullSpeed();
  w->setRunsRoot(dir_.filePath(QStringLiteral("runs")));
  w->resize(1024, 768);
  w->show();
  QString error;
  if (!config.isEmpty() && !w->openConfigFile(config, &error)) qFatal("%s", qPrintable(error));
  return w;
}

void TstOverfittingGui::runToEnd(MainWindow& w, std::vector<EpochRecord>* epochs,
                                 std::vector<Event>* events) {
  RunSession* c = w.controller();
  QSignalSpy finished(c->store(), &RunStore::runFinished);
  auto conn1 =
      QObject::connect(c->store(), &RunStore::epochFinished, &w, [epochs](const EpochRecord& e) {
        if (epochs) epochs->push_back(e);
      });
  auto conn2 =
      QObject::connect(c->store(), &RunStore::eventOccurred, &w, [events](const Event& e) {
        if (events) events->push_back(e);
      });
  QVERIFY(w.startRun());
  QVERIFY(finished.wait(120000));
  QTest::qWait(100);  // the window's flush timer draws the last points
  QObject::disconnect(conn1);
  QObject::disconnect(conn2);
}

void TstOverfittingGui::smoothedCurveIsDebiasedEmaOrMovingWindowOfTheRawLoss() {
  // 3000 noisy per-step losses (batch size 1): a falling trend plus large deterministic noise,
  // and one NaN that must not enter the averages.
  RunHistory history;
  std::vector<double> raw;
  for (int i = 1; i <= 3000; ++i) {
    const double noise = std::sin(i * 12.9898) * 43758.5453;
    const double y = 1.0 / (1 + i / 300.0) + 0.8 * (noise - std::floor(noise) - 0.5);
    raw.push_back(y);
    history.append(series::kStepLoss, i, i == 1500 ? NAN : y);
  }
  auto* plot = new LossPlot;
  PlotView view(plot, QStringLiteral("loss"));
  view.resize(800, 400);
  plot->setHistory(&history);
  plot->sync();

  // Default: TensorBoard's debiased EMA with weight 0.95, computed here from its formula over
  // the finite values the raw curve shows.
  QCOMPARE(plot->smoothing(), LossPlot::Smoothing::Ema);
  const double w = 0.95;
  QVector<QCPGraphData> sm = plot->smoothedPoints();
  QCOMPARE(sm.size(), 2999);
  double last = 0;
  int n = 0, k = 0;
  for (int i = 0; i < 3000; ++i) {
    if (i + 1 == 1500) continue;
    last = last * w + (1 - w) * raw[i];
    ++n;
    QCOMPARE(sm[k].key, double(i + 1));
    QVERIFY2(std::abs(sm[k].value - last / (1 - std::pow(w, n))) < 1e-12,
             qPrintable(QString::number(k)));
    ++k;
  }
  // The trend shows: over the last 1000 steps the smoothed curve varies far less than the raw.
  auto spread = [](const std::vector<double>& v) {
    double mean = 0;
    for (double x : v) mean += x;
    mean /= v.size();
    double var = 0;
    for (double x : v) var += (x - mean) * (x - mean);
    return std::sqrt(var / v.size());
  };
  std::vector<double> raw_tail(raw.end() - 1000, raw.end()), sm_tail;
  for (int i = sm.size() - 1000; i < sm.size(); ++i) sm_tail.push_back(sm[i].value);
  QVERIFY(spread(sm_tail) < 0.3 * spread(raw_tail));

  // The toolbar control: moving average over 50 steps, a trailing window over the finite
  // values the raw curve draws (the NaN is a marker, not a point of the curve).
  auto* mode = view.findChild<QComboBox*>(QStringLiteral("lossSmoothingComboBox"));
  auto* strength = view.findChild<QDoubleSpinBox*>(QStringLiteral("lossSmoothingSpinBox"));
  QVERIFY(mode && strength);
  mode->setCurrentIndex(2);
  strength->setValue(50);
  QCOMPARE(plot->smoothing(), LossPlot::Smoothing::Window);
  sm = plot->smoothedPoints();
  QCOMPARE(sm.size(), 2999);
  std::vector<double> finite;
  for (int i = 0; i < 3000; ++i)
    if (i + 1 != 1500) finite.push_back(raw[i]);
  for (int k2 = 0; k2 < static_cast<int>(finite.size()); ++k2) {
    double sum = 0;
    int cnt = 0;
    for (int j = std::max(0, k2 - 49); j <= k2; ++j) sum += finite[j], ++cnt;
    QVERIFY2(std::abs(sm[k2].value - sum / cnt) < 1e-12, qPrintable(QString::number(k2)));
  }
  mode->setCurrentIndex(0);  // off: no smoothed curve, the raw one stays
  QCOMPARE(plot->smoothedPoints().size(), 0);
  QCOMPARE(plot->pointCount(series::kStepLoss), 2999);
}

void TstOverfittingGui::moonsRunMarksBestEpochAccuracyAndDecisionRegions() {
  // overfit-moons, shortened: 40 noisy points, a big MLP, one batch per epoch.
  auto w = makeWindow(writeFile(QStringLiteral("moons.json"), R"({
    "name": "moons-test",
    "data": {"source": "moons", "n_samples": 80, "noise": 0.35, "seed": 7, "val_fraction": 0.5},
    "model": {"hidden": [64, 64], "activation": "relu"},
    "optimizer": {"name": "adam", "lr": 0.01},
    "training": {"epochs": 40, "batch_size": 64, "seed": 42, "num_threads": 1}
  })"));
  std::vector<EpochRecord> epochs;
  runToEnd(*w, &epochs);
  QCOMPARE(epochs.size(), std::size_t{40});

  // Best epoch = argmin of the records' validation losses (the first on ties).
  std::size_t best = 0;
  for (std::size_t i = 1; i < epochs.size(); ++i)
    if (epochs[i].val_loss < epochs[best].val_loss) best = i;
  auto* loss = w->findChild<LossPlot*>(QStringLiteral("lossPlot"));
  QVERIFY(loss);
  QVERIFY(loss->bestEpoch().has_value());
  QCOMPARE(*loss->bestEpoch(), epochs[best].epoch);
  QCOMPARE(loss->bestEpochStep(), double(epochs[best].step));

  // Accuracy points equal the records' accuracies, at the epochs' steps.
  auto* acc = w->findChild<AccuracyPlot*>(QStringLiteral("accuracyPlot"));
  QVERIFY(acc);
  QCPGraph* val = acc->graphFor(series::kEpochValAccuracy);
  QCPGraph* train = acc->graphFor(series::kEpochTrainAccuracy);
  QCOMPARE(val->dataCount(), 40);
  QCOMPARE(train->dataCount(), 40);
  for (int i = 0; i < 40; ++i) {
    QVERIFY(epochs[i].val_accuracy && epochs[i].train_accuracy);
    QCOMPARE(val->data()->at(i)->key, double(epochs[i].step));
    QCOMPARE(val->data()->at(i)->value, *epochs[i].val_accuracy);
    QCOMPARE(train->data()->at(i)->value, *epochs[i].train_accuracy);
  }
  auto* lr = w->findChild<LrPlot*>(QStringLiteral("lrPlot"));
  QVERIFY(lr);
  QCOMPARE(lr->graphFor(series::kStepLr)->dataCount(), 40);
  QCOMPARE(lr->graphFor(series::kStepLr)->data()->at(0)->value, 0.01);

  // The model view shows the controller's newest record: one map cell per grid point.
  auto* view = w->findChild<ModelView*>(QStringLiteral("modelView"));
  QVERIFY(view);
  const auto& rec = w->controller()->store()->lastModelView();
  QVERIFY(rec.has_value());
  QCOMPARE(rec->kind, ModelViewRecord::Kind::Regions);
  QVERIFY(view->record().has_value());
  QCOMPARE(view->record()->epoch, rec->epoch);
  QCPColorMapData* map = view->colorMap()->data();
  QVERIFY(rec->grid_w > 1 && rec->grid_h > 1);
  QCOMPARE(map->keySize(), rec->grid_w);
  QCOMPARE(map->valueSize(), rec->grid_h);
  const int i = rec->grid_w / 3, j = rec->grid_h - 2;
  QCOMPARE(map->cell(i, j), double(rec->probability[j * rec->grid_w + i]));
  double key = 0, value = 0;
  map->cellToCoord(i, j, &key, &value);
  QVERIFY(std::abs(key - (rec->x0_min + i * (rec->x0_max - rec->x0_min) / (rec->grid_w - 1))) <
          1e-9);
  QVERIFY(std::abs(value - (rec->x1_min + j * (rec->x1_max - rec->x1_min) / (rec->grid_h - 1))) <
          1e-9);
}

void TstOverfittingGui::modelViewShowsCurveAndImageRecords() {
  ModelView view;
  view.resize(400, 300);
  view.show();
  ModelViewRecord curve;
  curve.kind = ModelViewRecord::Kind::Curve;
  curve.epoch = 3;
  curve.grid_x = {0, 1, 2};
  curve.prediction = {0.5, -1, 2};
  curve.truth = {0, 0.8, 0.9};
  curve.train_x = {0.1};
  curve.train_y = {0.2};
  view.setRecord(curve);
  QCOMPARE(view.predictionGraph()->dataCount(), 3);
  QCOMPARE(view.predictionGraph()->data()->at(1)->value, -1.0);

  ModelViewRecord img;
  img.kind = ModelViewRecord::Kind::Images;
  img.image_w = img.image_h = 28;
  img.class_names = {"T-shirt/top", "Trouser"};
  for (int k = 0; k < 16; ++k) {
    img.images.emplace_back(28 * 28, static_cast<uint8_t>(k * 10));
    img.actual.push_back(k % 2);
    img.predicted.push_back(k % 5 == 0 ? 1 - k % 2 : k % 2);  // k = 0, 5, 10, 15 wrong
    img.confidence.push_back(0.9);
  }
  view.setRecord(img);
  QCOMPARE(view.imageCount(), 16);
  QCOMPARE(view.wrongCount(), 4);
  QVERIFY(!view.grab().isNull());  // paints without a crash
  auto* maps = view.findChild<QWidget*>(QStringLiteral("convMaps"));
  auto* pages = view.findChild<QTabWidget*>(QStringLiteral("modelViewImagePages"));
  QVERIFY(maps && pages);
  QVERIFY(!pages->isTabVisible(1));  // an MLP's record: no filters, no "First layer" page
  // A CNN's record: its first layer's 8 filters 3x3 and 8 feature maps 28x28 below the grid.
  img.filter_count = 8;
  img.filter_channels = 1;
  img.filter_h = img.filter_w = 3;
  for (int i = 0; i < 8 * 9; ++i) img.filters.push_back(static_cast<float>(i % 9) - 4.0f);
  img.map_count = 8;
  img.map_h = img.map_w = 28;
  img.feature_maps.assign(8 * 28 * 28, 0.0f);
  img.feature_maps[5] = 3.0f;
  view.setRecord(img);
  QVERIFY(pages->isTabVisible(1));
  QCOMPARE(pages->currentIndex(), 0);  // the predictions first
  pages->setCurrentIndex(1);
  QCoreApplication::processEvents();
  QVERIFY(maps->isVisible());
  QVERIFY(maps->height() > 100);
  const QImage shot = maps->grab().toImage();
  // The 8 maps are 0 (black) but for one pixel: 8 black tiles of at least 24x24 pixels, far
  // more dark pixels than the two title lines have.
  int dark = 0;
  for (int y = 0; y < shot.height(); ++y)
    for (int x = 0; x < shot.width(); ++x) dark += qGray(shot.pixel(x, y)) < 10;
  QVERIFY2(dark > 8 * 24 * 24, qPrintable(QString::number(dark)));
}

void TstOverfittingGui::learningRateChangedMidRunIsAnEventAndTheLaterStepsLr() {
  auto w = makeWindow(writeFile(QStringLiteral("sine.json"), R"({
    "name": "lr-live-test",
    "data": {"source": "sine", "n_samples": 200, "seed": 3},
    "model": {"hidden": [16, 16]},
    "optimizer": {"name": "sgd", "lr": 0.01},
    "training": {"epochs": 4, "batch_size": 8, "seed": 123, "num_threads": 1}
  })"));
  RunSession* c = w->controller();
  auto* box = w->findChild<QDoubleSpinBox*>(QStringLiteral("learningRateSpinBox"));
  QVERIFY(box);
  std::vector<StepRecord> steps;
  std::vector<Event> events;
  connect(c->store(), &RunStore::stepRecorded, w.get(),
          [&steps](const StepRecord& s) { steps.push_back(s); });
  connect(c->store(), &RunStore::eventOccurred, w.get(),
          [&events](const Event& e) { events.push_back(e); });
  QSignalSpy finished(c->store(), &RunStore::runFinished);
  w->stepBatch();  // starts paused after the first step
  QTRY_VERIFY_WITH_TIMEOUT(c->state() == State::Paused && !steps.empty(), 30000);
  QCOMPARE(steps.size(), std::size_t{1});
  QVERIFY(box->isEnabled());  // live while paused
  box->setValue(0.003);
  QTRY_VERIFY_WITH_TIMEOUT(
      std::any_of(events.begin(), events.end(),
                  [](const Event& e) { return e.kind == EventKind::ConfigChanged; }),
      20000);
  w->startRun();              // resumes
  QVERIFY(box->isEnabled());  // live while running
  QVERIFY(finished.wait(60000));
  QTest::qWait(100);
  const auto changed = std::find_if(events.begin(), events.end(), [](const Event& e) {
    return e.kind == EventKind::ConfigChanged;
  });
  QCOMPARE(changed->what, std::string("optimizer.lr"));
  QCOMPARE(*changed->value, 0.003);
  QCOMPARE(steps.size(), std::size_t{80});  // 160 train / 8 = 20 steps x 4 epochs
  for (const StepRecord& s : steps) QCOMPARE(s.lr, s.step <= changed->step ? 0.01 : 0.003);
  QCOMPARE(changed->step, qint64{1});  // applied from the step after the pause
  // Marked on the loss plot at its step.
  auto* loss = w->findChild<LossPlot*>(QStringLiteral("lossPlot"));
  const auto& markers = loss->markers();
  QVERIFY(std::any_of(markers.begin(), markers.end(), [&](const LossPlot::Marker& m) {
    return m.kind == EventKind::ConfigChanged && m.step == double(changed->step) &&
           m.value == 0.003;
  }));
  // The next run starts from the changed value (it is the settings' value).
  QCOMPARE(w->currentConfig().optimizer.lr, 0.003);
}

void TstOverfittingGui::lrFindDialogSuggestsWhatCoreComputes() {
  auto w = makeWindow(writeFile(QStringLiteral("find.json"), R"({
    "name": "lr-find-test",
    "data": {"source": "sine", "n_samples": 400, "seed": 5},
    "model": {"hidden": [32, 32]},
    "optimizer": {"name": "sgd", "lr": 0.01},
    "training": {"epochs": 2, "batch_size": 16, "seed": 9, "num_threads": 1}
  })"));
  auto* button = w->findChild<QPushButton*>(QStringLiteral("lrFindButton"));
  QVERIFY(button && button->isEnabled());
  button->click();
  auto* dialog = w->findChild<LrFindDialog*>(QStringLiteral("lrFindDialog"));
  QVERIFY(dialog);
  QVERIFY(!button->isEnabled());  // one range test at a time
  QSignalSpy done(dialog, &LrFindDialog::finished);
  QVERIFY(done.count() > 0 || done.wait(60000));
  QVERIFY2(dialog->result().has_value(), qPrintable(dialog->error()));

  const LrFinderResult expected = findLearningRate(w->currentConfig(), LrFinderOptions{});
  QVERIFY(expected.suggested_lr > 0);
  QCOMPARE(dialog->result()->suggested_lr, expected.suggested_lr);
  QCOMPARE(dialog->result()->points.size(), expected.points.size());
  QCOMPARE(dialog->markedLr(), expected.suggested_lr);

  auto* use = dialog->findChild<QPushButton*>(QStringLiteral("lrFindUseButton"));
  QVERIFY(use && use->isEnabled());
  use->click();
  auto* box = w->findChild<QDoubleSpinBox*>(QStringLiteral("learningRateSpinBox"));
  QCOMPARE(box->value(), expected.suggested_lr);
  QCOMPARE(w->currentConfig().optimizer.lr, expected.suggested_lr);
  QTRY_VERIFY(button->isEnabled());  // the dialog closed
}

void TstOverfittingGui::earlyStopAndOverfittingOnsetAreMarked() {
  // overfit-sine with early stopping: 20 noisy points and a large MLP, full batch.
  auto w = makeWindow(writeFile(QStringLiteral("es.json"), R"({
    "name": "early-stop-test",
    "data": {"source": "sine", "n_samples": 40, "noise": 0.4, "seed": 7, "val_fraction": 0.5},
    "model": {"hidden": [128, 128], "activation": "relu"},
    "optimizer": {"name": "adam", "lr": 0.003},
    "training": {"epochs": 800, "batch_size": 32, "seed": 42, "num_threads": 1,
                 "early_stopping": {"enabled": true, "patience": 10}}
  })"));
  std::vector<EpochRecord> epochs;
  std::vector<Event> events;
  runToEnd(*w, &epochs, &events);
  auto stop = std::find_if(events.begin(), events.end(),
                           [](const Event& e) { return e.kind == EventKind::EarlyStop; });
  QVERIFY2(stop != events.end(), "early stopping did not fire");
  QVERIFY(epochs.size() < 800);
  auto* loss = w->findChild<LossPlot*>(QStringLiteral("lossPlot"));
  const auto& markers = loss->markers();
  QVERIFY(std::any_of(markers.begin(), markers.end(), [&](const LossPlot::Marker& m) {
    return m.kind == EventKind::EarlyStop && m.step == double(stop->step);
  }));
  // The preview is the last epoch record's early_stop_at; it fired there.
  QVERIFY(epochs.back().early_stop_at.has_value());
  QCOMPARE(loss->earlyStopPreview(), epochs.back().early_stop_at);
  QCOMPARE(*epochs.back().early_stop_at, epochs.back().epoch);
  // The onset (one step per epoch here) is marked at the onset epoch the event names.
  auto onset = std::find_if(events.begin(), events.end(),
                            [](const Event& e) { return e.kind == EventKind::Overfitting; });
  if (onset != events.end()) {
    QVERIFY(std::any_of(markers.begin(), markers.end(), [&](const LossPlot::Marker& m) {
      return m.kind == EventKind::Overfitting && m.step == *onset->value;
    }));
  }
  // The best-epoch marker is where early stopping measured its best.
  std::size_t best = 0;
  for (std::size_t i = 1; i < epochs.size(); ++i)
    if (epochs[i].val_loss < epochs[best].val_loss) best = i;
  QCOMPARE(*loss->bestEpoch(), epochs[best].epoch);
  QCOMPARE(*stop->value, epochs[best].val_loss);
}

void TstOverfittingGui::noBestMarkerWhenNoEpochBeatTheUntrainedModel() {
  // A diverged run (issue 42's "best: epoch 1 (3.621e+23)"): first step's loss 0.69 (ln 2),
  // validation 3.621e+23, then NaN. No epoch beat the untrained model: no best marker.
  RunHistory h;
  LossPlot plot;
  plot.setHistory(&h);
  h.append(series::kStepLoss, 1.0, 0.69);
  h.append(series::kStepLoss, 2.0, 40.0);
  h.append(series::kEpochValLoss, 10.0, 3.621e23);
  h.append(series::kEpochValLoss, 20.0, std::nan(""));
  plot.sync();
  QVERIFY(!plot.bestEpoch().has_value());
  // A slow but healthy learner whose validation loss is still near the start (0.70 against
  // 0.69, within the 1.5x batch-noise margin) keeps its marker, and so does a run that learned.
  RunHistory slow;
  LossPlot slow_plot;
  slow_plot.setHistory(&slow);
  slow.append(series::kStepLoss, 1.0, 0.69);
  slow.append(series::kEpochValLoss, 10.0, 0.701);
  slow.append(series::kEpochValLoss, 20.0, 0.700);
  slow_plot.sync();
  QCOMPARE(slow_plot.bestEpoch(), std::optional<qint64>(2));
  // A NaN first epoch does not hide a later finite minimum.
  RunHistory late;
  LossPlot late_plot;
  late_plot.setHistory(&late);
  late.append(series::kStepLoss, 1.0, 0.69);
  late.append(series::kEpochValLoss, 10.0, std::nan(""));
  late.append(series::kEpochValLoss, 20.0, 0.3);
  late_plot.sync();
  QCOMPARE(late_plot.bestEpoch(), std::optional<qint64>(2));
}

void TstOverfittingGui::newMinimumClearsTheOnset() {
  // Validation losses 1.0, 0.5 (best, epoch 2), then higher; the onset (epoch 2) is marked.
  // A new minimum at epoch 6 clears it: never "overfitting since 2" beside "best: epoch 6".
  RunHistory h;
  LossPlot plot;
  plot.setHistory(&h);
  const std::vector<double> val = {1.0, 0.5, 0.6, 0.7, 0.8};
  for (std::size_t i = 0; i < val.size(); ++i)
    h.append(series::kEpochValLoss, double(10 * (i + 1)), val[i]);
  plot.sync();
  Event onset{50, 5, EventKind::Overfitting, "overfitting", 2.0, "onset_epoch", ""};
  plot.addEvent(onset, 10);
  auto onsets = [&] {
    return std::count_if(plot.markers().begin(), plot.markers().end(),
                         [](const LossPlot::Marker& m) { return m.kind == EventKind::Overfitting; });
  };
  QCOMPARE(onsets(), 1);
  QCOMPARE(*plot.bestEpoch(), qint64{2});
  h.append(series::kEpochValLoss, 60.0, 0.4);
  plot.sync();
  QCOMPARE(*plot.bestEpoch(), qint64{6});
  QCOMPARE(onsets(), 0);
  // The events panel shows the latest onset only, without a step range or count.
  EventsPanel events;
  events.addEvent(onset);
  Event later{190, 19, EventKind::Overfitting, "overfitting", 9.0, "onset_epoch", ""};
  events.addEvent(later);
  QCOMPARE(events.lineCount(), 1);
  const QString line = events.lineText(0);
  QVERIFY2(line.contains(QStringLiteral("since epoch 9 (seen at epoch 19)")), qPrintable(line));
  QVERIFY2(!line.contains(QStringLiteral("time")), qPrintable(line));
}

/// Issue 49 §4: the Distributions tab keeps every reading the engine sent for the shown run;
/// the bands are the records' percentiles and the caption names the newest reading's
/// quartiles, extremes and (ReLU) dead share, as the record has them. A long run's series is
/// thinned to every other reading past DistributionsView::kMaxReadings.
void TstOverfittingGui::distributionsViewShowsTheRunsReadings() {
  auto w = makeWindow(writeFile(QStringLiteral("dist.json"), R"({
    "name": "dist-test",
    "data": {"source": "moons", "n_samples": 80, "seed": 7, "val_fraction": 0.5},
    "model": {"hidden": [16], "activation": "relu"},
    "training": {"epochs": 20, "batch_size": 64, "seed": 1, "num_threads": 1,
                 "distributions_every": 2}
  })"));
  std::vector<DistributionRecord> records;
  QObject::connect(w->controller()->store(), &RunStore::distributionsRecorded, w.get(),
                   [&records](const DistributionRecord& r) { records.push_back(r); });
  runToEnd(*w);
  QCOMPARE(records.size(), std::size_t{10});  // 20 steps (one batch an epoch), every 2nd
  auto* view = w->findChild<DistributionsView*>(QStringLiteral("distributionsView"));
  QVERIFY(view);
  view->choose(DistributionsView::What::Weights, QStringLiteral("0.weight"));
  QCOMPARE(view->readings(), 10);
  const TensorDistribution& newest = records.back().weights.front();
  QCOMPARE(newest.name, std::string("0.weight"));
  QCOMPARE(view->steps().back(), 20.0);
  QCOMPARE(view->percentiles().back(), newest.percentiles);
  for (const QString& part : {QStringLiteral("Step 20"), EventText::number(newest.percentiles[kP25]),
                              EventText::number(newest.percentiles[kP75]),
                              EventText::number(newest.percentiles[kP0]),
                              EventText::number(newest.percentiles[kP100])})
    QVERIFY2(view->caption().contains(part), qPrintable(view->caption() + " lacks " + part));
  // The outer band's upper edge is the maximum of each reading; the median line the median.
  QCPGraph* outer_high = view->plot()->graph(1);
  QCPGraph* median = view->plot()->graph(8);
  QCOMPARE(outer_high->dataCount(), 10);
  for (int i = 0; i < 10; ++i) {
    QCOMPARE(outer_high->data()->at(i)->key, static_cast<double>(records[static_cast<std::size_t>(i)].step));
    QCOMPARE(outer_high->data()->at(i)->value, records[static_cast<std::size_t>(i)].weights[0].percentiles[kP100]);
    QCOMPARE(median->data()->at(i)->value, records[static_cast<std::size_t>(i)].weights[0].percentiles[kP50]);
  }
  view->choose(DistributionsView::What::Gradients, QStringLiteral("2.bias"));
  QCOMPARE(view->percentiles().back(), records.back().gradients.back().percentiles);
  QVERIFY(view->caption().contains(QStringLiteral("gradients of 2.bias")));
  view->choose(DistributionsView::What::Activations, QStringLiteral("1 ReLU"));
  const TensorDistribution& relu = records.back().activations.front();
  const QString dead = QString::number(100.0 * relu.dead_share, 'f', 0) + QLatin1Char('%');
  QVERIFY2(view->caption().contains(QStringLiteral("on 40 validation samples")), qPrintable(view->caption()));
  QVERIFY2(view->caption().contains(dead + QStringLiteral(" of its units are dead")), qPrintable(view->caption()));
  QCOMPARE(view->deadSummary(), QStringLiteral("1 ReLU: ") + dead);

  // 2,100 readings: the 2,001st thins the series to readings 1, 3, ..., 2001 (1,001 of them),
  // then 99 more are appended; the newest is always kept.
  DistributionsView long_run;
  for (int step = 1; step <= 2100; ++step) {
    DistributionRecord r;
    r.step = step;
    TensorDistribution d;
    d.name = "0.weight";
    d.percentiles.fill(step);
    r.weights.push_back(d);
    long_run.addRecord(r);
  }
  QCOMPARE(long_run.readings(), 1100);
  QCOMPARE(long_run.steps()[1], 3.0);
  QCOMPARE(long_run.steps()[1000], 2001.0);
  QCOMPARE(long_run.steps().back(), 2100.0);
  long_run.clear();
  QCOMPARE(long_run.readings(), 0);
}

TRAINSCOPE_GUI_TEST_MAIN(TstOverfittingGui)
}  // namespace tst_overfitting_gui_suite
#include "tst_overfitting_gui.moc"

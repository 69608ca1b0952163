// Early stopping and the overfitting-onset watch (core/train/monitors), and the training
// accuracy measured during the epoch: scripted validation sequences against epochs worked out
// by hand; a real run that stops early, restores the best epoch's weights bit for bit (compared
// with best.pt) and reports the stop; train_accuracy equal to a direct count.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "core/config/config_json.h"
#include "core/data/dataset.h"
#include "core/io/checkpoint_file.h"
#include "core/model/model.h"
#include "core/train/monitors/early_stopping.h"
#include "core/train/monitors/overfitting.h"
#include "core/train/trainer.h"
#include "core/train/trainer_hooks.h"
#include "test_util.h"

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

struct Collect : TrainerObserver {
  std::vector<EpochRecord> epochs;
  std::vector<Event> events;
  void onEpoch(const EpochRecord& r) override { epochs.push_back(r); }
  void onEvent(const Event& e) override { events.push_back(e); }
  std::vector<Event> of(EventKind k) const {
    std::vector<Event> out;
    for (const auto& e : events)
      if (e.kind == k) out.push_back(e);
    return out;
  }
};

}  // namespace

class TstMonitors : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void earlyStoppingScripted();
  void earlyStoppingStateRoundTrip();
  void overfittingScripted();
  void earlyStopRunRestoresBestWeights();
  void trainAccuracyIsCountedOnTheFly();

 private:
  QTemporaryDir tmp_;
};

void TstMonitors::earlyStoppingScripted() {
  // patience 3, min_delta 0.05 (an improvement must beat the best by more than 0.05):
  // 1: 1.0 best; 2: 0.9 (0.95 < 1) best; 3: 0.87 (0.92 !< 0.9) wait 1; 4: 0.86 wait 2;
  // 5: 0.84 (0.89 < 0.9) best, wait 0; 6: 0.95 wait 1; 7: 0.83 (0.88 !< 0.84) wait 2;
  // 8: 0.82 wait 3 -> fires at epoch 8.
  const std::vector<double> val = {1.0, 0.9, 0.87, 0.86, 0.84, 0.95, 0.83, 0.82, 0.5};
  const std::vector<int64_t> fire_at = {4, 5, 5, 5, 8, 8, 8, 8};  // preview after each epoch
  EarlyStoppingConfig c;
  c.patience = 3;
  c.min_delta = 0.05;
  EarlyStopping es(c);
  int64_t fired = 0;
  for (size_t i = 0; i < val.size() && !fired; ++i) {
    const bool stop = es.update(int64_t(i + 1), val[i]);
    QCOMPARE(es.wouldFireAt(), fire_at[i]);
    if (stop) fired = int64_t(i + 1);
  }
  QCOMPARE(fired, int64_t{8});
  QCOMPARE(es.bestEpoch(), int64_t{5});
  QCOMPARE(*es.best(), 0.84);
  // min_delta 0: every decrease improves; it never fires on this sequence.
  c.min_delta = 0;
  EarlyStopping es0(c);
  for (size_t i = 0; i < val.size(); ++i) QVERIFY(!es0.update(int64_t(i + 1), val[i]));
  QCOMPARE(es0.bestEpoch(), int64_t{9});
  // NaN never improves.
  EarlyStopping esn(c);
  esn.update(1, 1.0);
  esn.update(2, std::nan(""));
  QCOMPARE(esn.wait(), int64_t{1});
}

void TstMonitors::earlyStoppingStateRoundTrip() {
  EarlyStoppingConfig c;
  c.patience = 3;
  EarlyStopping a(c), b(c);
  a.update(1, 1.0);
  a.update(2, 2.0);
  b.loadStateDict(a.stateDict());
  QVERIFY(b.stateDict() == a.stateDict());
  QCOMPARE(a.update(3, 3.0), b.update(3, 3.0));
  QCOMPARE(a.update(4, 3.0), true);
  QCOMPARE(b.update(4, 3.0), true);
}

void TstMonitors::overfittingScripted() {
  // patience 3. Validation bottoms out at epoch 3 (0.7; training 0.8 there); epochs 4, 5, 6 stay
  // above it while training falls: recognised at epoch 6 (3 epochs after), onset epoch 3; not
  // again at 7. Then a new best at 8 re-arms it: 9, 10 above, 11 above but training did not
  // fall below its value at 8 (0.3): not yet; 12 falls -> recognised, onset 8.
  const std::vector<double> train = {1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.35, 0.35, 0.31, 0.2};
  const std::vector<double> val = {1.0, 0.8, 0.7, 0.75, 0.8, 0.78, 0.9, 0.6, 0.7, 0.8, 0.9, 1.0};
  OverfittingDetector d(3);
  std::vector<std::pair<int64_t, int64_t>> found;  // {detected at, onset}
  for (size_t i = 0; i < val.size(); ++i)
    if (auto o = d.update(int64_t(i + 1), train[i], val[i])) {
      found.push_back({o->detected_at, o->onset_epoch});
      if (o->onset_epoch == 3) {
        QCOMPARE(o->best_val_loss, 0.7);
        QCOMPARE(o->train_loss_at_onset, 0.8);
        QCOMPARE(o->train_loss, 0.5);
      }
    }
  QCOMPARE(found.size(), size_t{2});
  QCOMPARE(found[0], std::make_pair(int64_t{6}, int64_t{3}));
  QCOMPARE(found[1], std::make_pair(int64_t{12}, int64_t{8}));
  // Training flat: no onset however long validation rises.
  OverfittingDetector flat(3);
  for (int e = 1; e <= 10; ++e) QVERIFY(!flat.update(e, 1.0, e == 1 ? 0.5 : 0.5 + e));
}

void TstMonitors::earlyStopRunRestoresBestWeights() {
  // overfit-sine overfits after ~180 epochs: with patience 10 early stopping fires 10 epochs
  // after the best validation epoch; restore_best_weights puts that epoch's weights back,
  // which must equal best.pt's (written at that epoch) bit for bit.
  TrainConfig c = resolveConfig("overfit-sine", {}, {});
  c.training.epochs = 600;
  c.training.early_stopping.enabled = true;
  c.training.early_stopping.patience = 10;
  c.training.early_stopping.restore_best_weights = true;
  TrainerOptions o;
  o.run_dir = fs::path(tmp_.path().toStdString()) / "es";
  Trainer t(c, o);
  Collect col;
  t.addObserver(&col);
  std::vector<at::Tensor> final_params;
  TrainerHooks hooks;
  hooks.at_end = [&](const std::vector<at::Tensor>& ps) {
    for (const auto& p : ps) final_params.push_back(p.detach().clone());
  };
  TrainerAccess::setHooks(t, hooks);
  const RunSummary s = t.run();
  COMPARE_REASON(s.stop_reason, StopReason::EarlyStop);
  QVERIFY(s.best_epoch > 1);
  QCOMPARE(s.epochs_completed, s.best_epoch + 10);
  const auto stops = col.of(EventKind::EarlyStop);
  QCOMPARE(stops.size(), size_t{1});
  QCOMPARE(stops[0].epoch, s.epochs_completed);
  QCOMPARE(*stops[0].value, *s.best_val_loss);
  // The preview: the last improvement's epoch + patience, reached at the stop.
  for (const EpochRecord& r : col.epochs) QVERIFY(r.early_stop_at.has_value());
  QCOMPARE(*col.epochs.back().early_stop_at, s.epochs_completed);
  QCOMPARE(*col.epochs[s.best_epoch - 1].early_stop_at, s.best_epoch + 10);
  // Overfitting was recognised too (validation up 10 epochs while training fell).
  QVERIFY(!col.of(EventKind::Overfitting).empty());
  QCOMPARE(*col.of(EventKind::Overfitting).front().value, double(s.best_epoch));
  // Final weights == best.pt's, bitwise.
  const auto best = readCheckpointDict(o.run_dir / "checkpoints" / "best.pt");
  QCOMPARE(best.at("epoch").toInt(), s.best_epoch);
  const auto model = best.at("model_state_dict").toGenericDict();
  QCOMPARE(final_params.size(), size_t{6});
  const char* names[] = {"0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"};
  for (size_t i = 0; i < final_params.size(); ++i)
    QVERIFY2(torch::equal(final_params[i], model.at(names[i]).toTensor()), names[i]);
  // and differ from the weights at the stop (last.pt), so the restore did something.
  const auto last = readCheckpointDict(o.run_dir / "checkpoints" / "last.pt");
  QVERIFY(!torch::equal(final_params[0],
                        last.at("model_state_dict").toGenericDict().at("0.weight").toTensor()));
  const QJsonObject summary =
      testfiles::readJsonObject(testfiles::qpath(o.run_dir / "summary.json"));
  QCOMPARE(summary["stop_reason"].toString(), QString("early_stop"));
}

void TstMonitors::trainAccuracyIsCountedOnTheFly() {
  // SGD with lr 1e-30 leaves float32 weights unchanged, so epoch 1's training accuracy is the
  // accuracy of the final weights on the training split, counted here directly.
  TrainConfig c = resolveConfig("moons", {}, {});
  c.data.n_samples = 300;
  c.model.hidden = {8};
  c.optimizer.name = "sgd";
  c.optimizer.lr = 1e-30;
  c.training.epochs = 1;
  c.training.batch_size = 7;
  TrainerOptions o;
  o.run_dir = fs::path(tmp_.path().toStdString()) / "acc";
  Trainer t(c, o);
  Collect col;
  t.addObserver(&col);
  std::vector<at::Tensor> params;
  TrainerHooks hooks;
  hooks.at_end = [&](const std::vector<at::Tensor>& ps) {
    for (const auto& p : ps) params.push_back(p.detach().clone());
  };
  TrainerAccess::setHooks(t, hooks);
  t.run();
  const PreparedData data = loadData(c.data);
  auto model = buildModel(c.model, 2, 2);
  {
    torch::NoGradGuard g;
    auto ps = model->parameters();
    for (size_t i = 0; i < ps.size(); ++i) ps[i].copy_(params[i]);
  }
  model->train();  // no dropout: the same as eval here
  int64_t correct = 0;
  {
    torch::NoGradGuard g;
    const TensorPair train = data.train.rows(0, data.train.size());
    correct = model->forward(train.x).argmax(1).eq(train.y).sum().item<int64_t>();
  }
  QVERIFY(col.epochs[0].train_accuracy.has_value());
  QCOMPARE(*col.epochs[0].train_accuracy, double(correct) / data.train.size());
  const auto csv = testfiles::readCsv(o.run_dir / "metrics.csv");
  QCOMPARE(csv->header.back(), QString("train_accuracy"));
  QCOMPARE(csv->number(0, "train_accuracy"), *col.epochs[0].train_accuracy);
  // Regression: empty cell.
  TrainConfig r = resolveConfig("overfit-sine", {}, {});
  r.training.epochs = 1;
  o.run_dir = fs::path(tmp_.path().toStdString()) / "reg";
  const RunSummary rs = Trainer(r, o).run();
  QVERIFY2(rs.stop_reason == StopReason::Completed, rs.error.c_str());
  QCOMPARE(testfiles::readCsv(o.run_dir / "metrics.csv")->cell(0, "train_accuracy"), QString());
}

QTEST_GUILESS_MAIN(TstMonitors)
#include "tst_monitors.moc"

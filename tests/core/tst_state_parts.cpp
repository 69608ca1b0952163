// The checkpoint's parts (core/train/state/state_parts.h): every key of a
// checkpoint is written by exactly one part, in ARCHITECTURE §5's order; a problem in any
// part's keys, the last ones included, leaves the whole state as it was; each optimizer row of
// the kinds registry saves, per parameter, as many buffers as its row tells the memory
// estimate, and reads back what it wrote.
#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <functional>

#include "core/config/config_json.h"
#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/checkpoint_file.h"
#include "core/model/model.h"
#include "core/optim/optimizer_factory.h"
#include "core/train/loop/memory_estimate.h"
#include "core/train/loop/epoch_end.h"
#include "core/train/state/state_parts.h"
#include "core/run/epoch_thinning.h"
#include "core/train/state/train_state_io.h"
#include "ivalue_compare.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_state_parts_suite {

using namespace trainscope;
using c10::IValue;
using c10::impl::GenericDict;

namespace {

/// moons with every optional part on: a StepLR schedule, early stopping with best weights,
/// a GradScaler.
TrainConfig fullConfig(const std::string& optimizer) {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.model.hidden = {8};
  c.optimizer.name = optimizer;
  c.optimizer.momentum = optimizer == "sgd" ? 0.9 : 0.0;
  c.scheduler.name = "StepLR";
  c.scheduler.step_size = 2;
  c.training.early_stopping.enabled = true;
  c.training.early_stopping.restore_best_weights = true;
  return c;
}

TrainState makeState(const TrainConfig& c, uint64_t seed) {
  TrainState s;
  torch::manual_seed(seed);
  s.model = buildModel(c.model, 2, 2);
  s.params = s.model->parameters();
  s.optimizer = makeOptimizer(c.optimizer, s.params);
  s.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  s.epoch_start_shuffle_state = s.shuffle_gen.get_state();
  prepareSchedules(s, c);
  s.scaler = std::make_unique<GradScaler>();
  return s;
}

/// `n` optimizer steps on random data, so the optimizer has state and the counters move.
void train(TrainState& s, int n) {
  for (int i = 0; i < n; ++i) {
    s.optimizer->zero_grad();
    const at::Tensor x = torch::randn({16, 2});
    s.model->forward(x).pow(2).mean().backward();
    s.optimizer->step();
    ++s.global_step;
    s.epoch_loss.add(0.5, 16);
  }
  s.best_weights = stateTensors(*s.model);
  for (auto& t : s.best_weights) t = t.clone();
  s.initial_losses = {0.7, 0.69};
  s.epoch_correct = 11;
}

std::vector<std::string> keysOf(const GenericDict& d) {
  std::vector<std::string> keys;
  for (const auto& e : d) keys.push_back(e.key().toStringRef());
  return keys;
}

/// Whether `a` and `b` hold the same values for every key but the RNG state (the global
/// generator is shared with this process) and saved_at.
bool sameState(const GenericDict& a, const GenericDict& b, std::string& why) {
  for (const std::string& key : keysOf(a)) {
    if (key == "rng_state" || key == "saved_at") continue;
    if (!b.contains(key)) {
      why = "missing " + key;
      return false;
    }
    if (!sameValue(a.at(key), b.at(key), key, why)) return false;
  }
  return true;
}

}  // namespace

class TstStateParts : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyKeyHasOnePart();
  void aBadLatePartChangesNothing();
  void optimizerRowsMatchTheirState_data();
  void optimizerRowsMatchTheirState();
  void thinnedHistoryKeepsTheBestEpoch();
};

void TstStateParts::everyKeyHasOnePart() {
  const TrainConfig c = fullConfig("adam");
  TrainState s = makeState(c, 3);
  train(s, 2);
  const CheckpointContext ctx{configToJson(c).dump(), "adam", "/tmp/run"};
  std::vector<std::string> by_parts;
  for (const StatePart& part : stateParts()) {
    GenericDict d = makeStringDict();
    part.save(s, PartSave{ctx, true}, d);
    QVERIFY2(d.size() > 0, part.name);
    for (const std::string& key : keysOf(d)) {
      QVERIFY2(std::find(by_parts.begin(), by_parts.end(), key) == by_parts.end(), key.c_str());
      by_parts.push_back(key);
    }
  }
  // ARCHITECTURE §5's keys, in the order TrainScope has always written them.
  const std::vector<std::string> expected = {"format",
                                             "format_version",
                                             "model_state_dict",
                                             "optimizer_state_dict",
                                             "scaler_state_dict",
                                             "epoch",
                                             "global_step",
                                             "batch_in_epoch",
                                             "best_loss",
                                             "monitor",
                                             "best_epoch",
                                             "train_loss_meter",
                                             "config",
                                             "seed",
                                             "data",
                                             "rng_state",
                                             "source_run_dir",
                                             "history",
                                             "scheduler_state_dict",
                                             "early_stopping_state_dict",
                                             "overfitting_state_dict",
                                             "loss_doctor_state_dict",
                                             "train_accuracy_meter",
                                             "torch_version",
                                             "trainscope_version",
                                             "saved_at"};
  QCOMPARE(by_parts, expected);
  QCOMPARE(keysOf(captureState(s, ctx)), expected);
  // A snapshot leaves the history out, and nothing else.
  std::vector<std::string> snapshot = expected;
  snapshot.erase(std::find(snapshot.begin(), snapshot.end(), "history"));
  QCOMPARE(keysOf(captureState(s, ctx, /*with_history=*/false)), snapshot);
}

void TstStateParts::aBadLatePartChangesNothing() {
  const TrainConfig c = fullConfig("sgd");
  TrainState s = makeState(c, 4);
  train(s, 3);
  const CheckpointContext ctx{configToJson(c).dump(), "sgd", ""};
  const GenericDict saved = captureState(s, ctx);
  train(s, 2);  // the state moves on: restoring `saved` would change it
  s.initial_losses = {1.5};
  s.epoch_correct = 3;
  const std::filesystem::path file = "/tmp/parts.pt";

  struct Case {
    const char* problem;  ///< in the error message
    std::function<void(GenericDict&)> spoil;
  };
  const std::vector<Case> cases = {
      {"'train_accuracy_meter.correct' is invalid",
       [](GenericDict& d) {
         d.at("train_accuracy_meter").toGenericDict().insert_or_assign("correct", int64_t{-1});
       }},
      {"'loss_doctor_state_dict.initial_losses' is missing",
       [](GenericDict& d) { d.insert_or_assign("loss_doctor_state_dict", makeStringDict()); }},
      {"scheduler or monitor state",
       [](GenericDict& d) {
         d.at("scheduler_state_dict")
             .toGenericDict()
             .insert_or_assign("name", std::string("ExponentialLR"));
       }},
      {"'early_stopping_state_dict.best_weights' does not match the model",
       [](GenericDict& d) {
         c10::impl::GenericList w(c10::TensorType::get());
         w.push_back(torch::zeros({3}));
         d.at("early_stopping_state_dict").toGenericDict().insert_or_assign("best_weights", w);
       }},
      {"missing key 'history'", [](GenericDict& d) { d.erase("history"); }},
  };
  for (const Case& k : cases) {
    // A deep copy of the saved dict, spoiled in one place.
    GenericDict spoiled = torch::pickle_load(torch::pickle_save(saved)).toGenericDict();
    k.spoil(spoiled);
    const GenericDict before = captureState(s, ctx);
    try {
      restoreState(s, spoiled, "sgd", file);
      QFAIL(k.problem);
    } catch (const Error& e) {
      QCOMPARE(e.code(), ErrorCode::Checkpoint);
      QVERIFY2(std::string(e.what()).find(k.problem) != std::string::npos, e.what());
    }
    std::string why;
    QVERIFY2(sameState(before, captureState(s, ctx), why), (k.problem + (": " + why)).c_str());
  }
  // The good file does change the state, to what was saved (so the checks above can fail).
  std::string why;
  QVERIFY(!sameState(saved, captureState(s, ctx), why));
  restoreState(s, saved, "sgd", file);
  QVERIFY2(sameState(saved, captureState(s, ctx), why), why.c_str());
}

void TstStateParts::optimizerRowsMatchTheirState_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<double>("momentum");
  for (const OptimizerKind& k : optimizerKinds()) {
    QTest::newRow(k.name.c_str()) << QString::fromStdString(k.name) << 0.9;
    QTest::newRow((k.name + " momentum 0").c_str()) << QString::fromStdString(k.name) << 0.0;
  }
}

void TstStateParts::optimizerRowsMatchTheirState() {
  QFETCH(QString, name);
  QFETCH(double, momentum);
  TrainConfig c = fullConfig(name.toStdString());
  c.optimizer.momentum = momentum;
  TrainState s = makeState(c, 5);
  train(s, 2);
  const CheckpointContext ctx{configToJson(c).dump(), c.optimizer.name, ""};
  const GenericDict d = captureState(s, ctx);
  // Buffers the size of each parameter in the saved state, as torch.optim keeps them.
  const GenericDict state =
      d.at("optimizer_state_dict").toGenericDict().at("state").toGenericDict();
  const int buffers = optimizerKind(c.optimizer.name).state_buffers(momentum);
  if (buffers == 0) QCOMPARE(state.size(), size_t{0});  // SGD without momentum keeps none
  for (const auto& e : state) {
    const at::Tensor& p = s.params[e.key().toInt()];
    int same_size = 0;
    for (const auto& b : e.value().toGenericDict())
      if (b.value().isTensor() && b.value().toTensor().sizes().equals(p.sizes())) ++same_size;
    QCOMPARE(same_size, buffers);
  }
  if (buffers > 0) QCOMPARE(state.size(), s.params.size());
  // The memory estimate counts the same buffers.
  const MemoryEstimate m = estimateMemory({2, 8, 2}, 1, c.optimizer.name, momentum, 0);
  QCOMPARE(m.optimizer_state, buffers * m.parameters);
  // Read back into a fresh state of the same kind: the same dict.
  TrainState fresh = makeState(c, 6);
  restoreState(fresh, d, c.optimizer.name, "/tmp/x.pt");
  std::string why;
  QVERIFY2(sameState(d, captureState(fresh, ctx), why), why.c_str());
}

// Issue 44 item 2: past kEpochCapacity epochs the history is thinned (every 4th epoch at
// 25,001), but the checkpoint still holds best_epoch's record (off the stride here), which reads
// back as TrainState::best_record, the history as it was and the last epoch's record.
void TstStateParts::thinnedHistoryKeepsTheBestEpoch() {
  const TrainConfig c = fullConfig("adam");
  TrainState s = makeState(c, 3);
  train(s, 2);
  const int64_t n = 25001, best = 12347;
  for (int64_t e = 1; e <= n; ++e) {
    EpochRecord r;
    r.epoch = e;
    r.step = 2 * e;
    r.train_loss = 1.0 / static_cast<double>(e);
    r.val_loss = e == best ? 0.001 : 1.0 + 1e-6 * static_cast<double>(e);
    appendThinned(s.history, r, [](const EpochRecord& x) { return x.epoch; });
    if (e == best) s.best_record = r;
  }
  s.epochs_completed = n;
  s.global_step = 2 * n;
  s.best_epoch = best;
  s.best_monitored = 0.001;
  std::vector<int64_t> want;  // every 4th epoch from 1 (6,251 <= 10,000; every 2nd: 12,501)
  for (int64_t e = 1; e <= n; e += 4) {
    if (best < e && (want.empty() || want.back() < best)) want.push_back(best);
    want.push_back(e);
  }
  QCOMPARE(want.size(), size_t{6252});
  CheckpointContext ctx{configToJson(c).dump(), "adam", ""};
  DoctorGrads grads;  // the live doctor's gradient norms go with it
  grads.first = {0.5, 0.25};
  grads.samples = {0.5f, 0.75f, 3.0f};
  grads.stride = 8;
  grads.seen = 20;
  ctx.doctor_grads = &grads;
  const GenericDict d = captureState(s, ctx);
  const at::Tensor epochs = d.at("history").toGenericDict().at("epoch").toTensor();
  QCOMPARE(std::vector<int64_t>(epochs.data_ptr<int64_t>(), epochs.data_ptr<int64_t>() + epochs.numel()),
           want);
  TrainState t = makeState(c, 9);
  restoreState(t, d, "adam", "/tmp/thinned.pt");
  QVERIFY(t.best_record);
  QCOMPARE(t.best_record->epoch, best);
  QCOMPARE(t.best_record->val_loss, 0.001);
  QCOMPARE(t.history.size(), s.history.size());
  for (size_t i = 0; i < s.history.size(); ++i) QCOMPARE(t.history[i].epoch, s.history[i].epoch);
  QVERIFY(t.last_epoch);
  QCOMPARE(t.last_epoch->epoch, n);
  QVERIFY(t.doctor_grads);
  QCOMPARE(t.doctor_grads->first, grads.first);
  QCOMPARE(t.doctor_grads->samples, grads.samples);
  QCOMPARE(t.doctor_grads->stride, int64_t{8});
  QCOMPARE(t.doctor_grads->seen, int64_t{20});
  // A stride that is no power of two is refused, naming the key; the state stays.
  GenericDict bad = d.copy();
  GenericDict doctor = bad.at("loss_doctor_state_dict").toGenericDict().copy();
  doctor.insert_or_assign("grad_stride", 3.0);
  bad.insert_or_assign("loss_doctor_state_dict", doctor);
  try {
    restoreState(t, bad, "adam", "/tmp/thinned.pt");
    QFAIL("a grad_stride of 3 was accepted");
  } catch (const Error& e) {
    QVERIFY2(std::string(e.what()).find("grad_stride") != std::string::npos, e.what());
  }
  QCOMPARE(t.doctor_grads->stride, int64_t{8});
}

TRAINSCOPE_TEST_MAIN(TstStateParts)
}  // namespace tst_state_parts_suite
#include "tst_state_parts.moc"

// Trainer: gradient norms against an independent float64 computation, clipping bound,
// determinism of seeded runs, pause/step/stop commands, non-finite detection, train/eval modes.
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <atomic>
#include <cmath>
#include <mutex>
#include <set>
#include <thread>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/model/model.h"
#include "core/optim/optimizer_factory.h"
#include "core/train/loop/trainer_hooks.h"
#include "core/train/probes/thread_choice.h"
#include "core/train/step/flat_gradients.h"
#include "core/train/step/step.h"
#include "core/train/trainer.h"
#include "recording_observer.h"
#include "test_util.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_trainer_suite {

using namespace trainscope;

namespace {

TrainConfig smallConfig() {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.name = "test";
  c.data.n_samples = 300;
  c.training.epochs = 3;
  c.training.batch_size = 32;
  c.training.seed = 123;
  c.training.num_threads = 1;
  return c;
}

// sqrt(sum over params of ||grad||^2), accumulated in float64 (independent of FlatGradients).
double float64Norm(const std::vector<at::Tensor>& params) {
  double sum = 0;
  for (const auto& p : params) {
    double n = p.grad().to(torch::kDouble).norm().item<double>();
    sum += n * n;
  }
  return std::sqrt(sum);
}

using Recorder = testrun::RecordingObserver;

}  // namespace

class TstTrainer : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void gradNormMatchesFloat64_data();
  void gradNormMatchesFloat64();
  void flatGradientsSurviveBackward();
  void seededRunsAreIdentical();
  void keysThatDoNotApplyChangeNothing();
  void unseededRunRecordsSeed();
  void pauseHoldsAndResumeContinues();
  void stepBatchFromIdle();
  void stepEpochRunsToEpochEnd();
  void nonFiniteStopsOnTheStep();
  void nonFiniteSkipContinues();
  void dropoutOnlyInTrainMode();
  void badDataThrowsBeforeWriting();
  void autoThreadsRerunFromConfigIsIdentical();
  void threadMeasurementLeavesStateUntouched();
};

void TstTrainer::gradNormMatchesFloat64_data() {
  QTest::addColumn<bool>("clip");
  QTest::addColumn<double>("maxNorm");
  QTest::newRow("no clipping") << false << 1.0;
  QTest::newRow("clip at 0.05 (always active)") << true << 0.05;
  QTest::newRow("clip at 1e3 (never active)") << true << 1e3;
}

void TstTrainer::gradNormMatchesFloat64() {
  QFETCH(bool, clip);
  QFETCH(double, maxNorm);
  TrainConfig c = smallConfig();
  c.training.clip.enabled = clip;
  c.training.clip.max_norm = maxNorm;
  Trainer trainer(c);
  Recorder rec;
  trainer.addObserver(&rec);
  std::vector<double> before, after;
  TrainerHooks hooks;
  hooks.after_backward = [&](const std::vector<at::Tensor>& p) {
    before.push_back(float64Norm(p));
  };
  hooks.after_clip = [&](const std::vector<at::Tensor>& p) { after.push_back(float64Norm(p)); };
  TrainerAccess::setHooks(trainer, hooks);
  RunSummary s = trainer.run();
  COMPARE_REASON(s.stop_reason, StopReason::Completed);
  QCOMPARE(rec.steps.size(), before.size());
  QVERIFY(rec.steps.size() > 10);
  int clipped = 0;
  for (size_t i = 0; i < rec.steps.size(); ++i) {
    const StepRecord& r = rec.steps[i];
    QVERIFY2(std::abs(r.grad_norm - before[i]) <= 1e-5 * before[i],
             qPrintable(QString("step %1: recorded %2 vs float64 %3")
                            .arg(r.step)
                            .arg(r.grad_norm)
                            .arg(before[i])));
    QVERIFY(std::abs(r.grad_norm_clipped - after[i]) <= 1e-5 * after[i]);
    if (clip) {
      QVERIFY(after[i] <= maxNorm * (1 + 1e-6));
      QVERIFY(r.grad_norm_clipped <= maxNorm * (1 + 1e-6));
    }
    if (after[i] < before[i] * (1 - 1e-6)) ++clipped;
  }
  if (clip && maxNorm < 0.1) QCOMPARE(clipped, static_cast<int>(rec.steps.size()));
  if (!clip || maxNorm > 100) QCOMPARE(clipped, 0);
}

void TstTrainer::flatGradientsSurviveBackward() {
  torch::manual_seed(0);
  torch::nn::Linear a(4, 3), b(3, 2);
  std::vector<at::Tensor> params = a->parameters();
  for (auto& p : b->parameters()) params.push_back(p);
  FlatGradients grads(params);
  for (int i = 0; i < 2; ++i) {
    grads.zero();
    auto x = torch::randn({5, 4});
    b->forward(torch::relu(a->forward(x))).pow(2).sum().backward();
    QVERIFY(grads.intact());
    // total norm == sqrt(sum of squared per-parameter norms)
    QVERIFY(std::abs(grads.norm() - float64Norm(params)) <= 1e-6 * float64Norm(params));
  }
  // As torch.nn.utils.clip_grad_norm_ on float32 grads (checked with Python torch 1.13:
  // grads of 1e20 give tensor(inf)), a norm whose square overflows float32 is inf.
  grads.zero();
  params.front().grad().fill_(1e20f);
  QVERIFY(std::isinf(grads.norm()));
  // clip coefficient as in clip_grad_norm_: max_norm / (norm + 1e-6), only when < 1
  QCOMPARE(clipCoefficient(10.0, 1.0), 1.0 / (10.0 + 1e-6));
  QCOMPARE(clipCoefficient(0.5, 1.0), 1.0);
}

// configKeyApplies (what the report lists) checked by its effect: a key it
// calls inapplicable changes no loss of a seeded run; one it calls applicable changes them.
void TstTrainer::keysThatDoNotApplyChangeNothing() {
  QTemporaryDir tmp;
  const std::filesystem::path root = tmp.path().toStdString();
  auto losses = [&](const std::vector<std::string>& sets) {
    TrainConfig c = resolveConfig("moons", {}, sets);
    c.data.n_samples = 200;
    c.training.epochs = 1;
    c.training.seed = 5;
    c.training.num_threads = 1;
    Recorder rec;
    TrainerOptions o;
    o.run_dir = root / std::to_string(std::hash<std::string>{}(nlohmann::json(sets).dump()));
    Trainer t(c, o);
    t.addObserver(&rec);
    t.run();
    std::vector<double> out;
    for (const StepRecord& s : rec.steps) out.push_back(s.loss);
    return std::make_pair(out, configToJson(c));
  };
  struct Case {
    std::vector<std::string> base;  ///< the run's settings
    std::string key, value;         ///< changed to
  };
  const std::vector<Case> cases = {
      {{}, "data.seq_len", "7"},                     // moons are not sequences
      {{}, "data.target_scale", "3"},                // moons are classes
      {{}, "model.cnn.channels", "[3]"},             // an MLP
      {{}, "model.rnn.hidden_size", "5"},
      {{}, "optimizer.momentum", "0.9"},             // Adam
      {{"optimizer.name=sgd"}, "optimizer.betas", "[0.5, 0.6]"},
      {{}, "data.noise", "0.3"},                     // these four act
      {{}, "model.hidden", "[7]"},
      {{"optimizer.name=sgd"}, "optimizer.momentum", "0.9"},
      {{}, "optimizer.betas", "[0.5, 0.6]"},
  };
  for (const Case& k : cases) {
    const auto [before, config] = losses(k.base);
    std::vector<std::string> changed = k.base;
    changed.push_back(k.key + "=" + k.value);
    const auto after = losses(changed).first;
    QVERIFY(before.size() > 3);
    const bool applies = configKeyApplies(k.key, config, "classification");
    QVERIFY2(applies == (before != after),
             qPrintable(QString::fromStdString(k.key + (applies ? " said to apply" : " said not to apply"))));
  }
  // Sections and keys of other sources and kinds (no run needed: they are never read).
  nlohmann::json csv = {{"data", {{"source", "csv"}}}, {"model", {{"kind", "cnn"}}}};
  QVERIFY(!configKeyApplies("data.noise", csv) && !configKeyApplies("data.n_samples", csv));
  QVERIFY(!configKeyApplies("data.path", csv) && configKeyApplies("data.limit", csv));
  QVERIFY(configKeyApplies("data.csv.path", csv) && !configKeyApplies("data.npy.path", csv));
  QVERIFY(!configKeyApplies("model.hidden", csv) && configKeyApplies("model.cnn.hidden", csv));
  QVERIFY(configKeyApplies("data.target_scale", csv, "regression"));
  QVERIFY(!configKeyApplies("data.target_scale", csv, "classification"));
  QVERIFY(!configKeyApplies("data.stratify", csv, "regression"));
  QVERIFY(configKeyApplies("training.epochs", csv));
}

void TstTrainer::seededRunsAreIdentical() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  std::filesystem::path root = tmp.path().toStdString();
  TrainConfig c = smallConfig();
  c.model.dropout = 0.2;  // dropout draws from the seeded generator too
  for (const char* name : {"a", "b"}) {
    TrainerOptions o;
    o.run_dir = root / name;
    Trainer t(c, o);
    COMPARE_REASON(t.run().stop_reason, StopReason::Completed);
  }
  for (const char* file : {"metrics.csv", "steps.csv"}) {
    const auto a = testfiles::readCsvValues(root / "a" / file);
    const auto b = testfiles::readCsvValues(root / "b" / file);
    QVERIFY(a && b);
    QCOMPARE(a->header, b->header);
    QCOMPARE(a->rows.size(), b->rows.size());
    QVERIFY(!a->rows.isEmpty());
    const int sec = a->column("epoch_seconds");
    const int sps = a->column("samples_per_second");
    for (int r = 0; r < a->rows.size(); ++r) {
      QCOMPARE(a->rows[r].size(), b->rows[r].size());
      for (int k = 0; k < a->rows[r].size(); ++k) {
        if (k == sec || k == sps) continue;
        QCOMPARE(a->rows[r][k], b->rows[r][k]);
      }
    }
  }
  // A different seed gives different losses.
  c.training.seed = 124;
  TrainerOptions o;
  o.run_dir = root / "c";
  Trainer t(c, o);
  t.run();
  QVERIFY(testfiles::readText(root / "a" / "steps.csv") !=
          testfiles::readText(root / "c" / "steps.csv"));
}

void TstTrainer::unseededRunRecordsSeed() {
  QTemporaryDir tmp;
  std::filesystem::path root = tmp.path().toStdString();
  TrainConfig c = smallConfig();
  c.training.epochs = 1;
  c.training.seed.reset();
  TrainerOptions o;
  o.run_dir = root / "u";
  Trainer t(c, o);
  RunSummary s = t.run();
  auto cfg = nlohmann::json::parse(testfiles::readText(root / "u" / "config.json"));
  QVERIFY(cfg["training"]["seed"].is_number_integer());
  int64_t seed = cfg["training"]["seed"].get<int64_t>();
  QVERIFY(seed >= 0 && seed <= (int64_t{1} << 31) - 1);
  QCOMPARE(seed, s.seed);
  // Repeating from config.json alone reproduces the steps.
  TrainerOptions o2;
  o2.run_dir = root / "r";
  Trainer t2(configFromJson(cfg), o2);
  t2.run();
  const auto a = testfiles::readCsvValues(root / "u" / "steps.csv");
  const auto b = testfiles::readCsvValues(root / "r" / "steps.csv");
  QVERIFY(a && b);
  QCOMPARE(a->header, b->header);
  QCOMPARE(a->rows, b->rows);
}

void TstTrainer::pauseHoldsAndResumeContinues() {
  TrainConfig c = smallConfig();
  c.training.epochs = 100000;  // long enough never to finish by itself
  Trainer trainer(c);
  Recorder rec;
  trainer.addObserver(&rec);
  std::thread worker([&] { trainer.run(); });
  QTRY_VERIFY_WITH_TIMEOUT(rec.step_count > 5, 20000);
  trainer.pause();
  QTRY_VERIFY_WITH_TIMEOUT(rec.paused, 5000);
  QCOMPARE(rec.count(EventKind::Paused), size_t{1});
  int64_t held = rec.step_count;
  QTest::qWait(300);
  QCOMPARE(rec.step_count.load(), held);  // no step while paused
  trainer.stepBatch();
  QTRY_COMPARE_WITH_TIMEOUT(rec.step_count.load(), held + 1, 5000);
  QTest::qWait(200);
  QCOMPARE(rec.step_count.load(), held + 1);  // exactly one
  trainer.resume();
  QTRY_VERIFY_WITH_TIMEOUT(rec.step_count > held + 10, 10000);
  QCOMPARE(rec.count(EventKind::Resumed), size_t{1});
  trainer.stop();
  worker.join();
  COMPARE_REASON(rec.summary.stop_reason, StopReason::Stopped);
  QCOMPARE(rec.count(EventKind::Stopped), size_t{1});
}

void TstTrainer::stepBatchFromIdle() {
  Trainer trainer(smallConfig());
  Recorder rec;
  trainer.addObserver(&rec);
  trainer.stepBatch();  // before run(): start paused after the first step
  std::thread worker([&] { trainer.run(); });
  QTRY_VERIFY_WITH_TIMEOUT(rec.paused, 20000);
  QTest::qWait(200);
  QCOMPARE(rec.step_count.load(), int64_t{1});
  trainer.stop();
  worker.join();
  QCOMPARE(rec.summary.global_step, int64_t{1});
  QCOMPARE(rec.summary.epochs_completed, int64_t{0});
}

void TstTrainer::stepEpochRunsToEpochEnd() {
  TrainConfig c = smallConfig();
  c.training.epochs = 5;
  Trainer trainer(c);
  Recorder rec;
  trainer.addObserver(&rec);
  trainer.stepBatch();
  std::thread worker([&] { trainer.run(); });
  QTRY_VERIFY_WITH_TIMEOUT(rec.paused, 20000);
  trainer.stepEpoch();  // from batch 1 of epoch 1: the rest of epoch 1, validation, then pause
  QTRY_VERIFY_WITH_TIMEOUT(rec.epochs.size() == 1, 10000);
  QTest::qWait(200);
  // batches per epoch: n_train = 300 - round(300*0.2) = 240 samples, batch 32 -> ceil(240/32) = 8
  QCOMPARE(rec.step_count.load(), int64_t{8});
  QCOMPARE(rec.epochs.front().step, int64_t{8});
  // Paused after the first step, then again after the stepped epoch: both pauses announced.
  QTRY_COMPARE_WITH_TIMEOUT(rec.count(EventKind::Paused), size_t{2}, 5000);
  QVERIFY(rec.paused);
  trainer.stop();
  worker.join();
}

void TstTrainer::nonFiniteStopsOnTheStep() {
  QTemporaryDir tmp;
  TrainConfig c = resolveConfig("overfit-sine", {}, {"optimizer.name=\"sgd\"", "optimizer.lr=1e8"});
  c.training.num_threads = 1;
  TrainerOptions o;
  o.run_dir = std::filesystem::path(tmp.path().toStdString()) / "nf";
  Trainer trainer(c, o);
  Recorder rec;
  trainer.addObserver(&rec);
  RunSummary s = trainer.run();
  COMPARE_REASON(s.stop_reason, StopReason::NonFinite);
  QVERIFY(!rec.steps.empty());
  const StepRecord& last = rec.steps.back();
  QVERIFY(!std::isfinite(last.loss) || !std::isfinite(last.grad_norm));
  QVERIFY(!last.applied);
  for (size_t i = 0; i + 1 < rec.steps.size(); ++i)  // detected on the first bad step
    QVERIFY(std::isfinite(rec.steps[i].loss) && std::isfinite(rec.steps[i].grad_norm));
  QCOMPARE(rec.count(EventKind::NonFinite), size_t{1});
  // overfit-sine has one batch per epoch, so the bad step is an epoch's last: that epoch must
  // not be completed (no validation, no metrics row).
  QCOMPARE(rec.epochs.size(), static_cast<size_t>(last.epoch - 1));
  QCOMPARE(s.epochs_completed, last.epoch - 1);
  QVERIFY(!s.test_loss);
  auto events = testfiles::readText(o.run_dir / "events.jsonl");
  QVERIFY(events.find("\"kind\":\"non_finite\"") != std::string::npos);
  auto summary = nlohmann::json::parse(testfiles::readText(o.run_dir / "summary.json"));
  QCOMPARE(QString::fromStdString(summary["stop_reason"].get<std::string>()),
           QString("non_finite"));
  const auto steps = testfiles::readCsv(o.run_dir / "steps.csv");
  QVERIFY(steps);
  QCOMPARE(static_cast<int64_t>(steps->rows.size()), s.global_step);  // the bad step has its row
}

void TstTrainer::nonFiniteSkipContinues() {
  // SGD at lr 1e8 blows the weights up within a few steps; with "skip" the run carries on.
  TrainConfig c = resolveConfig("overfit-sine", {},
                                {"optimizer.name=\"sgd\"", "optimizer.lr=1e8",
                                 "training.non_finite=\"skip\"", "training.epochs=3"});
  c.training.num_threads = 1;
  Trainer trainer(c);
  Recorder rec;
  trainer.addObserver(&rec);
  RunSummary s = trainer.run();
  COMPARE_REASON(s.stop_reason, StopReason::Completed);
  QCOMPARE(s.epochs_completed, int64_t{3});
  QVERIFY(rec.count(EventKind::NonFinite) >= 1);
}

void TstTrainer::dropoutOnlyInTrainMode() {
  // With dropout 0.5, validation (eval mode + no grad) must be deterministic: evaluate the
  // same model twice in one epoch boundary by running 1 epoch twice with the same seed and
  // comparing val_loss; and training loss must differ from a dropout-free run.
  TrainConfig c = smallConfig();
  c.training.epochs = 1;
  c.model.dropout = 0.5;
  Recorder a, b;
  {
    Trainer t(c);
    t.addObserver(&a);
    t.run();
  }
  // eval-mode check: re-evaluating a trained model is independent of dropout randomness.
  // Run a hook that counts train-mode forward passes: every step must be in train mode.
  int train_mode_steps = 0, total = 0;
  Trainer t2(c);
  t2.addObserver(&b);
  TrainerHooks hooks;
  hooks.after_backward = [&](const std::vector<at::Tensor>&) { ++total; };
  TrainerAccess::setHooks(t2, hooks);
  t2.run();
  train_mode_steps = total;
  QCOMPARE(train_mode_steps, static_cast<int>(b.steps.size()));
  QCOMPARE(a.epochs.front().val_loss, b.epochs.front().val_loss);
  // Without dropout the training losses differ (dropout was active in train mode).
  c.model.dropout = 0;
  Recorder d;
  Trainer t3(c);
  t3.addObserver(&d);
  t3.run();
  QVERIFY(a.steps[1].loss != d.steps[1].loss);
}

void TstTrainer::badDataThrowsBeforeWriting() {
  QTemporaryDir tmp;
  TrainConfig c = resolveConfig("fashion-mnist-mlp", {}, {});
  c.data.path = tmp.path().toStdString() + "/nowhere";
  TrainerOptions o;
  o.run_dir = std::filesystem::path(tmp.path().toStdString()) / "run";
  Trainer t(c, o);
  try {
    t.run();
    QFAIL("expected a data error");
  } catch (const Error& e) {
    QCOMPARE(e.code(), ErrorCode::Data);
    QVERIFY2(std::string(e.what()).find("train-images-idx3-ubyte.gz") != std::string::npos,
             e.what());
  }
  QVERIFY(!std::filesystem::exists(o.run_dir));
}

namespace {

/// Compares two CSV files of run directories cell by cell, wall-clock columns aside
/// (ARCHITECTURE §4: the only values allowed to differ). `max_rows` < 0: all rows.
void compareRunCsv(const std::filesystem::path& a_dir, const std::filesystem::path& b_dir,
                   const char* file, int max_rows = -1) {
  const auto a = testfiles::readCsv(a_dir / file);
  QVERIFY(a && !a->rows.isEmpty());
  const QString why = testfiles::csvDifference(a_dir / file, b_dir / file, max_rows);
  QVERIFY2(why.isEmpty(), qPrintable(why));
}

}  // namespace

void TstTrainer::autoThreadsRerunFromConfigIsIdentical() {
  // ctest sets OMP_NUM_THREADS=2: "auto" then times the candidates 1 and 2 (OMP_NUM_THREADS is
  // the largest candidate), so the measurement really runs before the first step.
  qputenv("OMP_NUM_THREADS", "2");
  QTemporaryDir tmp;
  std::filesystem::path root = tmp.path().toStdString();
  TrainConfig c = smallConfig();
  c.model.dropout = 0.3;  // dropout draws from the global generator: the measurement must not
  c.model.hidden = {64, 64};
  c.training.epochs = 2;
  c.training.num_threads.reset();  // "auto"
  QCOMPARE(configToJson(c)["training"]["num_threads"], nlohmann::json("auto"));
  Recorder rec;
  TrainerOptions o;
  o.run_dir = root / "auto";
  Trainer t(c, o);
  t.addObserver(&rec);
  COMPARE_REASON(t.run().stop_reason, StopReason::Completed);

  // config.json holds the chosen count as an integer, one of the candidates.
  const auto cfg = nlohmann::json::parse(testfiles::readText(root / "auto" / "config.json"));
  QVERIFY(cfg["training"]["num_threads"].is_number_integer());
  const int64_t chosen = cfg["training"]["num_threads"].get<int64_t>();
  QVERIFY2(chosen == 1 || chosen == 2, std::to_string(chosen).c_str());
  // run.json records the measured rates and the choice.
  const auto run = nlohmann::json::parse(testfiles::readText(root / "auto" / "run.json"));
  QCOMPARE(run["num_threads"], nlohmann::json(chosen));
  QCOMPARE(run["thread_choice"]["mode"], nlohmann::json("auto"));
  QCOMPARE(run["thread_choice"]["max_threads"], nlohmann::json(2));
  QCOMPARE(run["thread_choice"]["limited_by_omp_num_threads"], nlohmann::json(true));
  QCOMPARE(run["thread_choice"]["rates"].size(), size_t{2});
  for (const auto& r : run["thread_choice"]["rates"])
    QVERIFY(r["samples_per_second"].get<double>() > 0);
  // The run_started event says how the count was chosen.
  QVERIFY(!rec.events.empty());
  const std::string& started = rec.events.front().message;
  QVERIFY2(started.find("(auto: 1 = ") != std::string::npos, started.c_str());
  QVERIFY2(started.find("OMP_NUM_THREADS=2 is the largest candidate") != std::string::npos,
           started.c_str());

  // A rerun from config.json alone (explicit count) gives identical steps and metrics.
  TrainerOptions o2;
  o2.run_dir = root / "rerun";
  Trainer t2(configFromJson(cfg), o2);
  COMPARE_REASON(t2.run().stop_reason, StopReason::Completed);
  compareRunCsv(root / "auto", root / "rerun", "steps.csv");
  compareRunCsv(root / "auto", root / "rerun", "metrics.csv");
  const auto run2 = nlohmann::json::parse(testfiles::readText(root / "rerun" / "run.json"));
  QCOMPARE(run2["thread_choice"]["mode"], nlohmann::json("fixed"));
  qunsetenv("OMP_NUM_THREADS");
}

void TstTrainer::threadMeasurementLeavesStateUntouched() {
  // measureThreadRates directly: the model's parameters, its optimizer's buffers and the
  // global generator (which dropout draws from) are exactly what they were.
  at::set_num_threads(1);
  torch::manual_seed(5);
  DataConfig dc;
  dc.source = "moons";
  dc.n_samples = 400;
  PreparedData data = loadData(dc);
  ModelConfig mc;
  mc.hidden = {32, 32};
  mc.dropout = 0.5;
  OptimizerConfig oc;  // Adam
  TrainState s;
  s.model = buildModel(mc, 2, 2);
  s.params = s.model->parameters();
  s.grads = std::make_unique<FlatGradients>(s.params);
  s.optimizer = makeOptimizer(oc, s.params);
  s.model->train();
  // One real step first, so that Adam's buffers exist and can be compared.
  BatchIterator it(data.train, 32, false);
  StepResult first = trainStep(s, it.batch(0), true, ClipConfig{}, nullptr);
  QVERIFY(first.applied);

  std::vector<at::Tensor> params_before;
  for (const auto& p : s.params) params_before.push_back(p.detach().clone());
  std::vector<at::Tensor> buffers_before;
  for (const auto& [key, st] : s.optimizer->state()) {
    auto& adam = static_cast<torch::optim::AdamParamState&>(*st);
    buffers_before.push_back(adam.exp_avg().clone());
    buffers_before.push_back(adam.exp_avg_sq().clone());
  }
  QVERIFY(!buffers_before.empty());
  at::Tensor gen_before = at::detail::getDefaultCPUGenerator().get_state();

  std::vector<ThreadRate> rates =
      measureThreadRates(s, data.train, 32, true, ClipConfig{}, oc, threadCandidates(2));
  QCOMPARE(rates.size(), size_t{2});
  QCOMPARE(rates[0].threads, 1);
  QCOMPARE(rates[1].threads, 2);
  QCOMPARE(at::get_num_threads(), 1);  // the caller's count is restored

  for (size_t i = 0; i < s.params.size(); ++i) QVERIFY(torch::equal(s.params[i], params_before[i]));
  size_t b = 0;
  for (const auto& [key, st] : s.optimizer->state()) {
    auto& adam = static_cast<torch::optim::AdamParamState&>(*st);
    QVERIFY(torch::equal(adam.exp_avg(), buffers_before[b++]));
    QVERIFY(torch::equal(adam.exp_avg_sq(), buffers_before[b++]));
  }
  QVERIFY(torch::equal(at::detail::getDefaultCPUGenerator().get_state(), gen_before));
  // The next draw is the one it would have been without the measurement.
  at::Tensor after = torch::rand({8});
  at::Generator gen = at::detail::getDefaultCPUGenerator();  // shares the default's impl
  gen.set_state(gen_before);
  QVERIFY(torch::equal(after, torch::rand({8})));
}

TRAINSCOPE_TEST_MAIN(TstTrainer)
}  // namespace tst_trainer_suite
#include "tst_trainer.moc"

// Mixed precision: the GradScaler (skip on inf, backoff, growth, state_dict), unscaling before
// the norm and the clip, bf16 autocast on the CPU (fp32 parameters and gradients, loss close to
// fp32), toggling AMP off (bitwise fp32 behaviour again) and the live toggle's event. Expected
// values are by hand: the scale is a power of two, so scaling is exact.
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/autocast_mode.h>
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/checkpoint_file.h"
#include "core/model/model.h"
#include "core/model/sequential_model.h"
#include "core/optim/optimizer_factory.h"
#include "core/train/loop/trainer_hooks.h"
#include "core/train/state/train_state_io.h"
#include "core/train/step/amp_control.h"
#include "core/train/step/autocast.h"
#include "core/train/step/flat_gradients.h"
#include "core/train/step/grad_scaler.h"
#include "core/train/step/step.h"
#include "core/train/trainer.h"
#include "recording_observer.h"
#include "ivalue_compare.h"
#include "test_util.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_amp_suite {

using namespace trainscope;

namespace {

/// y = w x with one weight (no bias), SGD lr 1: the gradient of mse_loss is 2 (w x - y) x.
TrainState linearState(double w) {
  TrainState s;
  // A model of the interface that no registered kind builds (bias-free).
  s.model = std::make_shared<SequentialModel>(
      "test", torch::nn::Sequential(torch::nn::Linear(torch::nn::LinearOptions(1, 1).bias(false))));
  {
    torch::NoGradGuard g;
    s.model->parameters()[0].fill_(w);
  }
  s.params = s.model->parameters();
  s.grads = std::make_unique<FlatGradients>(s.params);
  OptimizerConfig o;
  o.name = "sgd";
  o.lr = 1.0;
  s.optimizer = makeOptimizer(o, s.params);
  s.model->train();
  return s;
}

TensorPair point(double x, double y) {
  TensorPair p;
  p.x = torch::full({1, 1}, x, torch::kFloat);
  p.y = torch::full({1, 1}, y, torch::kFloat);
  return p;
}

/// A TrainState of the moons MLP with `seed`, as the Trainer builds it (no data needed).
TrainState mlpState(uint64_t seed, const std::string& optimizer = "adam") {
  TrainState s;
  torch::manual_seed(seed);
  ModelConfig m;
  m.hidden = {32, 32};
  s.model = buildModel(m, 2, 2);
  s.params = s.model->parameters();
  s.grads = std::make_unique<FlatGradients>(s.params);
  OptimizerConfig o;
  o.name = optimizer;
  o.lr = 1e-2;
  s.optimizer = makeOptimizer(o, s.params);
  s.model->train();
  return s;
}

TensorPair moonsBatch(int64_t n, uint64_t seed) {
  torch::manual_seed(seed);
  TensorPair b;
  b.x = torch::randn({n, 2});
  b.y = (b.x.select(1, 0) > 0).to(torch::kLong);
  return b;
}

}  // namespace

class TstAmp : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void scalerDefaultsMirrorPyTorch();
  void infGradientSkipsStepAndHalvesScale();
  void growsAfterGrowthIntervalCleanSteps();
  void stateDictRoundTrip();
  void stateDictRejectsBadValues();
  void checkpointKeepsScalerState();
  void recordedNormIsUnscaled();
  void clipFactorAppliesToUnscaledNorm();
  void bf16AutocastKeepsFp32State();
  void ampOffIsBitwiseFp32Again();
  void liveToggleReportsEvent();
  void skipWatchCountsInARow();
};

void TstAmp::scalerDefaultsMirrorPyTorch() {
  GradScaler s;
  QCOMPARE(s.getScale(), 65536.0);
  QCOMPARE(s.options().growth_factor, 2.0);
  QCOMPARE(s.options().backoff_factor, 0.5);
  QCOMPARE(s.options().growth_interval, int64_t{2000});
  QCOMPARE(s.growthTracker(), int64_t{0});
  auto loss = torch::tensor(0.75f);
  QCOMPARE(s.scale(loss).item<float>(), 0.75f * 65536.0f);
}

void TstAmp::infGradientSkipsStepAndHalvesScale() {
  // Direct: an inf in the flat buffer is found, the scale halves, the tracker resets.
  {
    TrainState s = linearState(0.0);
    GradScaler scaler;
    s.grads->buffer().fill_(std::numeric_limits<float>::infinity());
    QVERIFY(scaler.unscale(*s.grads));
    scaler.update();
    QCOMPARE(scaler.getScale(), 32768.0);
    QCOMPARE(scaler.growthTracker(), int64_t{0});
  }
  // Through the step: x = 1e32 makes the scaled gradient 2e3 * 1e32 * 65536 overflow float32
  // while the loss (1e6) stays finite. The step is skipped: weights bitwise unchanged.
  TrainState s = linearState(0.0);
  s.amp = true;
  s.scaler = std::make_unique<GradScaler>();
  const at::Tensor before = s.params[0].clone();
  StepResult r = trainStep(s, point(1e32, -1e3), /*classification=*/false, ClipConfig{}, nullptr);
  QVERIFY(std::isfinite(r.loss));
  QVERIFY(r.scaler_skipped);
  QVERIFY(!r.applied);
  QCOMPARE(*r.loss_scale, 65536.0);  // the scale this step used
  QVERIFY(torch::equal(s.params[0], before));
  QCOMPARE(s.scaler->getScale(), 32768.0);
  // The next clean step is applied at the halved scale.
  StepResult r2 = trainStep(s, point(1.0, -0.25), false, ClipConfig{}, nullptr);
  QVERIFY(r2.applied && !r2.scaler_skipped);
  QCOMPARE(*r2.loss_scale, 32768.0);
  QCOMPARE(s.scaler->growthTracker(), int64_t{1});
  QVERIFY(!at::autocast::is_cpu_enabled());  // only around the forward pass
}

void TstAmp::growsAfterGrowthIntervalCleanSteps() {
  GradScalerOptions o;
  o.growth_interval = 3;
  GradScaler scaler(o);
  TrainState s = linearState(0.0);
  for (int i = 1; i <= 2; ++i) {
    s.grads->buffer().fill_(1.0);
    QVERIFY(!scaler.unscale(*s.grads));
    scaler.update();
    QCOMPARE(scaler.getScale(), 65536.0);
    QCOMPARE(scaler.growthTracker(), int64_t{i});
  }
  s.grads->buffer().fill_(1.0);
  scaler.unscale(*s.grads);
  scaler.update();
  QCOMPARE(scaler.getScale(), 131072.0);
  QCOMPARE(scaler.growthTracker(), int64_t{0});
  // unscale multiplied by 1/65536 exactly
  QCOMPARE(s.grads->buffer()[0].item<float>(), 1.0f / 65536.0f);
}

void TstAmp::stateDictRoundTrip() {
  GradScalerOptions o;
  o.growth_interval = 5;
  GradScaler a(o);
  TrainState s = linearState(0.0);
  s.grads->buffer().fill_(NAN);
  a.unscale(*s.grads);
  a.update();  // 32768
  s.grads->buffer().fill_(1.0);
  a.unscale(*s.grads);
  a.update();  // tracker 1
  s.grads->buffer().fill_(1.0);
  a.unscale(*s.grads);
  a.update();  // tracker 2
  const c10::impl::GenericDict d = a.stateDict();
  // torch.amp.GradScaler.state_dict()'s keys, Python floats and ints.
  QCOMPARE(static_cast<int>(d.size()), 5);
  QCOMPARE(d.at("scale").toDouble(), 32768.0);
  QCOMPARE(d.at("growth_factor").toDouble(), 2.0);
  QCOMPARE(d.at("backoff_factor").toDouble(), 0.5);
  QCOMPARE(d.at("growth_interval").toInt(), int64_t{5});
  QCOMPARE(d.at("_growth_tracker").toInt(), int64_t{2});
  GradScaler b;
  b.loadStateDict(d);
  QCOMPARE(b.getScale(), 32768.0);
  QCOMPARE(b.growthTracker(), int64_t{2});
  QCOMPARE(b.options().growth_interval, int64_t{5});
  // Both continue identically: 3 more clean steps grow both at the same step.
  for (int i = 0; i < 3; ++i) {
    for (GradScaler* g : {&a, &b}) {
      s.grads->buffer().fill_(1.0);
      g->unscale(*s.grads);
      g->update();
    }
    QCOMPARE(a.getScale(), b.getScale());
    QCOMPARE(a.growthTracker(), b.growthTracker());
  }
  QCOMPARE(a.getScale(), 65536.0);
}

void TstAmp::stateDictRejectsBadValues() {
  GradScaler a;
  c10::impl::GenericDict d = a.stateDict();
  d.insert_or_assign("scale", -1.0);
  GradScaler b;
  try {
    b.loadStateDict(d, "x.pt");
    QFAIL("no error");
  } catch (const Error& e) {
    QVERIFY2(std::string(e.what()).find("'scale'") != std::string::npos, e.what());
  }
  QCOMPARE(b.getScale(), 65536.0);  // untouched
  d = a.stateDict();
  (void)d.erase("_growth_tracker");
  QVERIFY_THROWS_EXCEPTION(Error, b.loadStateDict(d, "x.pt"));
}

void TstAmp::checkpointKeepsScalerState() {
  TrainConfig c;
  c.optimizer.name = "sgd";
  TrainState a = linearState(0.0);
  a.amp = true;
  a.scaler = std::make_unique<GradScaler>();
  a.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(1);
  a.epoch_start_shuffle_state = a.shuffle_gen.get_state();
  trainStep(a, point(1e32, -1e3), false, ClipConfig{}, nullptr);  // skipped: 32768
  trainStep(a, point(1.0, -0.25), false, ClipConfig{}, nullptr);  // tracker 1
  const CheckpointContext ctx{configToJson(c).dump(), "sgd", ""};
  const c10::impl::GenericDict d = captureState(a, ctx);
  QVERIFY(d.contains("scaler_state_dict"));
  TrainState b = linearState(0.0);
  b.scaler = std::make_unique<GradScaler>();
  b.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(2);
  restoreState(b, d, "sgd", "mem.pt");
  QCOMPARE(b.scaler->getScale(), 32768.0);
  QCOMPARE(b.scaler->growthTracker(), int64_t{1});
  // Without a scaler (fp32 or CPU run) the key is absent.
  TrainState f = linearState(0.0);
  f.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(1);
  f.epoch_start_shuffle_state = f.shuffle_gen.get_state();
  QVERIFY(!captureState(f, ctx).contains("scaler_state_dict"));
}

void TstAmp::recordedNormIsUnscaled() {
  // w = 0, x = 1, y = -0.25: dL/dw = 2 (0 + 0.25) = 0.5 exactly; scaled 32768.
  TrainState s = linearState(0.0);
  s.amp = true;
  s.scaler = std::make_unique<GradScaler>();
  double measured_grad = 0;
  TrainerHooks hooks;
  hooks.after_backward = [&](const std::vector<at::Tensor>& p) {
    measured_grad = p[0].grad().item<double>();
  };
  StepResult r = trainStep(s, point(1.0, -0.25), false, ClipConfig{}, &hooks);
  QCOMPARE(*r.loss_scale, 65536.0);
  QCOMPARE(measured_grad, 0.5);  // unscaled before the hooks, the norm and the clip
  QCOMPARE(r.grad_norm, 0.5);
  QCOMPARE(r.loss, 0.0625);                    // the loss is reported unscaled
  QCOMPARE(s.params[0].item<double>(), -0.5);  // SGD lr 1 on the unscaled gradient
}

void TstAmp::clipFactorAppliesToUnscaledNorm() {
  // y = -2: dL/dw = 4; clip to max_norm 1: factor 1 / (4 + 1e-6).
  TrainState s = linearState(0.0);
  s.amp = true;
  s.scaler = std::make_unique<GradScaler>();
  ClipConfig clip;
  clip.enabled = true;
  clip.max_norm = 1.0;
  double clipped = 0;
  TrainerHooks hooks;
  hooks.after_clip = [&](const std::vector<at::Tensor>& p) {
    clipped = p[0].grad().item<double>();
  };
  StepResult r = trainStep(s, point(1.0, -2.0), false, clip, &hooks);
  QCOMPARE(r.grad_norm, 4.0);
  const double factor = clipped / 4.0;
  QVERIFY2(std::abs(factor - 0.25) < 1e-6, qPrintable(QString::number(factor, 'g', 17)));
  QVERIFY(std::abs(r.grad_norm_clipped - 1.0) < 1e-6);
}

void TstAmp::bf16AutocastKeepsFp32State() {
  TrainState fp32 = mlpState(5), amp = mlpState(5);
  amp.amp = true;  // CPU: bf16 autocast, no scaler
  QVERIFY(sameTensors(fp32.params, amp.params));
  const TensorPair batch = moonsBatch(64, 9);
  std::vector<at::ScalarType> grad_types;
  TrainerHooks hooks;
  hooks.after_backward = [&](const std::vector<at::Tensor>& p) {
    for (const auto& t : p) grad_types.push_back(t.grad().scalar_type());
  };
  const StepResult a = trainStep(amp, batch, true, ClipConfig{}, &hooks);
  const StepResult f = trainStep(fp32, batch, true, ClipConfig{}, nullptr);
  QVERIFY(!a.loss_scale);  // no scaler on the CPU
  for (auto t : grad_types) QCOMPARE(t, at::kFloat);
  for (const auto& p : amp.params) QCOMPARE(p.scalar_type(), at::kFloat);
  QVERIFY(std::isfinite(a.loss));
  QVERIFY2(std::abs(a.loss - f.loss) <= 1e-2 * std::abs(f.loss),
           qPrintable(QString("amp %1 fp32 %2").arg(a.loss, 0, 'g', 17).arg(f.loss, 0, 'g', 17)));
  QVERIFY(a.loss != f.loss);  // bf16 really ran
  QVERIFY(!at::autocast::is_cpu_enabled());
  // Second step: both after one update; still within 1e-2.
  const TensorPair batch2 = moonsBatch(64, 10);
  const StepResult a2 = trainStep(amp, batch2, true, ClipConfig{}, nullptr);
  const StepResult f2 = trainStep(fp32, batch2, true, ClipConfig{}, nullptr);
  QVERIFY(std::abs(a2.loss - f2.loss) <= 1e-2 * std::abs(f2.loss));
}

void TstAmp::ampOffIsBitwiseFp32Again() {
  // Train 3 steps with AMP, capture, restore into a fresh state that never used AMP; then both
  // train 3 steps in float32: bitwise equal (no autocast or cache left behind).
  TrainConfig c;
  TrainState a = mlpState(3);
  a.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(1);
  a.epoch_start_shuffle_state = a.shuffle_gen.get_state();
  setAmp(a, true);
  for (int i = 0; i < 3; ++i) trainStep(a, moonsBatch(32, 20 + i), true, ClipConfig{}, nullptr);
  const CheckpointContext ctx{configToJson(c).dump(), "adam", ""};
  TrainState b = mlpState(4);
  b.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(1);
  restoreState(b, captureState(a, ctx), "adam", "mem.pt");
  setAmp(a, false);
  QVERIFY(sameTensors(a.params, b.params));
  for (int i = 0; i < 3; ++i) {
    const TensorPair batch = moonsBatch(32, 30 + i);
    const StepResult ra = trainStep(a, batch, true, ClipConfig{}, nullptr);
    const StepResult rb = trainStep(b, batch, true, ClipConfig{}, nullptr);
    QCOMPARE(ra.loss, rb.loss);
  }
  QVERIFY(sameTensors(a.params, b.params));
}

void TstAmp::liveToggleReportsEvent() {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.data.n_samples = 300;
  c.training.epochs = 1;
  c.training.num_threads = 1;
  Trainer t(c);
  struct Obs : TrainerObserver {
    Trainer* t = nullptr;
    std::vector<Event> events;
    std::vector<StepRecord> steps;
    void onStep(const StepRecord& r) override {
      steps.push_back(r);
      if (r.step == 2) t->setAmp(true);
      if (r.step == 4) t->setAmp(false);
    }
    void onEvent(const Event& e) override {
      if (e.kind == EventKind::ConfigChanged) events.push_back(e);
    }
  } obs;
  obs.t = &t;
  t.addObserver(&obs);
  COMPARE_REASON(t.run().stop_reason, StopReason::Completed);
  QCOMPARE(static_cast<int>(obs.events.size()), 2);
  QCOMPARE(QString::fromStdString(obs.events[0].what), QString("training.amp"));
  QCOMPARE(*obs.events[0].value, 1.0);
  QCOMPARE(obs.events[0].step, int64_t{2});  // takes effect from step 3
  QCOMPARE(*obs.events[1].value, 0.0);
  QCOMPARE(obs.events[1].step, int64_t{4});
  // Compare with an fp32 run: steps 1-2 bitwise equal, step 3 (bf16) differs.
  Trainer ref(c);
  testrun::RecordingObserver ref_obs;
  ref.addObserver(&ref_obs);
  ref.run();
  QCOMPARE(obs.steps[0].loss, ref_obs.steps[0].loss);
  QCOMPARE(obs.steps[1].loss, ref_obs.steps[1].loss);
  QVERIFY(obs.steps[2].loss != ref_obs.steps[2].loss);  // step 3's forward ran in bf16
  QVERIFY(!obs.steps[2].loss_scale);  // no scaler on the CPU: the column stays empty
}

void TstAmp::skipWatchCountsInARow() {
  ScalerSkipWatch w;
  for (int i = 1; i < ScalerSkipWatch::kMaxInARow; ++i) QVERIFY(!w.onStep(true));
  QVERIFY(!w.onStep(false));  // a clean step resets
  QCOMPARE(w.inARow(), 0);
  for (int i = 1; i < ScalerSkipWatch::kMaxInARow; ++i) QVERIFY(!w.onStep(true));
  QVERIFY(w.onStep(true));
}

TRAINSCOPE_TEST_MAIN(TstAmp)
}  // namespace tst_amp_suite
#include "tst_amp.moc"

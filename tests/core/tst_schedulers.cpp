// Learning-rate schedulers (core/optim/schedulers): each scheduler's lr over 20 epochs equals
// PyTorch's documented closed form (computed here), ReduceLROnPlateau follows a sequence traced
// by hand, every configuration agrees with Debian's python3-torch (TRAINSCOPE_TEST_PYTHON),
// the Trainer steps the scheduler once per epoch after validation, a live lr change rescales
// the schedule, and a resumed run continues the lr curve exactly.
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <cmath>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/train/state/checkpoint.h"
#include "core/optim/schedulers/lr_scheduler.h"
#include "core/train/trainer.h"
#include "recording_observer.h"
#include "python_runner.h"
#include "test_util.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_schedulers_suite {

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kEpochs = 20;

/// lr() before each of kEpochs epochs (the scheduler stepped after each), metric[i] fed after
/// epoch i+1.
std::vector<double> lrCurve(const SchedulerConfig& c, double base,
                            const std::vector<double>& metrics = {}) {
  auto s = makeScheduler(c, base);
  std::vector<double> out;
  for (int e = 0; e < kEpochs; ++e) {
    out.push_back(s ? s->lr() : base);
    if (s) s->step(e < static_cast<int>(metrics.size()) ? metrics[e] : 1.0);
  }
  return out;
}

/// PyTorch's documented closed forms at epoch e (0-based: the epoch's index in last_epoch).
double closedForm(const SchedulerConfig& c, double base, int64_t e) {
  if (c.warmup_epochs > 0) {
    const double f = c.warmup_start_factor;
    if (e < c.warmup_epochs) return base * (f + (1 - f) * double(e) / c.warmup_epochs);
    e -= c.warmup_epochs;
  }
  if (c.name == "StepLR") return base * std::pow(c.gamma, double(e / c.step_size));
  if (c.name == "ExponentialLR") return base * std::pow(c.gamma, double(e));
  if (c.name == "MultiStepLR") {
    int k = 0;
    for (int64_t m : c.milestones) k += m <= e ? 1 : 0;
    return base * std::pow(c.gamma, double(k));
  }
  if (c.name == "CosineAnnealingLR")
    return c.eta_min + (base - c.eta_min) * (1 + std::cos(kPi * double(e) / c.T_max)) / 2;
  return base;  // none
}

SchedulerConfig sched(const std::string& name) {
  SchedulerConfig c;
  c.name = name;
  c.step_size = 3;
  c.gamma = 0.5;
  c.milestones = {2, 5, 5, 9};  // 5 twice: gamma^2 there, as Python's Counter
  c.T_max = 6;                  // 20 epochs go past T_max: the lr rises again
  c.eta_min = 0.01;
  return c;
}

/// The plateau sequence traced by hand (factor 0.5, patience 2, cooldown 1, threshold 0.1 rel,
/// min_lr 0.1, base 1): best=1.0 at 1; 2-4 bad (0.95 is not < 0.9) -> 0.5 at step 4, cooldown;
/// 0.8 new best at 5; 6-8 bad -> 0.25; 9 cooldown; 10-12 bad -> 0.125; 0.5 new best at 13;
/// 14-16 bad -> max(0.0625, 0.1) = 0.1; 17 cooldown; 18-20 bad -> 0.1 stays (min_lr).
const std::vector<double> kPlateauMetrics = {1.0, 0.95, 0.96, 0.97, 0.8, 0.85, 0.9, 0.9, 0.9, 0.9,
                                             0.9, 0.9,  0.5,  0.5,  0.5, 0.5,  0.5, 0.5, 0.5, 0.5};
const std::vector<double> kPlateauAfterStep = {
    1, 1, 1, .5, .5, .5, .5, .25, .25, .25, .25, .125, .125, .125, .125, 0.1, 0.1, 0.1, 0.1, 0.1};

SchedulerConfig plateau() {
  SchedulerConfig c;
  c.name = "ReduceLROnPlateau";
  c.factor = 0.5;
  c.patience = 2;
  c.cooldown = 1;
  c.threshold = 0.1;
  c.min_lr = 0.1;
  return c;
}

bool close(double a, double b, double scale) { return std::abs(a - b) <= 1e-12 * scale; }

const char* kPython = R"PY(
import json, sys, warnings
warnings.filterwarnings("ignore")
import torch
from torch.optim import lr_scheduler as L
spec = json.loads(sys.argv[1])
p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=spec["base"])
name, W, f = spec["name"], spec["warmup_epochs"], spec["warmup_start_factor"]
metrics = spec["metrics"]
def main_sched():
    if name == "StepLR": return L.StepLR(opt, step_size=spec["step_size"], gamma=spec["gamma"])
    if name == "MultiStepLR": return L.MultiStepLR(opt, milestones=spec["milestones"], gamma=spec["gamma"])
    if name == "ExponentialLR": return L.ExponentialLR(opt, gamma=spec["gamma"])
    if name == "CosineAnnealingLR": return L.CosineAnnealingLR(opt, T_max=spec["T_max"], eta_min=spec["eta_min"])
def plateau():
    return L.ReduceLROnPlateau(opt, mode=spec["mode"], factor=spec["factor"], patience=spec["patience"],
        threshold=spec["threshold"], threshold_mode=spec["threshold_mode"], cooldown=spec["cooldown"],
        min_lr=spec["min_lr"])
out = []
if name == "ReduceLROnPlateau":
    lin = L.LinearLR(opt, start_factor=f, total_iters=W) if W > 0 else None
    plat = plateau() if W == 0 else None
    for e in range(20):
        out.append(opt.param_groups[0]["lr"])
        opt.step()
        k = e + 1
        if W > 0 and k < W: lin.step()
        elif W > 0 and k == W:
            opt.param_groups[0]["lr"] = spec["base"]
            plat = plateau()
        else: plat.step(metrics[e])
else:
    if W > 0 and name == "none": s = L.LinearLR(opt, start_factor=f, total_iters=W)
    elif W > 0: s = L.SequentialLR(opt, [L.LinearLR(opt, start_factor=f, total_iters=W), main_sched()], milestones=[W])
    else: s = main_sched()
    for e in range(20):
        out.append(opt.param_groups[0]["lr"])
        opt.step()
        s.step()
print(json.dumps(out))
)PY";

std::vector<double> pythonCurve(const SchedulerConfig& c, double base,
                                const std::vector<double>& metrics) {
  nlohmann::json spec = configToJson([&] {
    TrainConfig t;
    t.scheduler = c;
    return t;
  }())["scheduler"];
  spec["base"] = base;
  spec["metrics"] = metrics;
  const testpython::Result py = testpython::script(kPython, {QString::fromStdString(spec.dump())});
  if (!py.ok) {
    qWarning("%s", qPrintable(py.why));
    return {};
  }
  return nlohmann::json::parse(py.out.toStdString()).get<std::vector<double>>();
}

/// Records the run and sets the learning rate to `change_to` at step `change_at`.
struct Collect : testrun::RecordingObserver {
  Trainer* trainer = nullptr;
  int64_t change_at = 0;
  double change_to = 0;
  void onStep(const StepRecord& r) override {
    RecordingObserver::onStep(r);
    if (r.step == change_at) trainer->setLearningRate(change_to);
  }
};

TrainConfig smallRun() {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.data.n_samples = 100;
  c.model.hidden = {8};
  c.training.batch_size = 40;  // 80 training samples: 2 steps per epoch
  c.training.epochs = 8;
  c.optimizer.name = "sgd";
  c.optimizer.lr = 0.1;
  c.optimizer.momentum = 0.9;
  return c;
}

/// Compares two CSV files, skipping wall-clock columns.
}  // namespace

class TstSchedulers : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void closedForms_data();
  void closedForms();
  void plateauByHand();
  void plateauAfterWarmup();
  void matchesPython_data();
  void matchesPython();
  void configErrorsNameTheKey();
  void trainerStepsAfterValidation();
  void liveChangeRescales();
  void resumeKeepsTheCurve();

 private:
  QTemporaryDir tmp_;
};

void TstSchedulers::closedForms_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<int>("warmup");
  for (const char* n : {"StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "none"})
    for (int w : {0, 3}) QTest::newRow(qPrintable(QString("%1 warmup %2").arg(n).arg(w))) << n << w;
}

void TstSchedulers::closedForms() {
  QFETCH(QString, name);
  QFETCH(int, warmup);
  SchedulerConfig c = sched(name.toStdString());
  c.warmup_epochs = warmup;
  c.warmup_start_factor = 0.25;
  const double base = 0.3;
  const auto lrs = lrCurve(c, base);
  for (int e = 0; e < kEpochs; ++e)
    QVERIFY2(close(lrs[e], closedForm(c, base, e), base),
             qPrintable(QString("epoch %1: %2 vs %3")
                            .arg(e)
                            .arg(lrs[e], 0, 'g', 17)
                            .arg(closedForm(c, base, e), 0, 'g', 17)));
  // A few values by hand, so the closed forms above are not merely our own formulas twice.
  if (name == "StepLR" && warmup == 0) {
    QCOMPARE(lrs[2], 0.3);
    QCOMPARE(lrs[3], 0.15);
    QCOMPARE(lrs[6], 0.075);
  }
  if (name == "MultiStepLR" && warmup == 0) {
    QCOMPARE(lrs[1], 0.3);
    QCOMPARE(lrs[2], 0.15);
    QCOMPARE(lrs[5], 0.0375);  // two milestones at 5
  }
  if (name == "CosineAnnealingLR" && warmup == 0) {
    QVERIFY(close(lrs[6], 0.01, 1));   // eta_min at T_max
    QVERIFY(close(lrs[12], 0.3, 1));   // back at base after 2 T_max
    QVERIFY(close(lrs[3], 0.155, 1));  // half way
  }
  if (warmup == 3) {
    QVERIFY(close(lrs[0], 0.075, 1));  // 0.25 x 0.3
    QVERIFY(close(lrs[3], 0.3, 1));    // the main schedule starts at base
  }
}

void TstSchedulers::plateauByHand() {
  const auto lrs = lrCurve(plateau(), 1.0, kPlateauMetrics);
  QCOMPARE(lrs[0], 1.0);
  for (int e = 1; e < kEpochs; ++e) QCOMPARE(lrs[e], kPlateauAfterStep[e - 1]);
  // threshold_mode abs: 0.95 < 1.0 - 0.1? no: the same trace until step 4.
  SchedulerConfig a = plateau();
  a.threshold_mode = "abs";
  a.threshold = 0.01;
  const auto abs = lrCurve(a, 1.0, kPlateauMetrics);  // 0.95 improves (< 0.99): no cut at 4
  QCOMPARE(abs[4], 1.0);
}

void TstSchedulers::plateauAfterWarmup() {
  SchedulerConfig c = plateau();
  c.warmup_epochs = 2;
  c.warmup_start_factor = 0.5;
  std::vector<double> metrics = {9, 9};  // ignored during the warm-up
  metrics.insert(metrics.end(), kPlateauMetrics.begin(), kPlateauMetrics.end() - 2);
  const auto lrs = lrCurve(c, 1.0, metrics);
  QCOMPARE(lrs[0], 0.5);
  QCOMPARE(lrs[1], 0.75);
  QCOMPARE(lrs[2], 1.0);
  for (int e = 3; e < kEpochs; ++e) QCOMPARE(lrs[e], kPlateauAfterStep[e - 3]);
}

void TstSchedulers::matchesPython_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<int>("warmup");
  for (const char* n :
       {"StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "ReduceLROnPlateau", "none"})
    for (int w : {0, 3})
      if (std::string(n) != "none" || w > 0)
        QTest::newRow(qPrintable(QString("%1 warmup %2").arg(n).arg(w))) << n << w;
}

void TstSchedulers::matchesPython() {
  QFETCH(QString, name);
  QFETCH(int, warmup);
  SchedulerConfig c = name == "ReduceLROnPlateau" ? plateau() : sched(name.toStdString());
  c.warmup_epochs = warmup;
  c.warmup_start_factor = 0.25;
  const double base = name == "ReduceLROnPlateau" ? 1.0 : 0.3;
  const auto ours = lrCurve(c, base, kPlateauMetrics);
  const auto theirs = pythonCurve(c, base, kPlateauMetrics);
  QCOMPARE(int(theirs.size()), kEpochs);
  for (int e = 0; e < kEpochs; ++e)
    QVERIFY2(close(ours[e], theirs[e], base), qPrintable(QString("epoch %1: %2 vs torch %3")
                                                             .arg(e)
                                                             .arg(ours[e], 0, 'g', 17)
                                                             .arg(theirs[e], 0, 'g', 17)));
}

void TstSchedulers::configErrorsNameTheKey() {
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"scheduler.name", "\"steplr\""},
           {"scheduler.factor", "1"},
           {"scheduler.T_max", "0"},
           {"scheduler.warmup_start_factor", "0"},
           {"scheduler.threshold_mode", "\"relative\""},
           {"training.early_stopping.patience", "0"}}) {
    try {
      resolveConfig("moons", {}, {key + "=" + value});
      QFAIL(qPrintable(QString::fromStdString("no error for " + key)));
    } catch (const Error& e) {
      QCOMPARE(QString::fromStdString(e.subject()), QString::fromStdString(key));
    }
  }
}

void TstSchedulers::trainerStepsAfterValidation() {
  // StepLR(step_size 2, gamma 0.5) behind a 1-epoch warm-up from 0.5: epoch lrs (the lr of
  // each epoch's steps, metrics.csv `lr`) 0.05, 0.1, 0.1, 0.05, 0.05, 0.025, ...
  TrainConfig c = smallRun();
  c.scheduler.name = "StepLR";
  c.scheduler.step_size = 2;
  c.scheduler.gamma = 0.5;
  c.scheduler.warmup_epochs = 1;
  c.scheduler.warmup_start_factor = 0.5;
  Trainer t(c, {});
  Collect col;
  t.addObserver(&col);
  COMPARE_REASON(t.run().stop_reason, StopReason::Completed);
  const std::vector<double> expected = {0.05, 0.1, 0.1, 0.05, 0.05, 0.025, 0.025, 0.0125};
  QCOMPARE(int(col.epochs.size()), 8);
  for (int e = 0; e < 8; ++e) {
    QVERIFY(close(col.epochs[e].lr, expected[e], 1));
    for (const StepRecord& s : col.steps)  // every step of the epoch used it
      if (s.epoch == e + 1) QVERIFY(close(s.lr, expected[e], 1));
  }
}

void TstSchedulers::liveChangeRescales() {
  // ExponentialLR(0.5) from 0.1; at step 5 (epoch 3, whose lr is 0.025) the lr is set to 0.4:
  // the schedule continues as if it had started at 0.4: step 6 uses 0.4 * 0.5^2 = 0.1, epoch
  // 4 uses 0.05.
  TrainConfig c = smallRun();
  c.scheduler.name = "ExponentialLR";
  c.scheduler.gamma = 0.5;
  c.training.epochs = 4;
  Trainer t(c, {});
  Collect col;
  col.trainer = &t;
  col.change_at = 5;
  col.change_to = 0.4;
  t.addObserver(&col);
  COMPARE_REASON(t.run().stop_reason, StopReason::Completed);
  QCOMPARE(int(col.steps.size()), 8);
  QVERIFY(close(col.steps[4].lr, 0.025, 1));
  QVERIFY(close(col.steps[5].lr, 0.1, 1));
  QVERIFY(close(col.steps[6].lr, 0.05, 1));
  int changed = 0;
  for (const Event& e : col.events)
    if (e.kind == EventKind::ConfigChanged) {
      ++changed;
      QCOMPARE(e.what, std::string("optimizer.lr"));
      QCOMPARE(*e.value, 0.4);
      QCOMPARE(e.step, int64_t{5});
    }
  QCOMPARE(changed, 1);
  // Without a scheduler the lr is simply set.
  TrainConfig n = smallRun();
  n.training.epochs = 2;
  Trainer t2(n, {});
  Collect col2;
  col2.trainer = &t2;
  col2.change_at = 1;
  col2.change_to = 0.02;
  t2.addObserver(&col2);
  t2.run();
  QCOMPARE(col2.steps[0].lr, 0.1);
  QCOMPARE(col2.steps[1].lr, 0.02);
  QCOMPARE(col2.steps[3].lr, 0.02);
}

void TstSchedulers::resumeKeepsTheCurve() {
  // ReduceLROnPlateau with warm-up, and early stopping + overfitting watch on: 8 epochs straight
  // (A) vs 3 epochs + 1 batch (B) resumed to 8 (C): metrics.csv (lr column included) and
  // steps.csv are identical.
  for (const std::string name : {"ReduceLROnPlateau", "CosineAnnealingLR"}) {
    TrainConfig c = smallRun();
    c.scheduler.name = name;
    c.scheduler.patience = 0;
    c.scheduler.factor = 0.5;
    c.scheduler.threshold = 0.05;
    c.scheduler.T_max = 3;
    c.scheduler.warmup_epochs = 2;
    c.training.early_stopping.enabled = true;
    c.training.early_stopping.patience = 50;
    c.training.early_stopping.restore_best_weights = true;
    const fs::path root = tmp_.path().toStdString();
    const fs::path a = root / ("A" + name), b = root / ("B" + name), cd = root / ("C" + name);
    TrainerOptions o;
    o.run_dir = a;
    COMPARE_REASON(Trainer(c, o).run().stop_reason, StopReason::Completed);
    o.run_dir = b;
    Trainer tb(c, o);
    struct StopAt : TrainerObserver {
      Trainer* t;
      void onStep(const StepRecord& r) override {
        if (r.step == 7) t->stop();
      }
    } stop;
    stop.t = &tb;
    tb.addObserver(&stop);
    COMPARE_REASON(tb.run().stop_reason, StopReason::Stopped);
    o.run_dir = cd;
    o.resume_from = b / "checkpoints" / "last.pt";
    COMPARE_REASON(Trainer(checkpointConfig(inspectCheckpoint(o.resume_from)), o).run().stop_reason,
                   StopReason::Completed);
    COMPARE_RUN_CSV(a / "metrics.csv", cd / "metrics.csv");
    COMPARE_RUN_CSV(a / "steps.csv", cd / "steps.csv");
    // The lr did change over the run (the test would pass trivially otherwise).
    const auto m = testfiles::readCsv(a / "metrics.csv");
    QVERIFY(m->rows.front()[m->column("lr")] != m->rows.back()[m->column("lr")]);
  }
}

TRAINSCOPE_TEST_MAIN(TstSchedulers)
}  // namespace tst_schedulers_suite
#include "tst_schedulers.moc"

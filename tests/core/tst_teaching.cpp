// The teaching switches (teaching.mistakes): each injected bug does what the Python
// bug does (checked by hand on y = w x, where every gradient is a formula), is recorded in
// config.json and run.json, and the loss doctor names it where the records can show it: growing
// gradient norms without zero_grad ("accumulating"), accuracy at chance with shuffled labels
// ("no_signal"), a loss far above chance at lr x1000 ("diverging"), a flat loss at lr x1e-6
// ("flat"). The three that records cannot show (one step late, validation in train mode or with
// gradients) are pinned to what they change and what they leave alone.
#include <torch/torch.h>

#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <cmath>
#include <fstream>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/model/sequential_model.h"
#include "core/optim/optimizer_factory.h"
#include "core/run/run_reader.h"
#include "core/train/step/flat_gradients.h"
#include "core/train/step/step.h"
#include "core/train/teaching/mistakes.h"
#include "core/train/trainer.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_teaching_suite {

using namespace trainscope;

namespace {

/// y = w x with one weight, SGD lr 0.25, starting at w = 0: mse_loss's gradient is 2 (w x - y) x.
TrainState linearState() {
  TrainState s;
  s.model = std::make_shared<SequentialModel>(
      "test", torch::nn::Sequential(torch::nn::Linear(torch::nn::LinearOptions(1, 1).bias(false))));
  {
    torch::NoGradGuard g;
    s.model->parameters()[0].fill_(0.0);
  }
  s.params = s.model->parameters();
  s.grads = std::make_unique<FlatGradients>(s.params);
  OptimizerConfig o;
  o.name = "sgd";
  o.lr = 0.25;
  s.optimizer = makeOptimizer(o, s.params);
  s.model->train();
  return s;
}

TensorPair onePoint() {  // x = 1, y = 1
  TensorPair p;
  p.x = torch::ones({1, 1});
  p.y = torch::ones({1, 1});
  return p;
}

double weight(const TrainState& s) { return s.params[0].item<double>(); }

TrainConfig moons(const std::vector<std::string>& mistakes, int64_t epochs = 30) {
  TrainConfig c = presetConfig("moons");
  c.training.epochs = epochs;
  c.training.num_threads = 1;
  c.teaching.mistakes = mistakes;
  return c;
}

}  // namespace

class TstTeaching : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void namesAreTheContract();
  void configRecordsAndRefuses();
  void noZeroGradAccumulates();
  void stepBeforeBackwardIsOneStepLate();
  void diagnoses_data();
  void diagnoses();
  void lrFactorsScaleTheStartingRate();
  void validationMistakesChangeOnlyWhatTheySay();
  void validationWithGradShowsItsCost();
  void augmentValidationIsMisappliedAndSaid();
};

void TstTeaching::namesAreTheContract() {
  QCOMPARE(mistakeNames(),
           (std::vector<std::string>{"no_zero_grad", "step_before_backward", "eval_in_train_mode",
                                     "val_with_grad", "shuffled_labels", "lr_x1000", "lr_x1e-6",
                                     "augment_validation"}));
}

void TstTeaching::configRecordsAndRefuses() {
  TrainConfig c = moons({"no_zero_grad", "lr_x1000"});
  const nlohmann::json j = configToJson(c);
  QCOMPARE(j["teaching"]["mistakes"], nlohmann::json({"no_zero_grad", "lr_x1000"}));
  QCOMPARE(configFromJson(j).teaching.mistakes, c.teaching.mistakes);
  QVERIFY(configToJson(presetConfig("moons"))["teaching"]["mistakes"].empty());  // default: none
  c.teaching.mistakes = {"forgot_everything"};
  try {
    validate(c);
    QFAIL("an unknown mistake was accepted");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("teaching.mistakes"));
    QVERIFY2(QString(e.what()).contains("no_zero_grad"), e.what());  // names the choices
  }
  c.teaching.mistakes = {"lr_x1000", "lr_x1e-6"};
  QVERIFY_THROWS_EXCEPTION(Error, validate(c));
}

// Without zero_grad the second step's gradient is the sum of both: on y = w x from w = 0,
// g1 = 2(0 - 1) = -2, w1 = 0 + 0.25 * 2 = 0.5; g2 = 2(0.5 - 1) = -1, summed -3, w2 = 1.25.
void TstTeaching::noZeroGradAccumulates() {
  TrainState s = linearState();
  s.mistakes.no_zero_grad = true;
  ClipConfig clip;
  StepResult r1 = trainStep(s, onePoint(), false, clip, nullptr);
  QCOMPARE(r1.grad_norm, 2.0);
  QCOMPARE(weight(s), 0.5);
  StepResult r2 = trainStep(s, onePoint(), false, clip, nullptr);
  QCOMPARE(r2.grad_norm, 3.0);
  QCOMPARE(weight(s), 1.25);
  // the same two steps done right: g2 = -1 alone, w2 = 0.75
  TrainState ok = linearState();
  trainStep(ok, onePoint(), false, clip, nullptr);
  QCOMPARE(trainStep(ok, onePoint(), false, clip, nullptr).grad_norm, 1.0);
  QCOMPARE(weight(ok), 0.75);
}

// step(); zero_grad(); loss = ...; backward(): step 1 updates with nothing (w stays 0, loss 1),
// step 2 with step 1's gradient -2 (w = 0.5, then loss 0.25), step 3 with step 2's -1 (w = 0.75).
void TstTeaching::stepBeforeBackwardIsOneStepLate() {
  TrainState s = linearState();
  s.mistakes.step_before_backward = true;
  ClipConfig clip;
  StepResult r = trainStep(s, onePoint(), false, clip, nullptr);
  QCOMPARE(r.grad_norm, 0.0);
  QCOMPARE(weight(s), 0.0);
  QCOMPARE(r.loss, 1.0);
  r = trainStep(s, onePoint(), false, clip, nullptr);
  QCOMPARE(r.grad_norm, 2.0);
  QCOMPARE(weight(s), 0.5);
  QCOMPARE(r.loss, 0.25);
  r = trainStep(s, onePoint(), false, clip, nullptr);
  QCOMPARE(r.grad_norm, 1.0);
  QCOMPARE(weight(s), 0.75);
  QCOMPARE(r.loss, 0.0625);
}

// The loss doctor on whole runs of the moons preset (chance: accuracy 0.5, loss ln 2).
void TstTeaching::diagnoses_data() {
  QTest::addColumn<QString>("mistake");
  QTest::addColumn<QString>("kind");
  QTest::addColumn<QString>("first_check");
  QTest::newRow("none") << "" << "healthy" << "nothing_urgent";
  QTest::newRow("no_zero_grad") << "no_zero_grad" << "accumulating" << "zero_grad";
  QTest::newRow("shuffled_labels") << "shuffled_labels" << "no_signal" << "check_labels";
  QTest::newRow("lr_x1000") << "lr_x1000" << "diverging" << "lower_lr_10x";
  QTest::newRow("lr_x1e-6") << "lr_x1e-6" << "flat" << "raise_lr";
  // what the records cannot tell: a healthy-looking run
  QTest::newRow("step_before_backward") << "step_before_backward" << "healthy" << "nothing_urgent";
  QTest::newRow("val_with_grad") << "val_with_grad" << "healthy" << "nothing_urgent";
}

void TstTeaching::diagnoses() {
  QFETCH(QString, mistake);
  QFETCH(QString, kind);
  QFETCH(QString, first_check);
  QTemporaryDir tmp;
  TrainConfig c = moons(mistake.isEmpty() ? std::vector<std::string>{}
                                          : std::vector<std::string>{mistake.toStdString()});
  TrainerOptions o;
  o.run_dir = tmp.filePath("run").toStdString();
  const RunSummary s = Trainer(c, o).run();
  QVERIFY(s.diagnosis);
  QString codes;
  for (const Finding& f : s.diagnosis->checks) codes += QString::fromStdString(f.code) + " ";
  QVERIFY2(s.diagnosis->kind == kind.toStdString(),
           qPrintable(QString::fromStdString(s.diagnosis->kind) + ": " + codes));
  QCOMPARE(QString::fromStdString(s.diagnosis->checks.at(0).code), first_check);
  if (mistake == "shuffled_labels") {  // at chance: within 0.1 of the majority share 0.5
    QVERIFY(s.final_metrics && s.final_metrics->val_accuracy);
    QVERIFY(std::abs(*s.final_metrics->val_accuracy - 0.5) < 0.1);
  }
  // recorded: config.json keeps the list, run.json names it
  std::ifstream config((tmp.filePath("run") + "/config.json").toStdString());
  std::ifstream run((tmp.filePath("run") + "/run.json").toStdString());
  const nlohmann::json cj = nlohmann::json::parse(config), rj = nlohmann::json::parse(run);
  QCOMPARE(cj["teaching"]["mistakes"], nlohmann::json(c.teaching.mistakes));
  QCOMPARE(rj.contains("teaching_mistakes"), !mistake.isEmpty());
  if (!mistake.isEmpty()) QCOMPARE(rj["teaching_mistakes"], nlohmann::json(c.teaching.mistakes));
}

// lr_x1000 / lr_x1e-6: every step's lr is optimizer.lr times the factor; config.json keeps lr.
void TstTeaching::lrFactorsScaleTheStartingRate() {
  for (const auto& [name, factor] : {std::pair<std::string, double>{"lr_x1000", 1000.0},
                                     std::pair<std::string, double>{"lr_x1e-6", 1e-6}}) {
    QTemporaryDir tmp;
    const TrainConfig c = moons({name}, 2);
    TrainerOptions o;
    o.run_dir = tmp.filePath("run").toStdString();
    Trainer(c, o).run();
    const RunRecord r = readRun(o.run_dir);
    QVERIFY(!r.steps.empty());
    for (const StepRecord& s : r.steps) QCOMPARE(s.lr, c.optimizer.lr * factor);
    QCOMPARE(r.config["optimizer"]["lr"].get<double>(), c.optimizer.lr);
  }
}

// val_with_grad changes no number (the same run bit for bit, time and memory aside);
// eval_in_train_mode changes the validation of a model with dropout (dropout active) but not
// the training of the epoch before it.
void TstTeaching::validationMistakesChangeOnlyWhatTheySay() {
  auto run = [](const std::vector<std::string>& mistakes) {
    QTemporaryDir tmp;
    TrainConfig c = moons(mistakes, 3);
    c.model.dropout = 0.3;
    TrainerOptions o;
    o.run_dir = tmp.filePath("run").toStdString();
    Trainer(c, o).run();
    return readRun(o.run_dir);
  };
  const RunRecord plain = run({}), with_grad = run({"val_with_grad"}),
                  train_mode = run({"eval_in_train_mode"});
  QCOMPARE(with_grad.epochs.size(), plain.epochs.size());
  for (size_t i = 0; i < plain.epochs.size(); ++i) {
    QCOMPARE(with_grad.epochs[i].val_loss, plain.epochs[i].val_loss);
    QCOMPARE(with_grad.epochs[i].train_loss, plain.epochs[i].train_loss);
  }
  QCOMPARE(with_grad.steps.back().loss, plain.steps.back().loss);
  QCOMPARE(train_mode.epochs[0].train_loss, plain.epochs[0].train_loss);
  QVERIFY(train_mode.epochs[0].val_loss != plain.epochs[0].val_loss);
}

// val_with_grad "shows both" (issue 25 §4): after the first validation one validation_cost
// event, read back from events.jsonl, with the pass's seconds and resident-memory growth with
// the graphs kept and under torch.no_grad(). With 10,000 validation samples through a
// 2-256-256-2 MLP the kept graphs hold at least each sample's two 256-wide hidden outputs
// (2 x 10,000 x 256 x 4 bytes = 20.5 MB, by formula); under no_grad one 1,024-sample chunk
// lives at a time (about 4 MB measured). With eval_in_train_mode also on, only the first is
// measured.
void TstTeaching::validationWithGradShowsItsCost() {
  auto run = [](const std::vector<std::string>& mistakes) {
    QTemporaryDir tmp;
    TrainConfig c = moons(mistakes, 2);
    c.data.n_samples = 20000;
    c.data.val_fraction = 0.5;
    c.model.hidden = {256, 256};
    c.model.activation = "relu";
    TrainerOptions o;
    o.run_dir = tmp.filePath("run").toStdString();
    Trainer(c, o).run();
    std::vector<Event> costs;
    for (const Event& e : readRun(o.run_dir).events)
      if (e.kind == EventKind::ValidationCost) costs.push_back(e);
    return costs;
  };
  const std::vector<Event> costs = run({"val_with_grad"});
  QCOMPARE(costs.size(), size_t(1));  // once per run
  const std::vector<double>& v = costs[0].values;
  QCOMPARE(v.size(), size_t(4));
  QCOMPARE(costs[0].epoch, int64_t(1));
  QVERIFY(v[0] > 0 && v[1] > 0);
  // Resident memory is a proxy: the pass under no_grad ran first and freed up to its own growth
  // (v[3]), which the allocator may hand back to the kept graphs without new pages. So the
  // growth seen is at least the graphs' bytes less that (it fell 0.5 MB short of the bare
  // formula once in three full runs).
  const double kept_lower_bound = 2.0 * 10000 * 256 * 4 - v[3];
  QVERIFY2(v[2] >= kept_lower_bound,
           qPrintable(QStringLiteral("%1 < %2").arg(v[2]).arg(kept_lower_bound)));
  QVERIFY2(v[3] < v[2] / 4, qPrintable(QStringLiteral("%1 vs %2").arg(v[3]).arg(v[2])));
  QVERIFY(run({}).empty());
  const std::vector<Event> both = run({"val_with_grad", "eval_in_train_mode"});
  QCOMPARE(both.size(), size_t(1));
  QVERIFY(both[0].values[2] >= kept_lower_bound && std::isnan(both[0].values[1]));
}

// augment_validation (issue 48 §1): the validation images go through the training
// augmentation. Against the same run without the mistake (same seed): training is the same
// step for step (the validation's draws come from generators of their own); the validation
// loss differs; one augmented_validation event after the first validation whose clean loss is
// the plain run's validation loss of that epoch (the same weights, evaluated as they should be)
// and whose augmented loss is the run's own; rotated, shifted, flipped images are harder than
// the clean ones for a model that saw 2 epochs of them (augmented loss above the clean one).
// run.json records applied_to ["train", "val"]. Without data.augment the switch is refused.
void TstTeaching::augmentValidationIsMisappliedAndSaid() {
  auto run = [](const std::vector<std::string>& mistakes) {
    QTemporaryDir tmp;
    TrainConfig c = resolveConfig("fashion-mnist-mlp", {},
                                  {"data.limit=1500", "training.epochs=2", "training.seed=3", "training.num_threads=1",
                                   "data.augment.crop_padding=4", "data.augment.hflip=0.5",
                                   "data.augment.rotation=20"});
    c.teaching.mistakes = mistakes;
    TrainerOptions o;
    o.run_dir = tmp.filePath("run").toStdString();
    Trainer(c, o).run();
    std::ifstream in(o.run_dir / "run.json");
    return std::pair{readRun(o.run_dir), nlohmann::json::parse(in)};
  };
  const auto [plain, plain_json] = run({});
  const auto [wrong, wrong_json] = run({"augment_validation"});
  QCOMPARE(wrong.steps.size(), plain.steps.size());
  for (size_t i = 0; i < plain.steps.size(); ++i) QCOMPARE(wrong.steps[i].loss, plain.steps[i].loss);
  QCOMPARE(wrong.epochs.size(), size_t(2));
  for (size_t i = 0; i < 2; ++i) {
    QCOMPARE(wrong.epochs[i].train_loss, plain.epochs[i].train_loss);
    QVERIFY(wrong.epochs[i].val_loss != plain.epochs[i].val_loss);
  }
  std::vector<Event> said;
  for (const Event& e : wrong.events)
    if (e.kind == EventKind::AugmentedValidation) said.push_back(e);
  QCOMPARE(said.size(), size_t(1));
  QCOMPARE(said[0].epoch, int64_t(1));
  const std::vector<double>& v = said[0].values;
  QCOMPARE(v.size(), size_t(4));
  QVERIFY(std::abs(v[0] - wrong.epochs[0].val_loss) <= 1e-9 * std::abs(v[0]));
  QVERIFY(std::abs(v[1] - plain.epochs[0].val_loss) <= 1e-9 * std::abs(v[1]));
  QVERIFY2(v[0] > v[1], qPrintable(QStringLiteral("%1 vs %2").arg(v[0]).arg(v[1])));
  QVERIFY(std::abs(v[3] - *plain.epochs[0].val_accuracy) <= 1e-9);
  QCOMPARE(plain_json["data"]["augmentation"]["applied_to"], nlohmann::json({"train"}));
  QCOMPARE(wrong_json["data"]["augmentation"]["applied_to"], nlohmann::json({"train", "val"}));
  for (const Event& e : plain.events) QVERIFY(e.kind != EventKind::AugmentedValidation);
  TrainConfig bare = presetConfig("fashion-mnist-mlp");
  bare.teaching.mistakes = {"augment_validation"};
  try {
    validate(bare);
    QFAIL("augment_validation without data.augment was accepted");
  } catch (const Error& e) {
    QCOMPARE(e.subject(), std::string("teaching.mistakes"));
    QVERIFY(std::string(e.what()).find("data.augment") != std::string::npos);
  }
}

TRAINSCOPE_TEST_MAIN(TstTeaching)
}  // namespace tst_teaching_suite
#include "tst_teaching.moc"

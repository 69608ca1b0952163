// The loss doctor and the divergence check against chance: the chance levels of the
// data (counted here), real runs that are broken (moons with SGD at lr 1000 or 1e30: diverging),
// not learning (lr 1e-6: flat), labels that carry no signal (a plain libtorch loop on shuffled
// labels: no_signal, never "exploding gradients"), a slow learner at chance whose loss falls
// (not diverged); a reading at every epoch end; a roll-back that starts the evidence afresh; a
// resumed run judged as its uninterrupted twin, also from a checkpoint without the initial loss.
#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <mutex>
#include <thread>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/data/chance.h"
#include "core/data/dataset.h"
#include "core/io/checkpoint_file.h"
#include "core/train/state/train_state_io.h"
#include "core/model/model.h"
#include "core/run/run_reader.h"
#include "core/system/noise.h"
#include "core/system/seed.h"
#include "core/train/monitors/loss_doctor.h"
#include "core/train/monitors/non_finite.h"
#include "core/train/trainer.h"
#include "recording_observer.h"
#include "test_util.h"
#include "unscaled_target_csv.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_loss_doctor_suite {

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

using Recorder = testrun::RecordingObserver;

TrainConfig moons(std::vector<std::string> sets) {
  TrainConfig c = resolveConfig("moons", {}, sets);
  c.training.num_threads = 1;
  return c;
}

const Finding* findingOf(const std::vector<Finding>& v, const std::string& code) {
  for (const auto& f : v)
    if (f.code == code) return &f;
  return nullptr;
}

QString codesOf(const Diagnosis& d) {
  QStringList out;
  for (const auto& f : d.evidence) out << QString::fromStdString(f.code);
  return QString::fromStdString(d.kind) + ": " + out.join(", ");
}

EpochRecord epochOf(int64_t n, double train, double val, std::optional<double> acc) {
  EpochRecord r;
  r.epoch = n;
  r.step = 10 * n;
  r.train_loss = train;
  r.val_loss = val;
  r.val_accuracy = acc;
  return r;
}

}  // namespace

class TstLossDoctor : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void chanceLevelsOfTheData();
  void hugeLearningRatesAreDiverging();
  void batchNormKeepsAHugeLearningRateFiniteButItDiverges();
  void tinyLearningRateIsFlat();
  void shuffledLabelsCarryNoSignal();
  void slowLearnerAtChanceHasNotDiverged();
  void diagnosedAtEveryEpoch();
  void rollBackStartsTheEvidenceAfresh();
  void unscaledRegressionTargetsFallingAreNotDiverging();
  void growingGradientsWithAFallingLossAreNotAccumulation();
  void flatWithLargeUpdatesAdvisesALowerRate();
  void noSignalOnlyWhereNothingWasLearned();
  void resumedRunIsJudgedAsItsTwin();
  void longRunsAreReadAtSpacedEpochs();

 private:
  QTemporaryDir tmp_;
};

void TstLossDoctor::chanceLevelsOfTheData() {
  // Classification: ln C and the majority class's share of the validation labels, counted.
  const PreparedData m = loadData(moons({}).data);
  const ChanceLevels cm = chanceLevels(m);
  QVERIFY(cm.known && cm.classification);
  QCOMPARE(cm.n_classes, int64_t{2});
  QCOMPARE(cm.loss, std::log(2.0));
  int64_t ones = 0;
  for (int64_t i = 0; i < m.val.size(); ++i) ones += m.val.y[i].item<int64_t>() == 1;
  const double share = static_cast<double>(std::max(ones, m.val.size() - ones)) / m.val.size();
  QCOMPARE(cm.accuracy, share);
  QCOMPARE(cm.n_val, m.val.size());
  // The loss of predicting the training split's class shares (add-one-half smoothed), scored
  // on the validation labels, counted here.
  int64_t train_ones = 0;
  for (int64_t i = 0; i < m.train.size(); ++i) train_ones += m.train.y[i].item<int64_t>() == 1;
  const double q1 = (train_ones + 0.5) / (m.train.size() + 1.0), q0 = 1 - q1;
  const double prior =
      -(ones * std::log(q1) + (m.val.size() - ones) * std::log(q0)) / m.val.size();
  QVERIFY2(std::abs(cm.prior_loss - prior) <= 1e-12,
           qPrintable(QString("%1 vs %2").arg(cm.prior_loss).arg(prior)));
  QVERIFY(cm.prior_loss <= cm.loss + 1e-3);  // never far above ln C
  // Regression: the variance of the training targets (population, about their mean).
  const PreparedData s = loadData(resolveConfig("exploding", {}, {}).data);
  const ChanceLevels cs = chanceLevels(s);
  QVERIFY(cs.known && !cs.classification);
  double sum = 0, sq = 0;
  const int64_t n = s.train.size();
  for (int64_t i = 0; i < n; ++i) sum += s.train.y[i][0].item<float>();
  for (int64_t i = 0; i < n; ++i) sq += std::pow(s.train.y[i][0].item<float>() - sum / n, 2);
  QVERIFY2(std::abs(cs.loss - sq / n) <= 1e-9 * sq / n,
           qPrintable(QString("%1 vs %2").arg(cs.loss).arg(sq / n)));
  QVERIFY(cs.loss > 1000);  // targets x50: variance ~1250
}

void TstLossDoctor::hugeLearningRatesAreDiverging() {
  // SGD at lr 1000 on moons: training losses in the thousands for a 2-class cross-entropy
  // (chance ln 2): a constant prediction does far better. Once reported as healthy.
  for (const char* lr : {"1000", "1e30"}) {
    TrainConfig c = moons({"optimizer.name=\"sgd\"", std::string("optimizer.lr=") + lr,
                           "training.epochs=8", "training.non_finite=\"skip\""});
    Trainer t(c);
    Recorder rec;
    t.addObserver(&rec);
    const RunSummary s = t.run();
    QVERIFY(s.diagnosis);
    QVERIFY2(s.diagnosis->kind == "diverging", qPrintable(codesOf(*s.diagnosis)));
    QCOMPARE(QString::fromStdString(s.diagnosis->checks.at(0).code), QString("lower_lr_10x"));
    if (std::string(lr) != "1000") continue;
    // The evidence is the chance comparison, with its threshold: the mean of the last 3 epochs'
    // training losses (recomputed here) against 10 x ln 2; or, when the training loss happened
    // to fall by a fifth over the 8 epochs (the path at lr 1000 is chaotic: it differs between
    // CPUs by rounding alone), the validation losses' mean against the same threshold.
    const Finding* f = findingOf(s.diagnosis->evidence, "loss_above_chance");
    const bool on_validation = f == nullptr;
    if (on_validation) f = findingOf(s.diagnosis->evidence, "val_loss_above_chance");
    QVERIFY2(f, qPrintable(codesOf(*s.diagnosis)));
    const size_t n = rec.epochs.size();
    QCOMPARE(n, size_t{8});
    auto loss = [&](size_t i) {
      return on_validation ? rec.epochs[i].val_loss : rec.epochs[i].train_loss;
    };
    const double mean = (loss(n - 1) + loss(n - 2) + loss(n - 3)) / 3;
    QVERIFY(mean > 100);
    QVERIFY(std::abs(f->values.at(0) - mean) <= 1e-12 * mean);
    QCOMPARE(f->values.at(1), 3.0);
    // Validation: over 10x ln C. Training (classification): over 1.5x ln C, or over
    // ln C at all when the first steps' loss was already over 2x ln C (here: in the thousands).
    const double factor = on_validation ? 10.0 : 1.0;
    QCOMPARE(f->values.at(2), factor);
    QCOMPARE(f->values.at(3), std::log(2.0));
    QCOMPARE(QString::fromStdString(f->name), QString("cross_entropy"));
    QVERIFY2(f->text.find("over " + std::to_string(int(factor)) + "x the chance loss 0.6931 (ln 2") !=
                 std::string::npos,
             f->text.c_str());
  }
}

void TstLossDoctor::batchNormKeepsAHugeLearningRateFiniteButItDiverges() {
  // SGD at lr 1000 on the fashion-mnist CNN: batch norm keeps every loss finite, the training
  // loss falls from ~1e16 to hundreds and validation accuracy sits at chance. Once called
  // "no signal (labels misaligned?)": it is the learning rate. The validation loss (mean of the
  // last 3 epochs, recomputed here) is over 10 x ln 10 while the training loss is above ln 10.
  TrainConfig c = resolveConfig(
      "fashion-mnist-cnn", {},
      {"data.limit=2000", "optimizer.name=\"sgd\"", "optimizer.lr=1000", "scheduler.name=\"none\"",
       "training.epochs=4", "training.num_threads=1"});
  Trainer t(c);
  Recorder rec;
  t.addObserver(&rec);
  const RunSummary s = t.run();
  QVERIFY(s.diagnosis);
  QVERIFY2(s.diagnosis->kind == "diverging", qPrintable(codesOf(*s.diagnosis)));
  QCOMPARE(QString::fromStdString(s.diagnosis->checks.at(0).code), QString("lower_lr_10x"));
  // Since issue 42 the training loss alone says it too: the first steps threw it over 2x ln 10
  // (to ~1e16), so staying above ln 10 at all (mean of the last 3 epochs) is over chance; that
  // evidence then comes first and the validation's is not repeated.
  const Finding* t_f = findingOf(s.diagnosis->evidence, "loss_above_chance");
  const Finding* v_f = findingOf(s.diagnosis->evidence, "val_loss_above_chance");
  QVERIFY2(t_f || v_f, qPrintable(codesOf(*s.diagnosis)));
  const size_t n = rec.epochs.size();
  QCOMPARE(n, size_t{4});
  double val = 0, train = 0;
  for (size_t i = n - 3; i < n; ++i) {
    QVERIFY(std::isfinite(rec.epochs[i].train_loss) && std::isfinite(rec.epochs[i].val_loss));
    val += rec.epochs[i].val_loss / 3;
    train += rec.epochs[i].train_loss / 3;
  }
  QVERIFY(val > 10 * std::log(10.0) && train > std::log(10.0));
  if (t_f) {
    QVERIFY(std::abs(t_f->values.at(0) - train) <= 1e-12 * train);
    QCOMPARE(t_f->values.at(2), 1.0);
    QCOMPARE(t_f->values.at(3), std::log(10.0));
  } else {
    QVERIFY(std::abs(v_f->values.at(0) - val) <= 1e-12 * val);
    QCOMPARE(v_f->values.at(3), std::log(10.0));
    QVERIFY(std::abs(v_f->values.at(4) - train) <= 1e-12 * train);
  }
}

void TstLossDoctor::tinyLearningRateIsFlat() {
  // lr 1e-6: the loss does not move: flat ("not learning"), not no_signal and not diverging.
  TrainConfig c = moons({"optimizer.name=\"sgd\"", "optimizer.lr=1e-6", "training.epochs=8"});
  Trainer t(c);
  const RunSummary s = t.run();
  QVERIFY(s.diagnosis);
  QVERIFY2(s.diagnosis->kind == "flat", qPrintable(codesOf(*s.diagnosis)));
  QCOMPARE(QString::fromStdString(s.diagnosis->checks.at(0).code), QString("raise_lr"));
  COMPARE_REASON(s.stop_reason, StopReason::Completed);
}

void TstLossDoctor::shuffledLabelsCarryNoSignal() {
  // Labels shuffled against their inputs (each split permuted, so the class shares stay), then
  // the moons model trained by a plain libtorch loop (Adam, lr 0.01, batches of 32): what the
  // engine's epochs would be. The doctor says no_signal with the labels first among the checks;
  // the divergence check stays quiet (the loss is at chance, not above it).
  TrainConfig c = moons({});
  PreparedData data = loadData(c.data);
  at::set_num_threads(1);
  at::Generator g = at::make_generator<at::CPUGeneratorImpl>(123);
  for (TensorPair* p : {&data.train, &data.val})
    p->y = p->y.index_select(0, at::randperm(p->size(), g, at::kLong));
  const ChanceLevels chance = chanceLevels(data);
  seedEverything(42);
  ModelPtr model = buildModel(c.model, data.summary.n_features, 2);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(0.01));
  LossDoctor doctor;
  DivergenceMonitor divergence(2, chance.accuracy);
  CauseSettings settings;
  settings.optimizer = "adam";
  settings.lr = 0.01;
  std::optional<Diagnosis> last;
  for (int64_t epoch = 1; epoch <= 20; ++epoch) {
    const at::Tensor perm = at::randperm(data.train.size(), g, at::kLong);
    double sum = 0;
    model->train();
    for (int64_t b = 0; b < data.train.size(); b += 32) {
      const at::Tensor idx = perm.narrow(0, b, std::min<int64_t>(32, data.train.size() - b));
      opt.zero_grad();
      at::Tensor loss = torch::cross_entropy_loss(model->forward(data.train.x.index_select(0, idx)),
                                                  data.train.y.index_select(0, idx));
      loss.backward();
      opt.step();
      doctor.onStep(loss.item<double>(), true);
      sum += loss.item<double>() * static_cast<double>(idx.size(0));
    }
    torch::NoGradGuard no_grad;
    model->eval();
    const at::Tensor out = model->forward(data.val.x);
    const double val = torch::cross_entropy_loss(out, data.val.y).item<double>();
    const double acc = out.argmax(1).eq(data.val.y).to(at::kDouble).mean().item<double>();
    const EpochRecord r = epochOf(epoch, sum / data.train.size(), val, acc);
    doctor.onEpoch(r);
    QVERIFY2(!divergence.onEpoch(r, settings, "stop"),
             qPrintable(QString("diverged at epoch %1").arg(epoch)));
    DoctorContext context;
    context.chance = chance;
    last = doctor.diagnose(context);
  }
  QVERIFY2(last->kind == "no_signal", qPrintable(codesOf(*last)));
  QCOMPARE(QString::fromStdString(last->checks.at(0).code), QString("check_labels"));
  const Finding* acc = findingOf(last->evidence, "val_at_chance");
  QVERIFY(acc);
  // {accuracy %, epochs, chance %, margin points}: the margin is 2 standard errors of an
  // accuracy at chance over the validation split, or 2 points, the wider.
  const double p = chance.accuracy;
  QCOMPARE(acc->values.at(2), 100 * p);
  QCOMPARE(acc->values.at(3), 100 * std::max(0.02, 2 * std::sqrt(p * (1 - p) / data.val.size())));
  QVERIFY(findingOf(last->evidence, "val_loss_at_chance"));
  // Without the data's chance levels the doctor cannot tell.
  DoctorContext unknown;
  QVERIFY(doctor.diagnose(unknown).kind != "no_signal");
}

void TstLossDoctor::slowLearnerAtChanceHasNotDiverged() {
  // Fashion-MNIST with SGD at lr 0.0003 (10 classes): validation accuracy within 2 points of
  // chance for epochs 3-5 while every loss falls. It was stopped at epoch 5 as diverged ("the
  // learning rate is perhaps too high"); it is learning. A run at chance whose loss is above
  // 1.5 x ln 10 and not falling still diverged (flagged at epoch 5).
  CauseSettings s;
  s.optimizer = "sgd";
  s.lr = 3e-4;
  const double acc[] = {0.1, 0.105, 0.11, 0.115, 0.12, 0.118, 0.119};
  DivergenceMonitor slow(10), broken(10);
  LossDoctor doctor;
  for (int i = 0; i < 10; ++i) doctor.onStep(2.31, true);
  std::vector<int64_t> flagged;
  for (int64_t n = 1; n <= 7; ++n) {
    const double falling = 2.31 - 0.02 * static_cast<double>(n);
    const EpochRecord r = epochOf(n, falling, falling + 0.01, acc[n - 1]);
    QVERIFY2(!slow.onEpoch(r, s, "stop"), qPrintable(QString("epoch %1").arg(n)));
    doctor.onEpoch(r);
    if (broken.onEpoch(epochOf(n, 40, 50, acc[n - 1]), s, "stop")) flagged.push_back(n);
  }
  QCOMPARE(flagged, std::vector<int64_t>{5});
  DoctorContext context;
  context.chance = {true, true, 10, std::log(10.0), 0.1, 1200};
  const Diagnosis d = doctor.diagnose(context);
  QVERIFY2(d.kind != "diverging" && d.kind != "no_signal", qPrintable(codesOf(d)));
  for (const auto& f : d.checks) QVERIFY2(f.code != "lower_lr_10x", qPrintable(codesOf(d)));
}

void TstLossDoctor::unscaledRegressionTargetsFallingAreNotDiverging() {
  // A CSV regression whose targets are around 100 (variance 26: the chance loss), not scaled:
  // Adam at lr 0.003 moves the output bias slowly, so the MSE falls 8752, 7481, 5547 while far
  // above chance. It was called "diverging: the learning rate is too high" (a new user's run);
  // it is learning. Losses that rose above the start (8752, 12000, 11800) diverge; a
  // regression whose loss only stays far above its variance without rising (unscaled targets,
  // or clipping holding it) is not called a rate too high.
  DoctorContext context;
  context.chance = {true, false, 0, 26.37, 0, 150};
  for (const bool falling : {true, false}) {
    LossDoctor doctor;
    for (int i = 0; i < 10; ++i) doctor.onStep(10000, true);
    const double losses[2][3] = {{8752, 7481, 5547}, {8752, 12000, 11800}};
    for (int64_t n = 1; n <= 3; ++n) {
      const double l = losses[falling ? 0 : 1][n - 1];
      doctor.onEpoch(epochOf(n, l, l * 0.9, std::nullopt));
    }
    const Diagnosis d = doctor.diagnose(context);
    QVERIFY2((d.kind == "diverging") != falling, qPrintable(codesOf(d)));
  }
}

void TstLossDoctor::growingGradientsWithAFallingLossAreNotAccumulation() {
  // An unscaled regression target (tests/common/unscaled_target_csv.h, shaped like sklearn's
  // diabetes data, targets around 152): Adam at lr 1e-3 learns slowly, its loss falling at
  // every epoch while the gradient norm grows as the model grows into its targets. It was read
  // "flat" at epoch 3 and "accumulating: optimizer.zero_grad() missing?" from epoch 5 (the
  // engine zeroes the gradients at every step): both wrong. The situation is checked from the
  // run's own records, not from the doctor: the training loss falls at every epoch, and the
  // median gradient norm of the last quarter of the steps is over 4x that of the first 10 (what
  // the accumulating rule looks for).
  const fs::path csv = fs::path(tmp_.path().toStdString()) / "unscaled-target.csv";
  testdata::writeUnscaledTargetCsv(csv);
  TrainConfig c = resolveConfig("housing-csv", {},
                                {"data.csv.path=\"" + csv.string() + "\"",
                                 "data.csv.target=\"target\"", "optimizer.lr=0.001",
                                 "training.epochs=10", "training.seed=5"});
  c.training.num_threads = 1;
  Trainer t(c);
  Recorder rec;
  t.addObserver(&rec);
  t.run();
  QCOMPARE(rec.epochs.size(), size_t{10});
  for (size_t i = 1; i < rec.epochs.size(); ++i)
    QVERIFY2(rec.epochs[i].train_loss < rec.epochs[i - 1].train_loss, qPrintable(QString::number(i)));
  std::vector<double> first, last;
  for (size_t i = 0; i < rec.steps.size(); ++i) {
    if (i < 10) first.push_back(rec.steps[i].grad_norm);
    if (i >= rec.steps.size() * 3 / 4) last.push_back(rec.steps[i].grad_norm);
  }
  QVERIFY2(medianOf(last) > 4 * medianOf(first),
           qPrintable(QString("%1 vs %2").arg(medianOf(last)).arg(medianOf(first))));
  QVERIFY(!rec.diagnoses.empty());
  for (const Diagnosis& d : rec.diagnoses)
    QVERIFY2(d.kind == "healthy" || d.kind == "too_early",
             qPrintable(QString("epoch %1: ").arg(d.epoch) + codesOf(d)));

  // The same doctor on a real accumulation (moons with teaching.mistakes no_zero_grad, whose
  // loss rises while the norm grows) still names zero_grad first.
  Trainer bad(moons({"training.epochs=4", "teaching.mistakes=[\"no_zero_grad\"]"}));
  const RunSummary s = bad.run();
  QVERIFY(s.diagnosis);
  QVERIFY2(s.diagnosis->kind == "accumulating", qPrintable(codesOf(*s.diagnosis)));
  QCOMPARE(QString::fromStdString(s.diagnosis->checks.at(0).code), QString("zero_grad"));
}

void TstLossDoctor::flatWithLargeUpdatesAdvisesALowerRate() {
  // The nan-loss lesson's first remedy: the exploding preset (targets x50, SGD) at lr 0.01. The
  // loss bounces around its start for about 20 epochs while the weights move by a large share
  // of their size at every step: "flat" (what the lesson tells the class), but the advice is a
  // lower rate; "raise the learning rate" (its fourth check before) contradicts the evidence.
  // The update ratios are checked from the run's layer records: the median over the last
  // records of the largest tensor ratio is over 0.05.
  TrainConfig c = resolveConfig("exploding", {}, {"optimizer.lr=0.01", "training.epochs=12"});
  c.training.num_threads = 1;
  Trainer t(c);
  Recorder rec;
  t.addObserver(&rec);
  const RunSummary s = t.run();
  QVERIFY(s.diagnosis);
  QVERIFY2(s.diagnosis->kind == "flat", qPrintable(codesOf(*s.diagnosis)));
  QVERIFY(!rec.layers.empty());
  std::vector<double> largest;
  for (size_t i = rec.layers.size() > 16 ? rec.layers.size() - 16 : 0; i < rec.layers.size(); ++i)
    largest.push_back(*std::max_element(rec.layers[i].update_ratio.begin(),
                                        rec.layers[i].update_ratio.end()));
  QVERIFY2(medianOf(largest) > 0.05, qPrintable(QString::number(medianOf(largest))));
  QCOMPARE(QString::fromStdString(s.diagnosis->checks.at(0).code), QString("lower_lr_10x"));
  QCOMPARE(QString::fromStdString(s.diagnosis->checks.at(1).code),
           QString("standardise_and_scale"));
  for (const Finding& f : s.diagnosis->checks)
    QVERIFY2(f.code != "raise_lr", qPrintable(codesOf(*s.diagnosis)));
}

namespace {

/// A doctor read at every epoch end (as the engine does), fed the epochs {train, val, accuracy}
/// after 10 steps at `initial`, with update-to-weight ratios `update`; the kinds read at each
/// epoch.
std::vector<std::string> readingsOf(const std::vector<std::array<double, 3>>& epochs,
                                    double initial, double update, const DoctorContext& context) {
  LossDoctor doctor;
  for (int i = 0; i < 10; ++i) doctor.onStep(initial, true);
  std::vector<std::string> kinds;
  int64_t n = 0;
  for (const auto& [train, val, acc] : epochs) {
    doctor.onUpdateRatios({update});
    doctor.onEpoch(epochOf(++n, train, val, acc));
    kinds.push_back(doctor.diagnose(context).kind);
  }
  return kinds;
}

QString joined(const std::vector<std::string>& kinds) {
  QStringList out;
  for (const auto& k : kinds) out << QString::fromStdString(k);
  return out.join(' ');
}

}  // namespace

void TstLossDoctor::noSignalOnlyWhereNothingWasLearned() {
  // Three balanced classes, 60 validation samples: chance ln 3, accuracy 1/3, margin
  // 2 * sqrt(1/3 * 2/3 / 60) = 0.1217; predicting the class shares gives ln 3 too.
  DoctorContext context;
  context.chance = {true, true, 3, std::log(3.0), 1.0 / 3, 60, std::log(3.0)};
  const double margin = 2 * std::sqrt((1.0 / 3) * (2.0 / 3) / 60);
  // A slow learner (SGD at a small rate: the weights move by 5e-4 a step, below the healthy
  // 1e-3): both losses fall at every epoch near ln 3, the accuracy rises late. Never
  // "no_signal" (it was, from epoch 4 to 12, on flowers-csv with SGD at lr 0.003).
  const std::vector<std::array<double, 3>> slow = {
      {1.09, 1.085, 0.33}, {1.08, 1.075, 0.33}, {1.07, 1.065, 0.35}, {1.06, 1.055, 0.4},
      {1.05, 1.045, 0.5},  {1.04, 1.035, 0.6},  {1.03, 1.025, 0.7}};
  for (const auto& k : readingsOf(slow, 1.0986, 5e-4, context))
    QVERIFY2(k != "no_signal", qPrintable(joined(readingsOf(slow, 1.0986, 5e-4, context))));
  // The same training losses with the weights moving fast (Adam) and a validation loss that
  // wanders at chance with the accuracy at chance: shuffled labels, named from epoch 3.
  const std::vector<std::array<double, 3>> shuffled = {
      {1.09, 1.10, 0.33}, {1.08, 1.09, 0.35}, {1.07, 1.11, 0.30}, {1.06, 1.10, 0.33},
      {1.05, 1.12, 0.32}, {1.04, 1.11, 0.34}, {1.03, 1.12, 0.33}};
  std::vector<std::string> kinds = readingsOf(shuffled, 1.0986, 0.01, context);
  for (size_t i = 2; i < kinds.size(); ++i) QVERIFY2(kinds[i] == "no_signal", qPrintable(joined(kinds)));
  // Held, an accuracy that wanders to 1.5 margins above chance while the model memorises its
  // training labels (training loss far below chance, validation loss above it) keeps
  // "no_signal"; the same epochs read by a doctor without that history are not "no_signal"
  // (at one margin above chance the accuracy alone says something was learned): the reading
  // holds until the evidence against it is twice the evidence that made it.
  std::vector<std::array<double, 3>> memorising = shuffled;
  const double wandering = 1.0 / 3 + 1.5 * margin;
  for (double t : {0.6, 0.5, 0.4, 0.3, 0.25}) memorising.push_back({t, 1.15, wandering});
  kinds = readingsOf(memorising, 1.0986, 0.01, context);
  for (size_t i = 2; i < kinds.size(); ++i) QVERIFY2(kinds[i] == "no_signal", qPrintable(joined(kinds)));
  const std::vector<std::array<double, 3>> fresh = {
      {0.9, 1.15, wandering}, {0.6, 1.15, wandering}, {0.5, 1.15, wandering},
      {0.4, 1.15, wandering}, {0.3, 1.15, wandering}};
  for (const auto& k : readingsOf(fresh, 1.0986, 0.01, context))
    QVERIFY2(k != "no_signal", qPrintable(joined(readingsOf(fresh, 1.0986, 0.01, context))));
}

void TstLossDoctor::diagnosedAtEveryEpoch() {
  // Observers get the doctor's reading at every epoch end (the Diagnosis tab never goes
  // stale), and the end of the run's reading is summary.json's.
  TrainConfig c = moons({"training.epochs=6"});
  Trainer t(c);
  Recorder rec;
  t.addObserver(&rec);
  const RunSummary s = t.run();
  std::vector<int64_t> epochs;
  for (const auto& d : rec.diagnoses) epochs.push_back(d.epoch);
  QCOMPARE(epochs, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  QVERIFY(s.diagnosis);
  QCOMPARE(QString::fromStdString(s.diagnosis->kind),
           QString::fromStdString(rec.diagnoses.back().kind));
  QVERIFY(s.diagnosis->evidence == rec.diagnoses.back().evidence);
}

void TstLossDoctor::rollBackStartsTheEvidenceAfresh() {
  // A full-batch linear regression at SGD lr 50 overflows within a few steps (non-finite:
  // "diverging"); rolled back to the only snapshot (the start) with lr 50 x 1e-3 and clipping
  // on, it converges. The diagnosis after the roll-back reads the run from the snapshot on.
  TrainConfig c = explodingLinear();
  c.training.epochs = 60;
  c.training.non_finite = "pause";
  c.training.snapshot_every = 100000;  // only the start
  Trainer trainer(c);
  Recorder rec;
  trainer.addObserver(&rec);
  RunSummary s;
  std::thread worker([&] { s = trainer.run(); });
  // The finite-divergence check pauses first (the loss passes 1e4x the first epoch's): go on
  // to the pause on the first non-finite step.
  int handled = 0;
  while (rec.count(EventKind::NonFinite) == 0) {
    QVERIFY(QTest::qWaitFor([&] { return rec.paused_events > handled; }, 20000));
    handled = rec.paused_events;
    if (rec.count(EventKind::NonFinite) == 0) trainer.resume();
  }
  {
    std::lock_guard<std::mutex> l(rec.mutex);
    QVERIFY(!rec.diagnoses.empty());
    QCOMPARE(QString::fromStdString(rec.diagnoses.back().kind), QString("diverging"));
  }
  trainer.rollBack(rec.step_count, 1e-3, /*enable_clipping=*/true);
  if (!QTest::qWaitFor([&] { return rec.count(EventKind::Finished) > 0; }, 30000)) trainer.stop();
  worker.join();
  COMPARE_REASON(s.stop_reason, StopReason::Completed);
  QCOMPARE(rec.count(EventKind::RolledBack), size_t{1});
  QVERIFY(s.diagnosis);
  QVERIFY2(s.diagnosis->kind != "diverging", qPrintable(codesOf(*s.diagnosis)));
  QVERIFY(!findingOf(s.diagnosis->evidence, "non_finite_steps"));
  // Converged: a least-squares line through the sine; its loss fell, then stopped falling.
  QVERIFY2(s.diagnosis->kind == "plateau" || s.diagnosis->kind == "healthy",
           qPrintable(codesOf(*s.diagnosis)));
}

void TstLossDoctor::resumedRunIsJudgedAsItsTwin() {
  // moons 15 epochs, resumed to 30, against the uninterrupted 30: the same reading, evidence
  // and all (the resume is bitwise, so the numbers are equal). Once "flat from the start: raise
  // the learning rate" (the initial loss was taken from the resumed steps).
  const fs::path root = tmp_.path().toStdString();
  auto run = [&](int64_t epochs, const fs::path& dir, const fs::path& resume = {}) {
    TrainConfig c = moons({"training.epochs=" + std::to_string(epochs)});
    TrainerOptions o;
    o.run_dir = dir;
    o.front_end = "test";
    o.resume_from = resume;
    Trainer t(c, o);
    return t.run();
  };
  const RunSummary twin = run(30, root / "twin");
  run(15, root / "h");
  const fs::path last = root / "h" / "checkpoints" / "last.pt";
  const RunSummary resumed = run(30, root / "r", last);
  QVERIFY(twin.diagnosis && resumed.diagnosis);
  QCOMPARE(QString::fromStdString(resumed.diagnosis->kind),
           QString::fromStdString(twin.diagnosis->kind));
  QVERIFY2(twin.diagnosis->kind == "healthy" || twin.diagnosis->kind == "plateau",
           qPrintable(codesOf(*twin.diagnosis)));
  QVERIFY(resumed.diagnosis->evidence == twin.diagnosis->evidence);
  QVERIFY(findingOf(twin.diagnosis->evidence, "initial_loss"));
  // The resumed run's first reading comes before its first step (the Diagnosis tab said "too
  // early to tell" after a Load until the next epoch ended): epoch 15's, as the source run's
  // own reading at its end.
  {
    struct FirstReading : Recorder {
      int64_t steps_at_first = -1;
      void onDiagnosis(const Diagnosis& d) override {
        if (steps_at_first < 0) steps_at_first = static_cast<int64_t>(steps.size());
        Recorder::onDiagnosis(d);
      }
    } rec;
    TrainConfig c = moons({"training.epochs=16"});
    TrainerOptions o;
    o.run_dir = root / "r2";
    o.front_end = "test";
    o.resume_from = last;
    Trainer t(c, o);
    t.addObserver(&rec);
    t.run();
    QVERIFY(!rec.diagnoses.empty());
    QCOMPARE(rec.steps_at_first, int64_t{0});
    QCOMPARE(rec.diagnoses.front().epoch, int64_t{15});
    QVERIFY2(rec.diagnoses.front().kind != "too_early", qPrintable(codesOf(rec.diagnoses.front())));
    const auto source = readRun(root / "h").summary;
    QVERIFY(source && source->diagnosis);
    QCOMPARE(QString::fromStdString(rec.diagnoses.front().kind),
             QString::fromStdString(source->diagnosis->kind));
  }
  // A checkpoint written before the initial loss was kept: the first epoch's training loss
  // stands in, and says so.
  c10::impl::GenericDict dict = readCheckpointDict(last);
  QVERIFY(dict.contains("loss_doctor_state_dict"));
  QCOMPARE(dict.erase("loss_doctor_state_dict"), size_t{1});
  const fs::path old = root / "old.pt";
  writeCheckpointDict(old, dict);
  const RunSummary from_old = run(30, root / "o", old);
  QVERIFY(from_old.diagnosis);
  QVERIFY2(from_old.diagnosis->kind != "flat", qPrintable(codesOf(*from_old.diagnosis)));
  const Finding* init = findingOf(from_old.diagnosis->evidence, "initial_loss_from_epoch");
  QVERIFY2(init, qPrintable(codesOf(*from_old.diagnosis)));
  const std::vector<EpochRecord> history = readHistory(dict, last);
  QCOMPARE(init->values.at(0), history.at(0).train_loss);
}

void TstLossDoctor::longRunsAreReadAtSpacedEpochs() {
  // Issue 44 item 2: a reading costs O(epochs) (51% of a 70,000-epoch run's time, its rate
  // falling 4x): every epoch up to 1,000, then spaced by a thousandth of the epochs so far; a
  // non-finite step is always due. The readings taken equal those of a doctor read every epoch.
  LossDoctor spaced, every;
  std::vector<int64_t> due_at;
  for (int64_t n = 1; n <= 20000; ++n) {
    // a slow healthy learner with noise: 1/sqrt(n) plus a wobble
    const double train = 1.0 / std::sqrt(double(n)) + 0.01 * std::sin(0.7 * double(n));
    const EpochRecord r = epochOf(n, train, train * 1.1, std::nullopt);
    spaced.onStep(train, true, 1.0);
    every.onStep(train, true, 1.0);
    spaced.onEpoch(r);
    every.onEpoch(r);
    if (spaced.readingDue()) {
      due_at.push_back(n);
      if (n % 997 == 0 || n == 1000 || n == 20000 || due_at.size() % 50 == 0) {
        const Diagnosis a = spaced.diagnose(), b = every.diagnose();
        QCOMPARE(a.kind, b.kind);
        QCOMPARE(a.summary, b.summary);
        QCOMPARE(a.epoch, n);
      }
    }
  }
  QVERIFY(due_at.size() >= 1000);
  for (int64_t i = 0; i < 1000; ++i) QCOMPARE(due_at[static_cast<size_t>(i)], i + 1);  // every epoch
  // then spaced: the gap before the reading at epoch n is floor(n / 1000) (1..20)
  for (size_t i = 1000; i < due_at.size(); ++i)
    QCOMPARE(due_at[i] - due_at[i - 1], std::max<int64_t>(1, due_at[i] / 1000));
  QVERIFY2(due_at.size() < 1000 + 19000 / 2, qPrintable(QString::number(due_at.size())));
  // a non-finite step is due at once
  spaced.onStep(std::nan(""), false, std::nan(""));
  QVERIFY(spaced.readingDue());
  QVERIFY(!spaced.readingDue());  // and taken
}

TRAINSCOPE_TEST_MAIN(TstLossDoctor)
}  // namespace tst_loss_doctor_suite
#include "tst_loss_doctor.moc"

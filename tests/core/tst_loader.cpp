// What an engineer expects of a loader (issue 48 §4): training.drop_last counts batches as
// torch.utils.data.DataLoader(drop_last=...) and DistributedSampler do (Debian's python3-torch
// through TRAINSCOPE_TEST_PYTHON), a model that cannot train on a last batch of one sample
// (BatchNorm1d) is refused before the first step naming batch_size and drop_last in one line,
// and drop_last true trains it with the full batches only.
#include <torch/script.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/data/augment/transforms.h"
#include "core/data/batches.h"
#include "core/data/class_balance.h"
#include "core/data/loader.h"
#include "core/errors.h"
#include "core/train/probes/shapes.h"
#include "core/train/trainer.h"
#include "python_runner.h"
#include "test_util.h"
#include "test_main.h"

namespace tst_loader_suite {

using namespace trainscope;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

/// moons with 570 samples: 456 training rows, as the issue's table; batch 5 leaves 91 x 5 + 1.
TrainConfig batchNormConfig(const std::string& script) {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.name = "bn";
  c.data.n_samples = 570;
  c.model.kind = "torchscript";
  c.model.torchscript.path = script;
  c.training.batch_size = 5;
  c.training.epochs = 1;
  c.training.num_threads = 1;
  c.training.seed = 3;
  return c;
}

/// Fashion-MNIST images, augmented: a run whose batches take work to make.
TrainConfig augmentedRun(int64_t limit, std::vector<int64_t> hidden) {
  TrainConfig c = resolveConfig("fashion-mnist-mlp", {}, {});
  c.name = "loader";
  c.data.limit = limit;
  c.model.hidden = std::move(hidden);
  c.training.epochs = 2;
  c.training.batch_size = 64;
  c.training.seed = 9;
  c.training.num_threads = 1;
  c.data.augment.crop_padding = 2;
  c.data.augment.hflip = 0.5;
  c.data.augment.rotation = 20;
  c.data.augment.color_jitter = {0.4, 0.4, 0, 0};
  return c;
}

std::vector<Event> eventsOf(const fs::path& dir, const std::string& what) {
  std::vector<Event> out;
  std::ifstream in(dir / "events.jsonl");
  for (std::string line; std::getline(in, line);) {
    const json j = json::parse(line);
    if (j.value("what", "") == what) {
      Event e;
      e.epoch = j.value("epoch", int64_t{0});
      e.value = j.contains("value") && j["value"].is_number() ? std::optional(j["value"].get<double>())
                                                             : std::nullopt;
      e.message = j.value("message", "");
      out.push_back(e);
    }
  }
  return out;
}

}  // namespace

class TstLoader : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void batchCountsAsDataLoader();
  void lastBatchOfOneIsRefusedBeforeTraining();
  void loaderHandsOutTheIteratorsBatches();
  void workersGiveTheSameRun();
  void dataBoundRunIsSaidOnce();
  void classWeightsAsScikitLearn();
  void weightedSamplerDrawsClassesEqually();
};

void TstLoader::batchCountsAsDataLoader() {
  const std::vector<std::array<int64_t, 3>> cases = {
      {456, 5, 1}, {456, 8, 1}, {64, 64, 1}, {63, 64, 1}, {1000, 7, 3}, {10, 3, 4}, {97, 10, 2}};
  const char* script = R"PY(
import json, sys
from torch.utils.data import DataLoader, DistributedSampler
out = []
for n, b, w in json.loads(sys.argv[1]):
    row = []
    for drop in (False, True):
        data = list(range(n))
        sampler = DistributedSampler(data, num_replicas=w, rank=0, shuffle=False) if w > 1 else None
        batches = list(DataLoader(data, batch_size=b, drop_last=drop, sampler=sampler))
        row.append([len(batches), len(batches[-1]) if batches else 0])
    out.append(row)
print(json.dumps(out))
)PY";
  const testpython::Result r =
      testpython::run({"-c", script, QString::fromStdString(json(cases).dump())});
  QVERIFY2(r.ok, qPrintable(r.why));
  const json ref = json::parse(r.out.toStdString());
  for (size_t k = 0; k < cases.size(); ++k) {
    const auto [n, b, w] = cases[k];
    for (int drop = 0; drop < 2; ++drop) {
      QCOMPARE(batchesPerEpoch(n, b, w, drop), ref[k][drop][0].get<int64_t>());
      QCOMPARE(lastBatchSize(n, b, w, drop), ref[k][drop][1].get<int64_t>());
    }
  }
}

void TstLoader::lastBatchOfOneIsRefusedBeforeTraining() {
  QTemporaryDir tmp;
  const fs::path script = fs::path(tmp.path().toStdString()) / "bn.pt";
  const testpython::Result r = testpython::run(
      {"-c",
       "import sys, torch, torch.nn as nn\n"
       "torch.manual_seed(0)\n"
       "m = nn.Sequential(nn.Linear(2, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))\n"
       "torch.jit.script(m).save(sys.argv[1])\n",
       QString::fromStdString(script.string())});
  QVERIFY2(r.ok, qPrintable(r.why));
  TrainConfig c = batchNormConfig(script.string());
  // Refused before the first step (the dry run's check too), in one line naming both keys
  std::string why;
  try {
    Trainer::check(c, TrainerOptions{});
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("training.drop_last"));
    why = e.what();
  }
  QVERIFY2(why.find("training.batch_size 5") != std::string::npos &&
               why.find("456 = 91 x 5 + 1") != std::string::npos &&
               why.find("training.drop_last true") != std::string::npos &&
               why.find("Expected more than 1 value per channel") != std::string::npos &&
               why.find('\n') == std::string::npos,
           why.c_str());
  // A run says the same and writes nothing that trained
  TrainerOptions o;
  o.run_dir = fs::path(tmp.path().toStdString()) / "refused";
  QVERIFY(!errorOf([&] { Trainer(c, o).run(); }).empty());
  // drop_last: 91 full batches an epoch, the last sample left out (a new one each epoch)
  c.training.drop_last = true;
  c.training.epochs = 2;
  o.run_dir = fs::path(tmp.path().toStdString()) / "dropped";
  const RunSummary s = Trainer(c, o).run();
  COMPARE_REASON(s.stop_reason, StopReason::Completed);
  QCOMPARE(s.global_step, int64_t{2 * 91});
  // the dry run refuses it too
  c.training.drop_last = false;
  QVERIFY(errorOf([&] { shapeReport(c); }).find("456 = 91 x 5 + 1") != std::string::npos);
  c.training.drop_last = true;
  // too few samples for one batch
  c.training.batch_size = 500;
  const std::string none = errorOf([&] { Trainer::check(c, TrainerOptions{}); });
  QVERIFY2(none.find("no batch is left") != std::string::npos, none.c_str());
  // The error line of a TorchScript failure is its last line, not the traceback
  torch::jit::Module m = torch::jit::load(script.string());
  m.train();
  try {
    m.forward({torch::zeros({1, 2})});
    QFAIL("BatchNorm1d trained on one sample");
  } catch (const std::exception& e) {
    const std::string line = errorLine(e);
    QVERIFY2(line.find('\n') == std::string::npos &&
                 line.find("Expected more than 1 value per channel") != std::string::npos,
             line.c_str());
  }
}

void TstLoader::loaderHandsOutTheIteratorsBatches() {
  // Workers 0..3, prefetch 1..3, from the epoch's start or a resumed batch: batch i is
  // BatchIterator::batch(i), bit for bit; stopping mid-epoch returns promptly.
  const TrainConfig c = augmentedRun(400, {8});
  const PreparedData data = loadData(c.data);
  auto aug = std::make_shared<const augment::Augmentation>(c.data.augment, data.summary.image_shape);
  BatchIterator iter(data.train, 32, /*shuffle=*/true);
  iter.setAugmentation(aug, 9);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(3);
  iter.startEpoch(gen, 2);
  const int64_t batches = iter.batchesPerEpoch();
  QCOMPARE(batches, int64_t{10});
  for (int64_t workers : {0, 1, 3})
    for (int64_t prefetch : {1, 3})
      for (int64_t first : {0, 4}) {
        BatchLoader loader(iter, workers, prefetch);
        loader.startEpoch(first);
        for (int64_t i = first; i < batches; ++i) {
          double waited = -1;
          const TensorPair b = loader.next(i, &waited);
          QVERIFY(waited >= 0);
          const TensorPair want = iter.batch(i);
          QVERIFY2(at::equal(b.x, want.x) && at::equal(b.y, want.y),
                   qPrintable(QString("workers %1 prefetch %2 batch %3").arg(workers).arg(prefetch).arg(i)));
        }
      }
  BatchLoader loader(iter, 3, 2);
  loader.startEpoch(0);
  (void)loader.next(0, nullptr);
  QElapsedTimer t;
  t.start();
  loader.stop();  // workers finish at most the batch they are making
  QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
}

void TstLoader::workersGiveTheSameRun() {
  // The same seed trains the same steps with 0, 1 or 3 workers (DataLoader's batches depend
  // on num_workers; these do not); steps.csv gains data_wait, run.json the loader.
  QTemporaryDir tmp;
  const fs::path root = tmp.path().toStdString();
  for (int64_t w : {0, 1, 3}) {
    TrainConfig c = augmentedRun(400, {16});
    c.data.workers = w;
    TrainerOptions o;
    o.run_dir = root / ("w" + std::to_string(w));
    COMPARE_REASON(Trainer(c, o).run().stop_reason, StopReason::Completed);
    const json run = json::parse(testfiles::readText(o.run_dir / "run.json"));
    QCOMPARE(run["loader"]["workers"].get<int64_t>(), w);
    QCOMPARE(run["loader"]["prefetch"].get<int64_t>(), int64_t{2});
    const auto steps = testfiles::readCsv(testfiles::qpath(o.run_dir / "steps.csv"));
    QVERIFY(steps && steps->column("data_wait") >= 0);
    for (int r = 0; r < steps->rows.size(); ++r)
      QVERIFY(steps->cell(r, "data_wait").toDouble() >= 0);
  }
  COMPARE_RUN_CSV(root / "w0" / "steps.csv", root / "w1" / "steps.csv");
  COMPARE_RUN_CSV(root / "w0" / "steps.csv", root / "w3" / "steps.csv");
  COMPARE_RUN_CSV(root / "w0" / "metrics.csv", root / "w3" / "metrics.csv");
  // auto: 0 workers without augmentation, at least 1 with it
  TrainConfig c = augmentedRun(400, {16});
  QVERIFY(chooseWorkers(c.data) >= 1);
  c.data.augment = AugmentConfig{};
  QCOMPARE(chooseWorkers(c.data), int64_t{0});
}

void TstLoader::dataBoundRunIsSaidOnce() {
  // Known from how the runs are made: rotating and jittering 16,000 images on the training
  // thread (workers 0) for a model of 8 hidden units takes most of each step and about a second
  // an epoch here (0.8 s; the floor is 0.2 s); a model of 2 x 512 units on plain batches waits for them a few per cent of the
  // time; the overfit-sine preset (40 samples, steps of microseconds) spends a large share
  // of almost nothing slicing its batches, which no worker would change. The first is said
  // once, naming data.workers; the others never.
  QTemporaryDir tmp;
  const fs::path root = tmp.path().toStdString();
  TrainConfig bound = augmentedRun(20000, {8});
  bound.data.workers = 0;
  bound.training.epochs = 1;
  TrainerOptions o;
  o.run_dir = root / "bound";
  Trainer(bound, o).run();
  const auto said = eventsOf(o.run_dir, "data_bound");
  QCOMPARE(said.size(), size_t{1});
  QVERIFY2(*said[0].value > 0.5, qPrintable(QString::number(*said[0].value)));
  QVERIFY(said[0].message.find("data.workers, now 0") != std::string::npos);
  TrainConfig healthy = augmentedRun(1000, {512, 512});
  healthy.data.augment = AugmentConfig{};
  healthy.training.epochs = 3;
  o.run_dir = root / "healthy";
  Trainer(healthy, o).run();
  QVERIFY(eventsOf(o.run_dir, "data_bound").empty());
  TrainConfig tiny = resolveConfig("overfit-sine", {}, {"training.epochs=100"});
  tiny.data.workers = 0;
  TrainerOptions t;
  t.run_dir = root / "tiny";
  Trainer(tiny, t).run();
  QVERIFY(eventsOf(t.run_dir, "data_bound").empty());
  const auto steps = testfiles::readCsv(testfiles::qpath(o.run_dir / "steps.csv"));
  double wait = 0;
  for (int r = 0; r < steps->rows.size(); ++r) wait += steps->cell(r, "data_wait").toDouble();
  const auto metrics = testfiles::readCsv(testfiles::qpath(o.run_dir / "metrics.csv"));
  double train_seconds = 0;
  for (int r = 0; r < metrics->rows.size(); ++r)
    train_seconds += 800.0 / metrics->cell(r, "samples_per_second").toDouble();
  qInfo("plain batches, 2 x 512 units: %.1f %% of the training time waiting for data",
        100 * wait / train_seconds);
  QVERIFY(wait / train_seconds < 0.2);
}

void TstLoader::classWeightsAsScikitLearn() {
  // "balanced" equals sklearn.utils.class_weight.compute_class_weight on the same labels
  std::vector<int64_t> labels;
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < (c == 0 ? 700 : c == 1 ? 200 : c == 2 ? 90 : 10); ++i) labels.push_back(c);
  const testpython::Result r = testpython::run(
      {"-c",
       "import json, sys, numpy as np\n"
       "from sklearn.utils.class_weight import compute_class_weight\n"
       "y = np.array(json.loads(sys.argv[1]))\n"
       "print(json.dumps(compute_class_weight('balanced', classes=np.arange(4), y=y).tolist()))\n",
       QString::fromStdString(json(labels).dump())});
  QVERIFY2(r.ok, qPrintable(r.why));
  const std::vector<double> want = json::parse(r.out.toStdString());
  ClassWeights cw;
  cw.mode = "balanced";
  const std::vector<double> got = classWeights(cw, at::tensor(labels, at::kLong), 4, true);
  QCOMPARE(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) QVERIFY(std::abs(got[k] - want[k]) <= 1e-12 * want[k]);
  // a list: one per class; none: empty
  cw.mode = "list";
  cw.weights = {1, 2, 3};
  QVERIFY(errorOf([&] { classWeights(cw, at::tensor(labels, at::kLong), 4, true); })
              .find("3 weights but the data has 4 classes") != std::string::npos);
  cw.mode = "none";
  QVERIFY(classWeights(cw, at::tensor(labels, at::kLong), 4, true).empty());
  // regression data, and a class without training samples
  cw.mode = "balanced";
  QVERIFY(errorOf([&] { classWeights(cw, at::tensor(labels, at::kLong), 4, false); })
              .find("regression") != std::string::npos);
  QVERIFY(errorOf([&] { classWeights(cw, at::tensor(labels, at::kLong), 5, true); })
              .find("class 4 has no training sample") != std::string::npos);
  // the config's forms: a word or a list; anything else names the key
  TrainConfig c = resolveConfig("moons", {}, {"training.class_weights=[1, 3]"});
  QCOMPARE(c.training.class_weights.mode, std::string("list"));
  QCOMPARE(configToJson(c)["training"]["class_weights"], json({1.0, 3.0}));
  QVERIFY(errorOf([] { resolveConfig("moons", {}, {"training.class_weights=\"equal\""}); })
              .find("training.class_weights must be \"none\", \"balanced\" or a list") !=
          std::string::npos);
  QVERIFY(errorOf([] { resolveConfig("moons", {}, {"training.class_weights=[1, -1]"}); })
              .find("negative") != std::string::npos);
  // A run records the weights it used; the sine regression refuses them before training
  QTemporaryDir tmp;
  TrainConfig run = resolveConfig("moons", {}, {"training.class_weights=\"balanced\"",
                                                "training.epochs=1", "data.n_samples=200"});
  TrainerOptions o;
  o.run_dir = fs::path(tmp.path().toStdString()) / "cw";
  COMPARE_REASON(Trainer(run, o).run().stop_reason, StopReason::Completed);
  const json info = json::parse(testfiles::readText(o.run_dir / "run.json"));
  QCOMPARE(info["class_weights"].size(), size_t{2});
  TrainConfig sine = resolveConfig("overfit-sine", {}, {"training.class_weights=\"balanced\""});
  QVERIFY(errorOf([&] { Trainer::check(sine, TrainerOptions{}); }).find("regression") !=
          std::string::npos);
}

void TstLoader::weightedSamplerDrawsClassesEqually() {
  // 900 samples of class 0 and 100 of class 1: WeightedRandomSampler with 1 / count draws
  // both about equally often (1000 draws: 500 +- 16 sd), a permutation 100 of class 1
  std::vector<int64_t> labels(1000, 0);
  for (int i = 900; i < 1000; ++i) labels[i] = 1;
  TensorPair pool{at::zeros({1000, 2}), at::tensor(labels, at::kLong)};
  BatchIterator it(pool, 1000, /*shuffle=*/true);
  it.setSampleWeights(balancedSampleWeights(pool.y, 2, true));
  auto gen = at::make_generator<at::CPUGeneratorImpl>(5);
  it.startEpoch(gen, 1);
  const int64_t minority = it.batch(0).y.sum().item<int64_t>();
  QVERIFY2(minority > 440 && minority < 560, qPrintable(QString::number(minority)));
  BatchIterator plain(pool, 1000, true);
  auto gen2 = at::make_generator<at::CPUGeneratorImpl>(5);
  plain.startEpoch(gen2, 1);
  QCOMPARE(plain.batch(0).y.sum().item<int64_t>(), int64_t{100});
  // torch.multinomial from the same generator state: the order WeightedRandomSampler draws
  auto gen3 = at::make_generator<at::CPUGeneratorImpl>(5);
  const at::Tensor want = at::multinomial(balancedSampleWeights(pool.y, 2, true), 1000, true, gen3);
  QVERIFY(at::equal(it.batch(0).y, pool.y.index_select(0, want)));
}

TRAINSCOPE_TEST_MAIN(TstLoader)
}  // namespace tst_loader_suite
#include "tst_loader.moc"

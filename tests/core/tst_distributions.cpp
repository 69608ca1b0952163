// Distributions (issue 49 §4): percentiles and histograms of a tensor equal numpy's
// (numpy.percentile, numpy.histogram) on the same values; the dead-ReLU share and the
// activation layers' distributions against a hand-made network whose dead units are known; a
// run reports a reading every training.distributions_every steps whose weights are the model's.
// And the embedding view's t-SNE (issue 49 §2) against scikit-learn's exact TSNE: the same joint
// probabilities, the same KL divergence and gradient, a layout as good.
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <fstream>
#include <limits>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/model/sequential_model.h"
#include "core/run/distribution_records.h"
#include "core/train/probes/tsne.h"
#include "core/train/step/distributions.h"
#include "core/train/trainer.h"
#include "python_runner.h"
#include "test_main.h"
#include "test_util.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_distributions_suite {

using namespace trainscope;

class TstDistributions : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void describeValuesEqualsNumpy();
  void deadShareAndActivationsByHand();
  void trainerReportsReadings();
  void tsneEqualsScikitLearn();
};

/// Tensors of several sizes and shapes (ties, a constant one, one with NaN and inf) against
/// numpy.percentile (linear) and numpy.histogram(v, 30, range=(min, max)) of the same float32
/// values read as float64.
void TstDistributions::describeValuesEqualsNumpy() {
  at::manual_seed(3);
  std::vector<at::Tensor> cases = {
      at::randn({1}),
      at::randn({2}),
      at::randn({7, 3}),
      at::randn({64, 1, 3, 3}) * 0.05,
      at::randint(0, 5, {1000}).to(at::kFloat),  // many ties
      at::full({10}, 0.25f),                     // constant
      at::randn({100003}).exp(),                 // skewed, odd count
  };
  at::Tensor with_bad = at::randn({50});
  with_bad[3] = std::numeric_limits<float>::quiet_NaN();
  with_bad[9] = std::numeric_limits<float>::infinity();
  cases.push_back(with_bad);
  QTemporaryDir dir;
  QStringList files;
  std::vector<TensorDistribution> mine;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const at::Tensor v = cases[i].reshape({-1}).contiguous();
    const QString file = dir.filePath(QStringLiteral("v%1.bin").arg(i));
    std::ofstream(file.toStdString(), std::ios::binary)
        .write(reinterpret_cast<const char*>(v.data_ptr<float>()), static_cast<std::streamsize>(v.numel() * 4));
    files << file;
    mine.push_back(describeValues(cases[i], "t" + std::to_string(i)));
  }
  QCOMPARE(mine.back().finite, false);
  QCOMPARE(mine.back().count, int64_t{48});
  QCOMPARE(mine.front().finite, true);
  const QString script = QStringLiteral(R"(
import sys, json
import numpy as np
q = [0, 6.68, 15.87, 25, 30.85, 50, 69.15, 75, 84.13, 93.32, 100]
out = []
for f in sys.argv[1:]:
    v = np.fromfile(f, dtype=np.float32).astype(np.float64)
    v = v[np.isfinite(v)]
    lo, hi = float(v.min()), float(v.max())
    if hi > lo:
        counts, edges = np.histogram(v, 30, range=(lo, hi))
        limits = edges[1:].tolist()
    else:
        counts, limits = np.array([len(v)]), [hi]
    out.append({"p": np.percentile(v, q).tolist(), "n": len(v), "sum": float(v.sum()),
                "sq": float((v * v).sum()), "counts": counts.tolist(), "limits": limits})
print(json.dumps(out))
)");
  const testpython::Result py = testpython::script(script, files, 120000);
  QVERIFY2(py.ok, qPrintable(py.why));
  const nlohmann::json ref = nlohmann::json::parse(py.out.toStdString());
  double worst = 0;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const TensorDistribution& d = mine[i];
    const nlohmann::json& r = ref[i];
    QCOMPARE(d.name, "t" + std::to_string(i));
    QCOMPARE(d.count, r["n"].get<int64_t>());
    const double scale = std::max(1.0, std::abs(r["p"][10].get<double>()));
    for (std::size_t k = 0; k < kDistributionPercentiles.size(); ++k)
      worst = std::max(worst, std::abs(d.percentiles[k] - r["p"][k].get<double>()) / scale);
    QVERIFY(std::abs(d.sum - r["sum"].get<double>()) <= 1e-9 * std::max(1.0, std::abs(r["sq"].get<double>())));
    QVERIFY(std::abs(d.sum_squares - r["sq"].get<double>()) <= 1e-9 * std::max(1.0, r["sq"].get<double>()));
    QCOMPARE(d.bucket.size(), r["counts"].size());
    for (std::size_t b = 0; b < d.bucket.size(); ++b) {
      QCOMPARE(d.bucket[b], r["counts"][b].get<double>());  // the same values in each bucket
      QCOMPARE(d.bucket_limit[b], r["limits"][b].get<double>());
    }
  }
  qInfo("percentiles against numpy: largest relative difference %.3g", worst);
  QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
  // Nothing finite: no values, no buckets.
  const TensorDistribution none = describeValues(at::full({3}, std::numeric_limits<float>::quiet_NaN()), "x");
  QCOMPARE(none.count, int64_t{0});
  QVERIFY(none.bucket.empty() && !none.finite);
}

/// Linear(2, 4) with zero weights: the ReLU after it outputs max(0, bias), so units with a
/// negative bias are dead on every sample (2 of 4) and the others output their bias; then
/// Linear(4, 3) and Tanh, whose outputs are computed here by hand.
void TstDistributions::deadShareAndActivationsByHand() {
  // deadShare by itself: units (columns) that are 0 in every row.
  const at::Tensor a = at::tensor({0.f, 1.f, 0.f, 0.f, 0.f, 2.f, 0.f, 3.f, 0.f}).reshape({3, 3});
  QCOMPARE(deadShare(a), 1.0 / 3.0);  // column 0 is 0 in every row; 1 (1, 0, 3), 2 (0, 2, 0) not
  QCOMPARE(deadShare(at::zeros({2, 2, 3, 3})), 1.0);
  QVERIFY(std::isnan(deadShare(at::zeros({0, 4}))));

  torch::nn::Sequential seq(torch::nn::Linear(2, 4), torch::nn::ReLU(), torch::nn::Linear(4, 3),
                            torch::nn::Tanh());
  torch::NoGradGuard no_grad;
  auto* first = seq->ptr(0)->as<torch::nn::Linear>();
  first->weight.zero_();
  first->bias.copy_(at::tensor({-1.f, 0.5f, -2.f, 1.5f}));
  SequentialModel model("mlp", seq);
  model.train(true);
  const at::Tensor x = at::randn({10, 2});
  const std::vector<TensorDistribution> acts = activationDistributions(model, x);
  QVERIFY(model.is_training());  // the mode restored
  QCOMPARE(acts.size(), std::size_t{2});
  QCOMPARE(acts[0].name, std::string("1 ReLU"));
  QCOMPARE(acts[1].name, std::string("3 Tanh"));
  QCOMPARE(acts[0].dead_share, 0.5);
  QVERIFY(std::isnan(acts[1].dead_share));  // not a ReLU
  QCOMPARE(acts[0].count, int64_t{40});
  // ReLU outputs: per sample 0, 0.5, 0, 1.5: 20 zeros, 10 x 0.5, 10 x 1.5; the median at rank
  // 0.5 x 39 = 19.5 lies halfway between the last 0 and the first 0.5
  QCOMPARE(acts[0].percentiles[kP0], 0.0);
  QCOMPARE(acts[0].percentiles[kP50], 0.25);
  QCOMPARE(acts[0].percentiles[kP100], 1.5);
  auto* second = seq->ptr(2)->as<torch::nn::Linear>();
  const at::Tensor h = at::tanh(at::linear(at::relu(at::linear(x, first->weight, first->bias)),
                                           second->weight, second->bias));
  const TensorDistribution want = describeValues(h, "3 Tanh");
  for (std::size_t k = 0; k < kDistributionPercentiles.size(); ++k)
    QCOMPARE(acts[1].percentiles[k], want.percentiles[k]);
  // Not a chain of layers: no activations.
  QVERIFY(activationDistributions(model, at::zeros({0, 2})).empty());
}

/// A moons run with distributions every 4 steps: readings at steps 4, 8, ... (each after its
/// step's update), one per parameter tensor for weights and gradients in state_dict order,
/// the activation layers of the MLP over the first validation samples. (That the histograms in
/// the TensorBoard file are the final weights' is checked against last.pt by
/// tests/cli/tensorboard_python.py.)
void TstDistributions::trainerReportsReadings() {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.data.n_samples = 300;
  c.model.hidden = {16, 8};
  c.model.activation = "relu";
  c.training.epochs = 3;
  c.training.num_threads = 1;
  c.training.distributions_every = 4;
  c.checkpoint.save_best = false;
  struct Obs : TrainerObserver {
    std::vector<DistributionRecord> records;
    int64_t last_step = 0;
    bool after_its_step = true;
    void onStep(const StepRecord& s) override { last_step = s.step; }
    void onDistributions(const DistributionRecord& r) override {
      after_its_step = after_its_step && r.step == last_step;
      records.push_back(r);
    }
  } obs;
  QTemporaryDir tmp;
  TrainerOptions o;
  o.run_dir = std::filesystem::path(tmp.path().toStdString()) / "run";
  Trainer t(c, o);
  t.addObserver(&obs);
  const RunSummary s = t.run();
  COMPARE_REASON(s.stop_reason, StopReason::Completed);
  QVERIFY(obs.after_its_step);
  QCOMPARE(static_cast<int64_t>(obs.records.size()), s.global_step / 4);
  for (std::size_t i = 0; i < obs.records.size(); ++i) {
    const DistributionRecord& r = obs.records[i];
    QCOMPARE(r.step, static_cast<int64_t>(4 * (i + 1)));
    QCOMPARE(r.weights.size(), std::size_t{6});
    QCOMPARE(r.gradients.size(), std::size_t{6});
    QCOMPARE(r.weights[0].name, std::string("0.weight"));
    QCOMPARE(r.gradients[5].name, std::string("4.bias"));
    QCOMPARE(r.weights[0].count, int64_t{32});
    QCOMPARE(r.activations.size(), std::size_t{2});
    QCOMPARE(r.activations[0].name, std::string("1 ReLU"));
    QCOMPARE(r.activation_samples, int64_t{60});  // the validation split (300 x 0.2) < 256
    QCOMPARE(r.activations[0].count, int64_t{60 * 16});
    QVERIFY(r.activations[0].dead_share >= 0 && r.activations[0].dead_share <= 1);
  }
  QCOMPARE(obs.records.back().step, s.global_step);  // 3 x 8 steps: the last one is a reading

  // The default (null): at step 10 of the run, every 500 steps and at the end of the last
  // epoch: 160 steps give readings at 10 and 160, the same in every run (files comparable).
  c.training.distributions_every.reset();
  c.training.epochs = 20;
  obs.records.clear();
  Trainer automatic(c, TrainerOptions{});
  automatic.addObserver(&obs);
  const RunSummary auto_summary = automatic.run();
  COMPARE_REASON(auto_summary.stop_reason, StopReason::Completed);
  QCOMPARE(auto_summary.global_step, int64_t{160});
  QCOMPARE(obs.records.size(), std::size_t{2});
  QCOMPARE(obs.records.front().step, int64_t{10});
  QCOMPARE(obs.records.back().step, int64_t{160});
}

/// 300 points in 10 dimensions, three Gaussian clusters: P against
/// sklearn.manifold._t_sne._joint_probabilities, KL and gradient at a layout against
/// _kl_divergence on the same P, and the whole run against TSNE(method="exact") from the same
/// start: the KL divergence within 5% and trustworthiness (5 neighbours) as high within 0.01.
/// A cancelled run stops at once.
void TstDistributions::tsneEqualsScikitLearn() {
  at::manual_seed(11);
  const int64_t n = 300, d = 10;
  const at::Tensor centres = at::randn({3, d}) * 4;
  const at::Tensor x_t = (at::randn({n, d}) + centres.index_select(0, at::arange(n) % 3)).contiguous();
  const std::vector<float> x(x_t.data_ptr<float>(), x_t.data_ptr<float>() + n * d);
  std::vector<double> init(static_cast<std::size_t>(2 * n));
  for (std::size_t i = 0; i < init.size(); ++i) init[i] = 1e-4 * std::sin(0.7 * static_cast<double>(i));
  const std::vector<double> p = tsneJointProbabilities(x, n, d, 30);
  const std::vector<double> y_probe = [&] {
    std::vector<double> y(init.size());
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = std::cos(1.3 * static_cast<double>(i)) * 3;
    return y;
  }();
  std::vector<double> grad;
  const double kl_probe = tsneKlGradient(p, y_probe, n, &grad);
  QElapsedTimer timer;
  timer.start();
  const TsneResult r = tsne(x, n, d, init, TsneOptions{});
  qInfo("t-SNE of %lld points: %d iterations in %.0f ms, KL %.4f", static_cast<long long>(n),
        r.iterations, static_cast<double>(timer.nsecsElapsed()) / 1e6, r.kl_divergence);
  QTemporaryDir dir;
  auto write = [&](const QString& name, const void* data, std::size_t bytes) {
    const QString f = dir.filePath(name);
    std::ofstream(f.toStdString(), std::ios::binary).write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    return f;
  };
  const QStringList files = {write("x.bin", x.data(), x.size() * 4), write("init.bin", init.data(), init.size() * 8),
                             write("p.bin", p.data(), p.size() * 8), write("probe.bin", y_probe.data(), y_probe.size() * 8),
                             write("mine.bin", r.y.data(), r.y.size() * 8)};
  const QString script = QStringLiteral(R"(
import sys, json
import numpy as np
from scipy.spatial.distance import squareform
from sklearn.manifold import TSNE, trustworthiness
from sklearn.manifold._t_sne import _joint_probabilities, _kl_divergence
from sklearn.metrics import pairwise_distances
n, d = 300, 10
x = np.fromfile(sys.argv[1], dtype=np.float32).reshape(n, d).astype(np.float64)
init = np.fromfile(sys.argv[2]).reshape(n, 2)
mine_p = np.fromfile(sys.argv[3]).reshape(n, n)
probe = np.fromfile(sys.argv[4])
mine = np.fromfile(sys.argv[5]).reshape(n, 2)
P = _joint_probabilities(pairwise_distances(x, squared=True), 30, 0)
p_diff = float(np.max(np.abs(squareform(mine_p, checks=False) - P) / P))
kl, grad = _kl_divergence(probe, squareform(mine_p, checks=False), 1, n, 2)
sk = TSNE(n_components=2, method="exact", init=init, perplexity=30, learning_rate="auto",
          n_iter=1000, random_state=0).fit(x)
print(json.dumps({"p_diff": p_diff, "kl": float(kl), "grad": grad.tolist(), "sk_kl": float(sk.kl_divergence_),
                  "sk_trust": float(trustworthiness(x, sk.embedding_, n_neighbors=5)),
                  "my_trust": float(trustworthiness(x, mine, n_neighbors=5))}))
)");
  const testpython::Result py = testpython::script(script, files, 300000);
  QVERIFY2(py.ok, qPrintable(py.why));
  const nlohmann::json ref = nlohmann::json::parse(py.out.toStdString());
  qInfo("P against scikit-learn: largest relative difference %.3g; KL %.5f against %.5f; "
        "trustworthiness %.4f against %.4f", ref["p_diff"].get<double>(), r.kl_divergence,
        ref["sk_kl"].get<double>(), ref["my_trust"].get<double>(), ref["sk_trust"].get<double>());
  QVERIFY2(ref["p_diff"].get<double>() < 1e-5, qPrintable(QString::number(ref["p_diff"].get<double>())));
  QVERIFY(std::abs(kl_probe - ref["kl"].get<double>()) < 1e-10 * std::max(1.0, kl_probe));
  double worst = 0;
  for (std::size_t i = 0; i < grad.size(); ++i)
    worst = std::max(worst, std::abs(grad[i] - ref["grad"][i].get<double>()));
  QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
  QVERIFY(std::abs(r.kl_divergence - ref["sk_kl"].get<double>()) < 0.05 * ref["sk_kl"].get<double>());
  QVERIFY(ref["my_trust"].get<double>() >= ref["sk_trust"].get<double>() - 0.01);
  // Cancelled before it starts: no iteration, the flag reported.
  std::atomic<bool> cancel{true};
  const TsneResult stopped = tsne(x, n, d, init, TsneOptions{}, &cancel);
  QVERIFY(stopped.cancelled);
  QCOMPARE(stopped.iterations, 0);
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tsne(x, 3, d, init, TsneOptions{}));
}

TRAINSCOPE_TEST_MAIN(TstDistributions)
}  // namespace tst_distributions_suite
#include "tst_distributions.moc"

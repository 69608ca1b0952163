// Model view records (core/train/model_view*) and the learning-rate range test
// (core/train/lr_finder*): the decision-region grid equals a direct forward pass on the grid
// points; the curve equals the model on its grid; lr_find leaves model, optimizer and RNG
// state bitwise unchanged and finds a known best lr within a factor of 3.
#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <map>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/model/model.h"
#include "core/optim/optimizer_factory.h"
#include "core/train/monitors/model_view_impl.h"
#include "core/model/grad_cam.h"
#include "core/model/sequential_model.h"
#include "core/train/probes/embedding.h"
#include "core/train/probes/lr_finder_impl.h"
#include "core/train/trainer.h"
#include "test_util.h"
#include "test_main.h"
#include "python_runner.h"

#include <fstream>
#include <numeric>

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_model_view_suite {

using namespace trainscope;

namespace {

struct Views : TrainerObserver {
  std::vector<ModelViewRecord> views;
  void onModelView(const ModelViewRecord& r) override { views.push_back(r); }
};

std::vector<at::Tensor> snapshot(const std::vector<at::Tensor>& ts) {
  std::vector<at::Tensor> out;
  for (const auto& t : ts) out.push_back(t.detach().clone());
  return out;
}

}  // namespace

class TstModelView : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void regionsEqualDirectForward();
  void curveEqualsModel();
  void cnnViewShowsFirstLayerFiltersAndMaps();
  void trainerSendsViews();
  void lrFinderLeavesStateUnchanged();
  void lrFinderFindsKnownBest();
  void lrSuggestionSkipsTheNoisyStart();
  void presetsGenerateData();
  void pcaEqualsNumpySvdAndSklearn();
  void stratifiedPositionsKeepClassShares();
  void trainerSendsTheEmbedding();
  void gradCamEqualsAHandComputation();

 private:
  static double fastaiSuggestion(const std::vector<trainscope::LrFinderPoint>& points);
};

void TstModelView::regionsEqualDirectForward() {
  TrainConfig c = resolveConfig("moons", {}, {});
  const PreparedData data = loadData(c.data);
  torch::manual_seed(3);
  auto model = buildModel(c.model, 2, 2);
  const auto view = computeModelView(*model, data, 0.0);
  QVERIFY(view.has_value());
  QCOMPARE(view->kind, ModelViewRecord::Kind::Regions);
  QCOMPARE(view->grid_w, 60);
  QCOMPARE(view->probability.size(), size_t{3600});
  QVERIFY(model->is_training());  // the mode is put back
  // Direct forward pass, point by point from the documented layout: column i, row j.
  model->eval();
  torch::NoGradGuard g;
  for (int j = 0; j < 60; j += 7)
    for (int i = 0; i < 60; i += 11) {
      const double x0 = view->x0_min + i * (view->x0_max - view->x0_min) / 59;
      const double x1 = view->x1_min + j * (view->x1_max - view->x1_min) / 59;
      at::Tensor in = torch::tensor(
          {{float((x0 - data.summary.preprocessing.mean[0]) / data.summary.preprocessing.std[0]),
            float((x1 - data.summary.preprocessing.mean[1]) / data.summary.preprocessing.std[1])}});
      const float p = torch::softmax(model->forward(in), 1)[0][1].item<float>();
      QVERIFY2(
          std::abs(p - view->probability[j * 60 + i]) < 1e-5,
          qPrintable(
              QString("%1,%2: %3 vs %4").arg(i).arg(j).arg(p).arg(view->probability[j * 60 + i])));
    }
  // Points in raw coordinates: the first training point, standardised, is data.train.x[0].
  QVERIFY(std::abs((view->train_x[0] - data.summary.preprocessing.mean[0]) /
                       data.summary.preprocessing.std[0] -
                   data.train.x[0][0].item<double>()) < 1e-5);
  QCOMPARE(view->train_label[0], int(data.train.y[0].item<int64_t>()));
}

// A CNN's image view carries its first Conv2d's weight and the first block's output for the
// first validation image: equal to conv2d -> batch_norm (running statistics) -> relu computed
// here from the state_dict, with no pooling.
void TstModelView::cnnViewShowsFirstLayerFiltersAndMaps() {
  TrainConfig c = resolveConfig("fashion-mnist-cnn", {}, {"data.limit=300"});
  const PreparedData data = loadData(c.data);
  torch::manual_seed(4);
  auto model = buildModel(c.model, data.summary);
  const auto view = computeModelView(*model, data, 0.0);
  QVERIFY(view.has_value());
  QCOMPARE(view->kind, ModelViewRecord::Kind::Images);
  QCOMPARE(view->filter_count, 32);
  QCOMPARE(view->filter_channels, 1);
  QCOMPARE(view->filter_h, 3);
  QCOMPARE(view->map_count, 32);
  QCOMPARE(view->map_h, 28);
  QCOMPARE(view->map_w, 28);
  std::map<std::string, at::Tensor> sd;
  for (const auto& [name, t] : model->state_dict()) sd[name] = t;
  const at::Tensor w = sd.at("1.weight");
  QVERIFY(at::equal(torch::from_blob(const_cast<float*>(view->filters.data()), w.sizes()), w));
  torch::NoGradGuard no_grad;
  const at::Tensor x = data.val.rows(0, 1).x.view({1, 1, 28, 28});
  const at::Tensor conv = at::conv2d(x, w, sd.at("1.bias"), 1, 1);
  const at::Tensor bn = at::batch_norm(conv, sd.at("2.weight"), sd.at("2.bias"),
                                       sd.at("2.running_mean"), sd.at("2.running_var"), false, 0.1,
                                       1e-5, false);
  const at::Tensor expected = at::relu(bn)[0];
  const at::Tensor got = torch::from_blob(const_cast<float*>(view->feature_maps.data()), {32, 28, 28});
  QVERIFY(at::allclose(got, expected, 1e-5, 1e-6));
  QVERIFY(model->is_training());  // the view put the mode back
}

void TstModelView::curveEqualsModel() {
  TrainConfig c = resolveConfig("overfit-sine", {}, {});
  const PreparedData data = loadData(c.data);
  torch::manual_seed(4);
  auto model = buildModel(c.model, 1, 1);
  const auto view = computeModelView(*model, data, 1.0);
  QVERIFY(view && view->kind == ModelViewRecord::Kind::Curve);
  QCOMPARE(view->grid_x.size(), size_t{200});
  // The exploding preset's targets are 50 sin(x): its true function is scaled the same way.
  const auto scaled = computeModelView(*model, data, 50.0);
  model->eval();
  torch::NoGradGuard g;
  for (size_t k = 0; k < 200; k += 17) {
    const double x = view->grid_x[k];
    QVERIFY(std::abs(view->truth[k] - std::sin(x)) < 1e-12);
    QVERIFY(std::abs(scaled->truth[k] - 50 * std::sin(x)) < 1e-10);
    at::Tensor in = torch::tensor(
        {{float((x - data.summary.preprocessing.mean[0]) / data.summary.preprocessing.std[0])}});
    QVERIFY(std::abs(model->forward(in).item<double>() - view->prediction[k]) < 1e-5);
  }
}

void TstModelView::trainerSendsViews() {
  TrainConfig c = resolveConfig("circles", {}, {});
  c.training.epochs = 3;
  TrainerOptions o;
  o.model_view = true;
  o.model_view_interval_s = 0;  // every epoch
  Trainer t(c, o);
  Views v;
  t.addObserver(&v);
  t.run();
  QCOMPARE(v.views.size(), size_t{3});
  QCOMPARE(v.views.back().epoch, int64_t{3});
  QCOMPARE(v.views.back().kind, ModelViewRecord::Kind::Regions);
  {  // a pause sends one at once, whatever the interval; so does the last epoch
    TrainerOptions paused = o;
    paused.model_view_interval_s = 1e9;
    paused.scheduled_commands.push_back({2, command::Pause{}});
    Trainer tp(c, paused);
    struct ResumeAtPause : Views {
      Trainer* trainer = nullptr;
      void onEvent(const Event& e) override {
        if (e.kind == EventKind::Paused) trainer->resume();
      }
    } vp;
    vp.trainer = &tp;
    tp.addObserver(&vp);
    tp.run();
    QCOMPARE(vp.views.size(), size_t{2});
    QCOMPARE(vp.views[0].step, int64_t{2});
    QCOMPARE(vp.views[0].epoch, int64_t{1});
    QCOMPARE(vp.views[1].epoch, int64_t{3});
  }
  // Off by default.
  Trainer t2(c, {});
  Views v2;
  t2.addObserver(&v2);
  t2.run();
  QVERIFY(v2.views.empty());
}

void TstModelView::lrFinderLeavesStateUnchanged() {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.model.dropout = 0.3;  // dropout draws from the global generator
  const PreparedData data = loadData(c.data);
  torch::manual_seed(5);
  auto model = buildModel(c.model, 2, 2);
  auto params = model->parameters();
  auto opt = makeOptimizer(c.optimizer, params);
  // Give the optimizer state (Adam moments) by one step.
  auto out = model->forward(data.train.x.narrow(0, 0, 32));
  torch::nn::functional::cross_entropy(out, data.train.y.narrow(0, 0, 32)).backward();
  opt->step();
  const auto before = snapshot(params);
  std::vector<at::Tensor> moments;
  for (const auto& p : params) {
    auto& st = static_cast<torch::optim::AdamParamState&>(
        *opt->state().at(c10::guts::to_string(p.unsafeGetTensorImpl())));
    moments.push_back(st.exp_avg().clone());
    moments.push_back(st.exp_avg_sq().clone());
  }
  const at::Tensor rng = at::detail::getDefaultCPUGenerator().get_state();
  const LrFinderResult r = runLrFinder(*model, c.optimizer, data.train, true, 32, 1, {});
  QVERIFY(r.points.size() >= 10);
  QVERIFY(r.suggested_lr > 0);
  for (size_t i = 0; i < params.size(); ++i) QVERIFY(torch::equal(params[i], before[i]));
  size_t k = 0;
  for (const auto& p : params) {
    auto& st = static_cast<torch::optim::AdamParamState&>(
        *opt->state().at(c10::guts::to_string(p.unsafeGetTensorImpl())));
    QVERIFY(torch::equal(st.exp_avg(), moments[k++]));
    QVERIFY(torch::equal(st.exp_avg_sq(), moments[k++]));
  }
  QCOMPARE(currentLr(*opt), c.optimizer.lr);
  QVERIFY(torch::equal(at::detail::getDefaultCPUGenerator().get_state(), rng));
  // The curve: lrs grow exponentially from 1e-7 by (1e8)^(1/99) per step.
  QCOMPARE(r.points[0].lr, 1e-7);
  QVERIFY(std::abs(r.points[1].lr / r.points[0].lr - std::pow(1e8, 1.0 / 99)) < 1e-9);
  // The debiased EMA starts at the loss.
  QVERIFY(std::abs(r.points[0].smoothed_loss - r.points[0].loss) < 1e-12 * r.points[0].loss);
}

void TstModelView::lrFinderFindsKnownBest() {
  // Least squares y = 3x with one Linear(1, 1), full batch, SGD: x standardised, so the loss
  // (w - 3)^2 + b^2 has Hessian 2 I: plain gradient descent converges fastest at lr = 1/2 (one
  // step to the minimum) and diverges above 1.
  const int64_t n = 256;
  torch::manual_seed(6);
  at::Tensor x = torch::randn({n, 1});
  x = (x - x.mean()) / x.std(0, false);
  TensorPair train{x, 3 * x};
  ModelConfig linear;
  linear.hidden = {};
  ModelPtr model = buildModel(linear, 1, 1);  // Linear(1, 1)
  OptimizerConfig sgd;
  sgd.name = "sgd";
  sgd.lr = 0.1;
  LrFinderOptions o;
  o.steps = 30;
  const LrFinderResult r = runLrFinder(*model, sgd, train, false, n, 1, o);
  QVERIFY2(r.suggested_lr > 0.5 / 3 && r.suggested_lr < 0.5 * 3,
           qPrintable(QString::number(r.suggested_lr)));
  // With the default 100 steps the loss is mostly gone before the lr reaches 1/2 (each step
  // contracts it by (1 - 2 lr)^2) and the EMA lags: the suggestion is fastai v1's literal rule,
  // np.gradient(losses[10:-5]).argmin() over equally spaced log(lr), below 1/2 but well above
  // the lrs that do nothing.
  const LrFinderResult d = runLrFinder(*model, sgd, train, false, n, 1, {});
  QCOMPARE(d.suggested_lr, fastaiSuggestion(d.points));
  QVERIFY2(d.suggested_lr > 0.01 && d.suggested_lr < 1,
           qPrintable(QString::number(d.suggested_lr)));
}

double TstModelView::fastaiSuggestion(const std::vector<LrFinderPoint>& points) {
  // fastai v1 Recorder.plot(skip_start=10, skip_end=5, suggestion=True), with numpy.gradient
  // over the index: (f[i+1] - f[i-1]) / 2 inside, one-sided differences at both ends.
  std::vector<double> f, lr;
  for (size_t i = 10; i + 5 < points.size(); ++i) {
    f.push_back(points[i].smoothed_loss);
    lr.push_back(points[i].lr);
  }
  size_t best = 0;
  double best_g = INFINITY;
  for (size_t i = 0; i < f.size(); ++i) {
    const double g = i == 0              ? f[1] - f[0]
                     : i + 1 == f.size() ? f[i] - f[i - 1]
                                         : (f[i + 1] - f[i - 1]) / 2;
    if (g < best_g) {
      best_g = g;
      best = i;
    }
  }
  return lr[best];
}

void TstModelView::lrSuggestionSkipsTheNoisyStart() {
  // A sweep whose smoothed loss drops steeply after its first point (a noisy first batch) and
  // otherwise falls fastest at point 60: fastai's rule ignores the first 10 points, so the
  // suggestion is point 60's lr, not point 0's.
  std::vector<LrFinderPoint> points(100);
  for (size_t i = 0; i < points.size(); ++i) {
    points[i].lr = 1e-7 * std::pow(1e8, static_cast<double>(i) / 99);
    points[i].smoothed_loss = 2.0 - 0.5 * std::tanh((static_cast<double>(i) - 60) / 4);
    if (i == 0) points[i].smoothed_loss += 5;  // drops by 5 between points 0 and 1
    points[i].loss = points[i].smoothed_loss;
  }
  QCOMPARE(suggestLearningRate(points, false), points[60].lr);
  // Too short a sweep to skip anything: every point counts (the one-sided drop at point 0 wins).
  points.resize(12);
  QCOMPARE(suggestLearningRate(points, false), points[0].lr);
}

void TstModelView::presetsGenerateData() {
  // circles: radii 1 and 0.5 (noise aside); spirals: two arms; deterministic from the seed.
  for (const char* name : {"circles", "spirals", "overfit-moons"}) {
    TrainConfig c = resolveConfig(name, {}, {});
    const PreparedData a = loadData(c.data), b = loadData(c.data);
    QVERIFY(torch::equal(a.train.x, b.train.x));
    QCOMPARE(a.summary.n_classes, int64_t{2});
    QCOMPARE(a.summary.n_features, int64_t{2});
  }
  TrainConfig c = resolveConfig("circles", {}, {});
  c.data.noise = 0;
  c.data.standardize = false;
  const PreparedData d = loadData(c.data);
  at::Tensor r = d.train.x.norm(2, 1);
  at::Tensor expect = torch::where(d.train.y == 0, torch::ones_like(r), 0.5 * torch::ones_like(r));
  QVERIFY(torch::allclose(r, expect, 1e-5, 1e-6));
}

/// Issue 49 §2: PCA of 5,000 x 128 features equals numpy's SVD of the centred features to
/// 1e-5 up to each component's sign, and scikit-learn's PCA(svd_solver="full") with the sign
/// (svd_flip's rule) too.
void TstModelView::pcaEqualsNumpySvdAndSklearn() {
  at::manual_seed(7);
  // Structured features: a few strong directions plus noise, shifted off the origin.
  const at::Tensor basis = at::randn({6, 128}, at::kDouble);
  const at::Tensor x = (at::randn({5000, 6}, at::kDouble) * at::tensor({5.0, 4.0, 3.0, 2.0, 1.5, 1.0}, at::kDouble))
                           .matmul(basis) +
                       0.1 * at::randn({5000, 128}, at::kDouble) + 3.0;
  QElapsedTimer timer;
  timer.start();
  const Pca p = pca(x.to(at::kFloat), 2);
  qInfo("PCA of 5000 x 128: %.0f ms", static_cast<double>(timer.nsecsElapsed()) / 1e6);
  QCOMPARE(p.k, int64_t{2});
  QTemporaryDir dir;
  const QString file = dir.filePath(QStringLiteral("x.bin"));
  const at::Tensor xf = x.to(at::kFloat).to(at::kDouble).contiguous();  // what pca() saw
  std::ofstream(file.toStdString(), std::ios::binary)
      .write(reinterpret_cast<const char*>(xf.data_ptr<double>()), static_cast<std::streamsize>(xf.numel() * 8));
  const QString script = QStringLiteral(R"(
import sys, json
import numpy as np
from sklearn.decomposition import PCA
x = np.fromfile(sys.argv[1], dtype=np.float64).reshape(5000, 128)
c = x - x.mean(0)
u, s, vt = np.linalg.svd(c, full_matrices=False)
proj = (u[:, :2] * s[:2])
ratio = (s ** 2 / (s ** 2).sum())[:2]
sk = PCA(n_components=2, svd_solver="full").fit(x)
print(json.dumps({"proj": proj.ravel().tolist(), "comp": vt[:2].ravel().tolist(), "ratio": ratio.tolist(),
                  "sk_proj": sk.transform(x).ravel().tolist(), "sk_comp": sk.components_.ravel().tolist()}))
)");
  const testpython::Result py = testpython::script(script, {file}, 120000);
  QVERIFY2(py.ok, qPrintable(py.why));
  const nlohmann::json ref = nlohmann::json::parse(py.out.toStdString());
  double worst = 0, worst_sk = 0;
  for (int c = 0; c < 2; ++c) {
    // numpy's sign may differ per component: take the sign that matches
    double same = 0, flipped = 0;
    for (int i = 0; i < 5000; ++i) {
      const double mine = p.projected[static_cast<std::size_t>(i * 2 + c)];
      const double theirs = ref["proj"][i * 2 + c].get<double>();
      same = std::max(same, std::abs(mine - theirs));
      flipped = std::max(flipped, std::abs(mine + theirs));
      worst_sk = std::max(worst_sk, std::abs(mine - ref["sk_proj"][i * 2 + c].get<double>()));
    }
    for (int j = 0; j < 128; ++j)
      worst_sk = std::max(worst_sk, std::abs(p.components[static_cast<std::size_t>(c * 128 + j)] -
                                             ref["sk_comp"][c * 128 + j].get<double>()));
    worst = std::max(worst, std::min(same, flipped));
    QVERIFY(std::abs(p.explained_variance_ratio[static_cast<std::size_t>(c)] - ref["ratio"][c].get<double>()) < 1e-9);
  }
  qInfo("PCA against numpy (up to sign): %.3g; against scikit-learn (with sign): %.3g", worst, worst_sk);
  QVERIFY2(worst < 1e-5, qPrintable(QString::number(worst)));
  QVERIFY2(worst_sk < 1e-5, qPrintable(QString::number(worst_sk)));
  // Deterministic: the same input, the same numbers.
  QCOMPARE(pca(x.to(at::kFloat), 2).projected, p.projected);
}

void TstModelView::stratifiedPositionsKeepClassShares() {
  // 6,000 / 3,000 / 1,000 samples, interleaved; 5,000 kept: 3,000 / 1,500 / 500
  std::vector<int64_t> y;
  for (int i = 0; i < 10000; ++i) y.push_back(i % 10 < 6 ? 0 : i % 10 < 9 ? 1 : 2);
  const at::Tensor labels = at::tensor(y, at::kLong);
  const std::vector<int64_t> a = stratifiedPositions(labels, 5000, 1);
  QCOMPARE(a.size(), std::size_t{5000});
  int counts[3] = {0, 0, 0};
  for (std::size_t i = 0; i < a.size(); ++i) {
    ++counts[y[static_cast<std::size_t>(a[i])]];
    if (i > 0) QVERIFY(a[i] > a[i - 1]);  // sorted, no repeats
  }
  QCOMPARE(counts[0], 3000);
  QCOMPARE(counts[1], 1500);
  QCOMPARE(counts[2], 500);
  QCOMPARE(stratifiedPositions(labels, 5000, 1), a);  // seeded
  QVERIFY(stratifiedPositions(labels, 5000, 2) != a);
  // A rare class keeps at least one sample; fewer samples than asked: all of them.
  std::vector<int64_t> rare(9999, 0);
  rare.push_back(1);
  const std::vector<int64_t> r = stratifiedPositions(at::tensor(rare, at::kLong), 100, 3);
  QCOMPARE(r.size(), std::size_t{100});
  QCOMPARE(r.back(), int64_t{9999});
  QCOMPARE(stratifiedPositions(at::tensor(std::vector<int64_t>{1, 0, 1}, at::kLong), 5000, 1),
           (std::vector<int64_t>{0, 1, 2}));
}

/// A dashboard's run gets the embedding with its validation detail: every validation sample
/// (fewer than 5,000), their true classes, in the last hidden layer's width; the points are
/// the PCA of the features the model computes before its last layer, checked here by running
/// the layers by hand.
void TstModelView::trainerSendsTheEmbedding() {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.data.n_samples = 400;
  c.model.hidden = {16, 8};
  c.model.activation = "relu";
  c.model.dropout = 0;
  c.training.epochs = 2;
  c.training.num_threads = 1;
  c.checkpoint.save_last = false;
  c.checkpoint.save_best = false;
  struct Obs : TrainerObserver {
    std::vector<ValidationDetail> details;
    void onValidationDetail(const ValidationDetail& d) override { details.push_back(d); }
  } obs;
  TrainerOptions o;
  o.validation_detail = true;
  Trainer t(c, o);
  t.addObserver(&obs);
  COMPARE_REASON(t.run().stop_reason, StopReason::Completed);
  QVERIFY(!obs.details.empty());
  const EmbeddingRecord& e = obs.details.front().embedding;
  QCOMPARE(e.features, int64_t{8});
  const PreparedData data = loadData(c.data);
  QCOMPARE(static_cast<int64_t>(e.x.size()), data.val.size());
  for (std::size_t i = 0; i < e.label.size(); ++i)
    QCOMPARE(e.label[i], data.val.y[e.position[i]].item<int64_t>());
  QVERIFY(e.explained_variance_ratio.size() == 2 && e.explained_variance_ratio[0] >= e.explained_variance_ratio[1]);
  // embedValidation on a model of the same shape: the PCA of the features the layers before
  // the last one give, run here by hand (Linear, ReLU, Linear, ReLU).
  at::manual_seed(5);
  ModelPtr model = buildModel(c.model, data.summary);
  std::vector<int64_t> all(static_cast<std::size_t>(data.val.size()));
  std::iota(all.begin(), all.end(), 0);
  const EmbeddingRecord mine = embedValidation(*model, data, all, 1);
  NamedTensors sd = model->state_dict();
  std::map<std::string, at::Tensor> w(sd.begin(), sd.end());
  torch::NoGradGuard no_grad;
  const at::Tensor x = data.val.inputs();
  const at::Tensor h = at::relu(at::linear(at::relu(at::linear(x, w["0.weight"], w["0.bias"])),
                                           w["2.weight"], w["2.bias"]));
  const Pca ref = pca(h, 2);
  QCOMPARE(mine.features, int64_t{8});
  QCOMPARE(mine.x.size(), static_cast<std::size_t>(data.val.size()));
  for (std::size_t i = 0; i < mine.x.size(); ++i)
    QVERIFY(std::abs(mine.x[i] - ref.projected[i * 2]) < 1e-4 && std::abs(mine.y[i] - ref.projected[i * 2 + 1]) < 1e-4);
  QVERIFY(model->is_training());  // the mode restored
  // A diverged model (NaN weights): no embedding, no error (the SVD would fail on NaN).
  for (const at::Tensor& p : model->parameters()) p.fill_(std::numeric_limits<double>::quiet_NaN());
  QCOMPARE(embedValidation(*model, data, all, 2).features, int64_t{0});
}

/// Issue 49 §3: Grad-CAM on a tiny network, Conv2d(1, 2, 3) ReLU Flatten Linear(32, 3) on a
/// 6x6 image, against a hand computation: the class score is linear in the feature maps, so
/// its gradient is the Linear layer's row of weights (reshaped [2, 4, 4]); alpha_k their mean,
/// the map sum_k alpha_k A_k, upsampled to 6x6 by bilinear interpolation written out here
/// (align_corners false: source = (i + 0.5) * 4 / 6 - 0.5, clamped at the edges).
void TstModelView::gradCamEqualsAHandComputation() {
  at::manual_seed(11);
  torch::nn::Sequential seq(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 2, 3)), torch::nn::ReLU(),
                            torch::nn::Flatten(), torch::nn::Linear(32, 3));
  SequentialModel model("cnn", seq);
  const at::Tensor x = at::randn({2, 1, 6, 6});
  QCOMPARE(model.lastConvFeatures().value_or(99), std::size_t{1});
  const at::Tensor classes = at::tensor(std::vector<int64_t>{2, 0}, at::kLong);
  const at::Tensor cams = gradCam(model, x, classes, 6, 6);
  QCOMPARE(cams.sizes(), (at::IntArrayRef{2, 6, 6}));
  QVERIFY(model.is_training());
  for (const at::Tensor& p : model.parameters()) QVERIFY(!p.grad().defined());
  NamedTensors sd = model.state_dict();
  std::map<std::string, at::Tensor> w(sd.begin(), sd.end());
  for (int64_t n = 0; n < 2; ++n) {
    torch::NoGradGuard no_grad;  // the hand computation; the runs below train
    // A_k by hand: a valid 3x3 cross-correlation plus the bias, then ReLU
    const at::Tensor img = x[n][0], kw = w["0.weight"], kb = w["0.bias"];
    double a[2][4][4];
    for (int k = 0; k < 2; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          double v = kb[k].item<double>();
          for (int u = 0; u < 3; ++u)
            for (int t = 0; t < 3; ++t) v += kw[k][0][u][t].item<double>() * img[i + u][j + t].item<double>();
          a[k][i][j] = std::max(0.0, v);
        }
    const int64_t c = classes[n].item<int64_t>();
    const at::Tensor row = w["3.weight"][c];  // d y_c / d A, flattened in (k, i, j) order
    double cam[4][4] = {};
    for (int k = 0; k < 2; ++k) {
      double alpha = 0;
      for (int q = 0; q < 16; ++q) alpha += row[k * 16 + q].item<double>() / 16;
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) cam[i][j] += alpha * a[k][i][j];
    }
    auto src = [](int o) {
      const double s = (o + 0.5) * 4.0 / 6.0 - 0.5;
      return std::max(0.0, s);
    };
    double worst = 0;
    for (int oi = 0; oi < 6; ++oi)
      for (int oj = 0; oj < 6; ++oj) {
        const double si = src(oi), sj = src(oj);
        const int i0 = std::min(3, static_cast<int>(si)), j0 = std::min(3, static_cast<int>(sj));
        const int i1 = std::min(3, i0 + 1), j1 = std::min(3, j0 + 1);
        const double di = si - i0, dj = sj - j0;
        const double v = (1 - di) * ((1 - dj) * cam[i0][j0] + dj * cam[i0][j1]) +
                         di * ((1 - dj) * cam[i1][j0] + dj * cam[i1][j1]);
        worst = std::max(worst, std::abs(v - cams[n][oi][oj].item<double>()));
      }
    qInfo("sample %lld, class %lld: largest difference from the hand computation %.3g",
          static_cast<long long>(n), static_cast<long long>(c), worst);
    QVERIFY2(worst < 1e-5, qPrintable(QString::number(worst)));
  }
  // A dashboard's CNN run: its worst samples carry a map of each class at the image size.
  {
    TrainConfig c0 = resolveConfig("fashion-mnist-cnn", {}, {"data.limit=300"});
    const PreparedData data0 = loadData(c0.data);
    ModelPtr cnn = buildModel(c0.model, data0.summary);
    auto* seq0 = dynamic_cast<SequentialModel*>(cnn.get());
    QVERIFY(seq0);
    const at::Tensor m0 = gradCam(*seq0, data0.val.rows(0, 3).x, at::zeros({3}, at::kLong), 28, 28);
    QCOMPARE(m0.size(0), int64_t{3});
  }
  {
    TrainConfig c = resolveConfig("fashion-mnist-cnn", {}, {"data.limit=300"});
    c.training.epochs = 1;
    c.training.num_threads = 1;
    c.checkpoint.save_last = false;
    c.checkpoint.save_best = false;
    struct Obs : TrainerObserver {
      std::vector<ValidationDetail> details;
      std::string error;
      void onValidationDetail(const ValidationDetail& d) override { details.push_back(d); }
      void onEvent(const Event& e) override {
        if (e.kind == EventKind::Error) error = e.message;
      }
    } obs;
    TrainerOptions o;
    o.validation_detail = true;
    Trainer t(c, o);
    t.addObserver(&obs);
    const RunSummary summary = t.run();
    QVERIFY2(summary.stop_reason == StopReason::Completed, obs.error.c_str());
    QCOMPARE(obs.details.size(), std::size_t{1});
    const ValidationDetail& d = obs.details.front();
    QVERIFY(!d.worst.empty());
    for (const WorstSample& s : d.worst) {
      QCOMPARE(s.cams.size(), std::size_t{10});
      double sum = 0;
      for (const auto& m : s.cams) {
        QCOMPARE(m.size(), std::size_t{784});
        for (float v : m) {
          QVERIFY(std::isfinite(v));
          sum += std::abs(v);
        }
      }
      QVERIFY(sum > 0);
    }
  }
  // A model without a convolution is refused, naming the key.
  torch::nn::Sequential mlp(torch::nn::Linear(4, 2));
  SequentialModel flat("mlp", mlp);
  QVERIFY_THROWS_EXCEPTION(Error, gradCam(flat, at::randn({1, 4}), at::zeros({1}, at::kLong), 2, 2));
}

TRAINSCOPE_TEST_MAIN(TstModelView)
}  // namespace tst_model_view_suite
#include "tst_model_view.moc"

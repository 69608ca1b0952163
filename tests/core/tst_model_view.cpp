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
#include "core/train/probes/lr_finder_impl.h"
#include "core/train/trainer.h"
#include "test_util.h"
#include "test_main.h"

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

TRAINSCOPE_TEST_MAIN(TstModelView)
}  // namespace tst_model_view_suite
#include "tst_model_view.moc"

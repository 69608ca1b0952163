// The model interface (core/model/model.h) against Python's torch 1.13 (TRAINSCOPE_TEST_PYTHON):
// state_dict names and order with buffers in the middle, parameter order, layer output shapes,
// and the guarantees the probes rely on (deep copies, modes, the kinds registry).
#include <torch/torch.h>
#include <ATen/core/dispatch/Dispatcher.h>

#include <cstring>

#include <QtTest/QtTest>

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/model/max_pool.h"
#include "core/model/model.h"
#include "core/model/sequential_model.h"
#include "core/model/state_dict.h"
#include "core/optim/optimizer_factory.h"
#include "python_runner.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_model_suite {

using namespace trainscope;

namespace {

/// Python's answer for `script` (its stdout lines), or a failed QVERIFY.
QStringList python(const char* script) {
  return testpython::answerLines(testpython::script(QString::fromUtf8(script)));
}

QStringList names(const NamedTensors& named) {
  QStringList out;
  for (const auto& [name, t] : named) out << QString::fromStdString(name);
  return out;
}

QString shape(const std::vector<int64_t>& s) {
  QStringList parts;
  for (int64_t d : s) parts << QString::number(d);
  return "[" + parts.join(", ") + "]";
}

ModelConfig mlp(std::vector<int64_t> hidden, double dropout = 0) {
  ModelConfig c;
  c.hidden = std::move(hidden);
  c.dropout = dropout;
  return c;
}

}  // namespace

class TstModel : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void stateDictOrderIsPytorchs();
  void mlpNamesAndShapesMatchPython();
  void imageInputsAreFlattenedFirst();
  void cloneIsDeepAndKeepsTheMode();
  void frozenParametersAreCountedApart();
  void registryNamesTheKinds();
  void wrongInputShapeNamesTheKey();
  void everyOptimizerRowBuilds();
  void footprintMatchesTheBuiltModel();
  void cnnMatchesPythonsSequential();
  void cnnNamesAnImageTooSmallAndATable();
  void fastMaxPoolIsAtensBitForBit();
};

// Buffers between parameters: PyTorch lists each module's parameters, then its buffers, then the
// next module (module.py _save_to_state_dict). A list of all parameters followed by all buffers
// (what TrainScope wrote before the model interface) puts 3.weight before 1.running_mean.
void TstModel::stateDictOrderIsPytorchs() {
  namespace nn = torch::nn;
  SequentialModel m("test", nn::Sequential(nn::Linear(3, 4), nn::BatchNorm1d(4), nn::ReLU(),
                                           nn::Linear(4, 2)));
  const QStringList expected = python(
      "import torch.nn as nn\n"
      "m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))\n"
      "print('\\n'.join(m.state_dict().keys()))\n");
  QCOMPARE(names(m.state_dict()), expected);
  QCOMPARE(names(m.state_dict()).indexOf("1.running_mean"), 4);
  // parameters(): 0.weight, 0.bias, 1.weight, 1.bias, 3.weight, 3.bias (no buffers).
  QCOMPARE(m.parameters().size(), size_t{6});
  QCOMPARE(m.buffers().size(), size_t{3});
  QVERIFY(m.parameters()[4].is_same(m.state_dict()[7].second));  // 3.weight: the model's own
  // A strict load of the model's own state matches; a missing buffer is named.
  QVERIFY(matchState(m, m.state_dict(), true).problems.empty());
  NamedTensors partial = m.state_dict();
  partial.erase(partial.begin() + 4);
  const StateMatch bad = matchState(m, partial, true);
  QCOMPARE(bad.problems.size(), size_t{1});
  QVERIFY(QString::fromStdString(bad.problems[0]).startsWith("1.running_mean missing"));
}

void TstModel::mlpNamesAndShapesMatchPython() {
  ModelPtr m = buildModel(mlp({256, 128}, 0.3), 784, 10);
  QCOMPARE(QString::fromStdString(m->kind()), QString("mlp"));
  const QStringList py = python(
      "import torch, torch.nn as nn\n"
      "m = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.3), nn.Linear(256, 128),\n"
      "                  nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 10)).eval()\n"
      "print(' '.join(m.state_dict().keys()))\n"
      "x = torch.zeros(1, 784)\n"
      "for name, layer in m.named_children():\n"
      "    x = layer(x)\n"
      "    n = sum(p.numel() for p in layer.parameters())\n"
      "    print(name, list(x.shape[1:]), n)\n"
      "print(sum(p.numel() for p in m.parameters()))\n");
  QCOMPARE(py.size(), 9);
  QCOMPARE(names(m->state_dict()).join(' '), py[0]);
  const std::vector<LayerInfo> layers = m->layers({784});
  QCOMPARE(layers.size(), size_t{7});
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerInfo& l = layers[i];
    const QString line = QString::fromStdString(l.name) + " " + shape(l.output_shape) + " " + QString::number(l.trainable_parameters);
    QCOMPARE(line, py[int(i) + 1]);
    QCOMPARE(l.frozen_parameters, int64_t{0});
  }
  QCOMPARE(QString::fromStdString(layers[0].description), QString("Linear(784->256)"));
  QCOMPARE(QString::fromStdString(layers[2].description), QString("Dropout(0.3)"));
  // 784*256+256 + 256*128+128 + 128*10+10, by formula and by Python.
  QCOMPARE(m->summary().parameter_count, int64_t{235146});
  QCOMPARE(QString::number(m->summary().parameter_count), py[8]);
  QVERIFY(m->is_training());  // layers() ran in eval mode and put the mode back
}

void TstModel::imageInputsAreFlattenedFirst() {
  ModelPtr m = buildModel(mlp({32}), std::vector<int64_t>{1, 28, 28}, 10);
  const std::vector<LayerInfo> layers = m->layers({1, 28, 28});
  QCOMPARE(QString::fromStdString(layers[0].description), QString("Flatten"));
  QCOMPARE(shape(layers[0].output_shape), QString("[784]"));
  QCOMPARE(QString::fromStdString(m->state_dict()[0].first), QString("1.weight"));  // as Python's
  const at::Tensor out = m->forward(torch::zeros({5, 1, 28, 28}));
  QCOMPARE(out.sizes().vec(), (std::vector<int64_t>{5, 10}));
}

void TstModel::cloneIsDeepAndKeepsTheMode() {
  torch::manual_seed(3);
  ModelPtr m = buildModel(mlp({4}, 0.5), 2, 2);
  m->eval();
  ModelPtr copy = m->clone();
  QVERIFY(!copy->is_training());
  QCOMPARE(names(copy->state_dict()), names(m->state_dict()));
  for (size_t i = 0; i < m->state_dict().size(); ++i) {
    QVERIFY(torch::equal(copy->state_dict()[i].second, m->state_dict()[i].second));
    QVERIFY(!copy->state_dict()[i].second.is_same(m->state_dict()[i].second));
  }
  {
    torch::NoGradGuard g;
    copy->parameters()[0].add_(1.0);
  }
  QVERIFY(!torch::equal(copy->parameters()[0], m->parameters()[0]));
  copy->train();
  QVERIFY(!m->is_training());
  // stateTensors: the values of state_dict, the model's own.
  QVERIFY(stateTensors(*m)[1].is_same(m->state_dict()[1].second));
}

void TstModel::frozenParametersAreCountedApart() {
  ModelPtr m = buildModel(mlp({3}), 2, 1);  // 2*3+3 + 3*1+1 = 13
  QCOMPARE(countParameters(*m, true), int64_t{13});
  m->parameters()[0].set_requires_grad(false);  // 0.weight: 6
  QCOMPARE(countParameters(*m, true), int64_t{7});
  QCOMPARE(countParameters(*m, false), int64_t{6});
  QCOMPARE(m->summary().parameter_count, int64_t{7});
  QCOMPARE(m->layers({2})[0].frozen_parameters, int64_t{6});
  QCOMPARE(m->layers({2})[0].trainable_parameters, int64_t{3});
}

void TstModel::registryNamesTheKinds() {
  QVERIFY(!modelKinds().empty());
  QCOMPARE(QString::fromStdString(modelKinds()[0].name), QString("mlp"));
  QCOMPARE(modelKindNames(), (std::vector<std::string>{"mlp", "cnn", "rnn", "torchscript"}));
  ModelConfig c = mlp({4});
  c.kind = "transformer";
  try {
    buildModel(c, 2, 2);
    QFAIL("an unknown kind was built");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("model.kind"));
    QVERIFY2(QString(e.what()).contains("'transformer'") && QString(e.what()).contains("mlp"),
             e.what());
  }
}

void TstModel::wrongInputShapeNamesTheKey() {
  ModelPtr m = buildModel(mlp({4}), 2, 2);
  try {
    m->layers({3});
    QFAIL("inputs of 3 features went through a model of 2");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("model.kind"));
    QVERIFY2(QString(e.what()).contains("[3]") && QString(e.what()).contains("layer 0"), e.what());
  }
  QVERIFY(m->is_training());  // the mode is put back after the failure too
}

// The optimizer rows are what optimizer.name accepts and what makeOptimizer builds.
void TstModel::everyOptimizerRowBuilds() {
  QCOMPARE(optimizerNames(), (std::vector<std::string>{"sgd", "adam", "adamw"}));
  ModelPtr m = buildModel(mlp({2}), 2, 2);
  for (const OptimizerKind& k : optimizerKinds()) {
    TrainConfig c;
    c.optimizer.name = k.name;
    validate(c);  // accepted
    QVERIFY(makeOptimizer(c.optimizer, m->parameters()) != nullptr);
    QCOMPARE(k.adaptive, k.name != "sgd");
  }
  TrainConfig bad;
  bad.optimizer.name = "rmsprop";
  try {
    validate(bad);
    QFAIL("optimizer.name rmsprop was accepted");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("optimizer.name"));
  }
  QVERIFY(findOptimizerKind("rmsprop") == nullptr);
}

// The memory check's footprint (known before building) against the model built.
void TstModel::footprintMatchesTheBuiltModel() {
  using Shape = std::vector<int64_t>;
  for (const ModelKind& k : modelKinds()) {
    // The recurrent kind (sequences) and a user's TorchScript module (a file) have their own
    // footprint tests in tst_model_kinds; a [784] sample is refused by both build and footprint.
    if (k.sequence_input || k.name == "torchscript") {
      if (k.sequence_input) {
        QVERIFY_THROWS_EXCEPTION(Error, k.footprint(mlp({64}), {784}, {}, 10));
        QVERIFY_THROWS_EXCEPTION(Error, k.build(mlp({64}), {784}, {}, 10));
      }
      QVERIFY(!k.size_key.empty());
      continue;
    }
    // (x's sample shape, the image shape): flat images, [C, H, W] images, a table.
    for (const auto& [shape, image] : std::vector<std::pair<Shape, Shape>>{
             {{784}, {1, 28, 28}}, {{1, 28, 28}, {}}, {{2}, {}}}) {
      ModelConfig c = mlp({64, 32});
      c.cnn.channels = {4, 8};
      c.cnn.batch_norm = true;
      c.cnn.hidden = {16};
      if (k.image_input && shape.size() == 1 && image.empty()) {  // a table: refused by both
        QVERIFY_THROWS_EXCEPTION(Error, k.footprint(c, shape, image, 10));
        QVERIFY_THROWS_EXCEPTION(Error, k.build(c, shape, image, 10));
        continue;
      }
      const ModelFootprint f = k.footprint(c, shape, image, 10);
      const ModelPtr m = k.build(c, shape, image, 10);
      QCOMPARE(f.parameters, countParameters(*m, true) + countParameters(*m, false));
      // Activations: at least every layer's output once, per sample.
      int64_t outputs = 0;
      for (const LayerInfo& l : m->layers(shape)) {
        int64_t n = 1;
        for (int64_t d : l.output_shape) n *= d;
        outputs += n;
      }
      QVERIFY2(f.activation_floats_per_sample >= outputs,
               qPrintable(QString::number(f.activation_floats_per_sample)));
    }
    QVERIFY(!k.size_key.empty());
  }
}

// The CNN against the Python nn.Sequential its doc comment writes: state_dict names, layer
// shapes and parameter counts, every initial weight from the same seed, and the loss of the
// first two SGD steps in train mode (batch norm on batch statistics).
void TstModel::cnnMatchesPythonsSequential() {
  ModelConfig c;
  c.kind = "cnn";
  c.cnn.channels = {4, 8};
  c.cnn.batch_norm = true;
  c.cnn.hidden = {16};
  const char* script =
      "import torch, torch.nn as nn, torch.nn.functional as F\n"
      "torch.manual_seed(5)\n"
      "m = nn.Sequential(nn.Unflatten(1, (1, 28, 28)),\n"
      "    nn.Conv2d(1, 4, 3, stride=1, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),\n"
      "    nn.Conv2d(4, 8, 3, stride=1, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),\n"
      "    nn.Flatten(), nn.Linear(392, 16), nn.ReLU(), nn.Linear(16, 10))\n"
      "print(' '.join(m.state_dict().keys()))\n"
      "for t in m.state_dict().values():\n"
      "    print(' '.join('%.9g' % v for v in t.double().flatten().tolist()))\n"
      "x = torch.linspace(-2, 2, 8 * 784).view(8, 784)\n"
      "y = torch.arange(8) % 10\n"
      "opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
      "for step in range(2):\n"
      "    opt.zero_grad(); loss = F.cross_entropy(m(x), y); loss.backward(); opt.step()\n"
      "    print('%.9g' % loss.item())\n"
      "m.eval(); h = x\n"
      "for name, layer in m.named_children():\n"
      "    h = layer(h)\n"
      "    print(name, list(h.shape[1:]), sum(p.numel() for p in layer.parameters()))\n";
  const QStringList py = python(script);
  torch::manual_seed(5);
  ModelPtr m = buildModel(c, std::vector<int64_t>{784}, 10, {1, 28, 28});
  QCOMPARE(QString::fromStdString(m->kind()), QString("cnn"));
  const NamedTensors state = m->state_dict();
  QCOMPARE(py.size(), 1 + int(state.size()) + 2 + 13);
  QCOMPARE(names(state).join(' '), py[0]);
  for (size_t i = 0; i < state.size(); ++i) {
    const at::Tensor t = state[i].second.to(at::kDouble).flatten();
    const QStringList values = py[int(i) + 1].split(' ');
    QCOMPARE(values.size(), int(t.numel()));
    for (int64_t j = 0; j < t.numel(); ++j)
      QVERIFY2(std::abs(t[j].item<double>() - values[j].toDouble()) <= 1e-7,
               qPrintable(QString::fromStdString(state[i].first) + "[" + QString::number(j) + "]"));
  }
  const at::Tensor x = torch::linspace(-2, 2, 8 * 784).view({8, 784});
  const at::Tensor y = torch::arange(8) % 10;
  torch::optim::SGD opt(m->parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 2; ++step) {
    opt.zero_grad();
    const at::Tensor loss = torch::nn::functional::cross_entropy(m->forward(x), y);
    loss.backward();
    opt.step();
    const double expected = py[int(state.size()) + 1 + step].toDouble();
    QVERIFY2(std::abs(loss.item<double>() - expected) <= 1e-6 * std::abs(expected),
             qPrintable(QString::number(loss.item<double>(), 'g', 9) + " vs " + py[int(state.size()) + 1 + step]));
  }
  const std::vector<LayerInfo> layers = m->layers({784});
  QCOMPARE(layers.size(), size_t{13});
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerInfo& l = layers[i];
    QCOMPARE(QString::fromStdString(l.name) + " " + shape(l.output_shape) + " " +
                 QString::number(l.trainable_parameters),
             py[int(state.size()) + 3 + int(i)]);
  }
  QCOMPARE(QString::fromStdString(layers[1].description), QString("Conv2d(1->4, 3x3)"));
  QCOMPARE(QString::fromStdString(layers[4].description), QString("MaxPool2d(2)"));
  QVERIFY(m->is_training());
}

void TstModel::cnnNamesAnImageTooSmallAndATable() {
  ModelConfig c;
  c.kind = "cnn";
  c.cnn.channels = {8, 8, 8, 8, 8};  // 28 -> 14 -> 7 -> 3 -> 1 -> 0
  try {
    buildModel(c, std::vector<int64_t>{784}, 10, {1, 28, 28});
    QFAIL("a conv stack that shrinks 28x28 to nothing was built");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("model.cnn.channels"));
    QVERIFY2(QString(e.what()).contains("1x28x28") && QString(e.what()).contains("block 5 of 5") &&
                 QString(e.what()).contains("8x1x1"),
             e.what());
  }
  c.cnn.channels = {8};
  try {
    buildModel(c, std::vector<int64_t>{7}, 3);
    QFAIL("a CNN was built for a table");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("model.kind"));
    QVERIFY2(QString(e.what()).contains("[7]") && QString(e.what()).contains("mlp"), e.what());
  }
}

namespace {

/// Bitwise equality (NaN equal to NaN), shape included.
bool sameBits(const at::Tensor& a, const at::Tensor& b) {
  if (a.sizes() != b.sizes() || a.scalar_type() != b.scalar_type()) return false;
  const at::Tensor x = a.contiguous(), y = b.contiguous();
  return std::memcmp(x.data_ptr(), y.data_ptr(), x.numel() * x.element_size()) == 0;
}

}  // namespace

// TrainScope's max-pool kernel (core/model/max_pool.h) against ATen's channels-last kernel, a
// separate implementation that the override leaves in place: values, argmax indices (ties in
// flat areas after ReLU, NaN, -inf, odd sizes cut off, overlapping windows) and the gradient,
// bit for bit; the cases it does not take run ATen's kernel, errors included.
void TstModel::fastMaxPoolIsAtensBitForBit() {
  installFastMaxPool();
  const auto op = c10::Dispatcher::singleton().findSchema({"aten::max_pool2d_with_indices", ""});
  QVERIFY(op.has_value());
  QVERIFY2(op->dumpState().find("max_pool.cpp") != std::string::npos, op->dumpState().c_str());
  torch::manual_seed(3);
  std::vector<at::Tensor> inputs;
  inputs.push_back(torch::randn({4, 3, 28, 28}));
  inputs.push_back(torch::relu(torch::randn({2, 5, 15, 9})));  // many tied zeros
  at::Tensor special = torch::randn({1, 2, 6, 6});
  special[0][0][0][1] = std::numeric_limits<float>::quiet_NaN();
  special[0][0][2].fill_(-std::numeric_limits<float>::infinity());
  special[0][1][3][3] = std::numeric_limits<float>::quiet_NaN();
  special[0][1][3][2] = std::numeric_limits<float>::quiet_NaN();
  inputs.push_back(special);
  inputs.push_back(torch::round(torch::randn({3, 4, 12, 12}, at::kDouble) * 2));  // ties, float64
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> windows = {
      {{2, 2}, {}}, {{3, 3}, {}}, {{3, 2}, {1, 2}}, {{2, 2}, {1, 1}}};
  for (const auto& [kernel, stride] : windows) {
    for (const at::Tensor& x0 : inputs) {
      const QString what = QString("kernel %1x%2, stride %3, input %4")
                               .arg(kernel[0]).arg(kernel[1])
                               .arg(stride.empty() ? QString("=kernel") : QString::number(stride[0]))
                               .arg(x0.size(-1));
      const at::Tensor cl = x0.contiguous(at::MemoryFormat::ChannelsLast);
      const auto [expected, expected_indices] = at::max_pool2d_with_indices(cl, kernel, stride);
      const auto [values, indices] = at::max_pool2d_with_indices(x0, kernel, stride);
      QVERIFY2(sameBits(values, expected), qPrintable("values, " + what));
      QVERIFY2(sameBits(indices, expected_indices), qPrintable("indices, " + what));
      // Through autograd: the same gradient.
      const at::Tensor upstream = torch::randn(expected.sizes(), x0.options());
      at::Tensor a = x0.clone().requires_grad_(true), b = cl.clone().requires_grad_(true);
      (std::get<0>(at::max_pool2d_with_indices(a, kernel, stride)) * upstream).sum().backward();
      (std::get<0>(at::max_pool2d_with_indices(b, kernel, stride)) * upstream).sum().backward();
      QVERIFY2(sameBits(a.grad(), b.grad()), qPrintable("gradient, " + what));
      torch::NoGradGuard no_grad;
      QVERIFY2(sameBits(torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions({kernel[0], kernel[1]})
                                                 .stride(stride.empty() ? kernel : stride))(x0),
                        expected),
               qPrintable("nn::MaxPool2d, " + what));
    }
  }
  // Unbatched [C, H, W]: the same as the batch of one.
  const at::Tensor x = inputs[0];
  QVERIFY(sameBits(at::max_pool2d(x[1], {2, 2}), at::max_pool2d(x.narrow(0, 1, 1), {2, 2})[0]));
  // Not its case: ATen's kernel (padding, dilation, ceil_mode, a non-contiguous view).
  const at::Tensor cl = x.contiguous(at::MemoryFormat::ChannelsLast);
  QVERIFY(sameBits(at::max_pool2d(x, {3, 3}, {1, 1}, {1, 1}), at::max_pool2d(cl, {3, 3}, {1, 1}, {1, 1})));
  QVERIFY(sameBits(at::max_pool2d(x, {2, 2}, {2, 2}, {0, 0}, {2, 2}), at::max_pool2d(cl, {2, 2}, {2, 2}, {0, 0}, {2, 2})));
  QVERIFY(sameBits(at::max_pool2d(x, {3, 3}, {2, 2}, {0, 0}, {1, 1}, true),
                   at::max_pool2d(cl, {3, 3}, {2, 2}, {0, 0}, {1, 1}, true)));
  const at::Tensor view = x.transpose(2, 3);
  QVERIFY(sameBits(at::max_pool2d(view, {2, 2}), at::max_pool2d(view.contiguous(at::MemoryFormat::ChannelsLast), {2, 2})));
  // ATen's errors stay ATen's.
  try {
    at::max_pool2d(torch::randn({1, 1, 2, 2}), {3, 3});
    QFAIL("a 3x3 window over a 2x2 image was pooled");
  } catch (const c10::Error& e) {
    QVERIFY2(QString(e.what()).contains("Output size is too small"), e.what());
  }
  // The fast loop alone (the kernel's core) against the reference too.
  const auto [v, i] = maxPool2dWindowed(x, 2, 2, 2, 2, true);
  const auto [rv, ri] = at::max_pool2d_with_indices(cl, {2, 2});
  QVERIFY(sameBits(v, rv) && sameBits(i, ri));
  QVERIFY(!maxPool2dWindowed(x, 2, 2, 2, 2, false).second.defined());
}

TRAINSCOPE_TEST_MAIN(TstModel)
}  // namespace tst_model_suite
#include "tst_model.moc"

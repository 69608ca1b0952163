// The model interface (core/model/model.h) against Python's torch 1.13 (TRAINSCOPE_TEST_PYTHON):
// state_dict names and order with buffers in the middle, parameter order, layer output shapes,
// and the guarantees the probes rely on (deep copies, modes, the kinds registry).
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "core/config/kinds.h"
#include "core/errors.h"
#include "core/model/model.h"
#include "core/model/sequential_model.h"
#include "core/model/state_dict.h"
#include "core/optim/optimizer_factory.h"

using namespace trainscope;

namespace {

/// Python's answer for `script` (its stdout lines), or a failed QVERIFY.
QStringList python(const char* script) {
  QProcess py;
  py.start(TRAINSCOPE_TEST_PYTHON, {"-c", script});
  if (!py.waitForStarted(10000) || !py.waitForFinished(120000)) return {"did not run"};
  const QString out = QString::fromUtf8(py.readAllStandardOutput());
  if (py.exitCode() != 0) return {"failed: " + QString::fromUtf8(py.readAllStandardError())};
  return out.split('\n', Qt::SkipEmptyParts);
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
  QCOMPARE(modelKindNames(), std::vector<std::string>{"mlp"});
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
  for (const ModelKind& k : modelKinds()) {
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{784}, {1, 28, 28}, {2}}) {
      const ModelConfig c = mlp({64, 32});
      const ModelFootprint f = k.footprint(c, shape, 10);
      const ModelPtr m = k.build(c, shape, 10);
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

QTEST_GUILESS_MAIN(TstModel)
#include "tst_model.moc"

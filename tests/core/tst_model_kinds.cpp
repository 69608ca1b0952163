// The "rnn" and "torchscript" model kinds (issue 23) against Python's torch 1.13: names,
// initial weights, the first steps' losses, shapes, refusals with what to do, and TorchScript
// saved back for Python.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/model/grad_cam.h"
#include "core/model/model.h"
#include "core/model/torchscript.h"
#include "python_runner.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_model_kinds_suite {

using namespace trainscope;

namespace {

/// Python's answer for `script` (its stdout lines), or a line saying why it failed. The script
/// runs from a file: torch.jit.script reads the source of the classes it compiles.
QStringList python(const QString& script) {
  return testpython::answerLines(testpython::scriptFile(script));
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

/// The message of the Error that `f` throws (empty when it throws none).
template <class F>
QString errorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

/// Compares `state` with the names and values Python printed from line `first` on (names on
/// one line, then one line of values per tensor); returns the next line's index.
int compareState(const NamedTensors& state, const QStringList& py, int first) {
  if (names(state).join(' ') != py.value(first)) {
    qWarning() << "names:" << names(state).join(' ') << "python:" << py.value(first);
    return -1;
  }
  for (size_t i = 0; i < state.size(); ++i) {
    const at::Tensor t = state[i].second.to(at::kDouble).flatten();
    const QStringList values = py.value(first + 1 + int(i)).split(' ');
    if (values.size() != int(t.numel())) return -1;
    for (int64_t j = 0; j < t.numel(); ++j)
      if (std::abs(t[j].item<double>() - values[int(j)].toDouble()) > 1e-7) {
        qWarning() << QString::fromStdString(state[i].first) << j;
        return -1;
      }
  }
  return first + 1 + int(state.size());
}

const char* const kPrintState =
    "def show(m):\n"
    "    print(' '.join(m.state_dict().keys()))\n"
    "    for t in m.state_dict().values():\n"
    "        print(' '.join('%.9g' % v for v in t.double().flatten().tolist()))\n";

}  // namespace

class TstModelKinds : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void init() { torch::manual_seed(0); }
  void rnnMatchesPython_data();
  void rnnMatchesPython();
  void rnnRefusesWhatIsNotASequence();
  void torchScriptTrainsAsInPython();
  void torchScriptComesBackToPython();
  void torchScriptRefusalsSayWhatToRun();
  void tracedModulesAreToldApart();
  void torchScriptGradCamEqualsPythonHooks();
};

void TstModelKinds::rnnMatchesPython_data() {
  QTest::addColumn<QString>("cell");
  QTest::addColumn<int>("layers");
  QTest::addColumn<bool>("bidirectional");
  QTest::addColumn<QString>("output");
  QTest::newRow("rnn tanh, last") << "rnn" << 1 << false << "last";
  QTest::newRow("lstm 2 layers bidirectional, mean") << "lstm" << 2 << true << "mean";
  QTest::newRow("gru 2 layers, last") << "gru" << 2 << false << "last";
}

void TstModelKinds::rnnMatchesPython() {
  QFETCH(QString, cell);
  QFETCH(int, layers);
  QFETCH(bool, bidirectional);
  QFETCH(QString, output);
  ModelConfig c;
  c.kind = "rnn";
  c.rnn.cell = cell.toStdString();
  c.rnn.hidden_size = 6;
  c.rnn.num_layers = layers;
  c.rnn.bidirectional = bidirectional;
  c.rnn.output = output.toStdString();
  const QString cls = cell == "lstm" ? "LSTM" : cell == "gru" ? "GRU" : "RNN";
  const QString script =
      QString(
          "import torch, torch.nn as nn, torch.nn.functional as F\n"
          "class RnnNet(nn.Module):\n"
          "    def __init__(self):\n"
          "        super().__init__()\n"
          "        self.rnn = nn.%1(3, 6, %2, batch_first=True, bidirectional=%3)\n"
          "        self.head = nn.Linear(%4, 2)\n"
          "    def forward(self, x):\n"
          "        out, _ = self.rnn(x)\n"
          "        return self.head(%5)\n"
          "torch.manual_seed(5)\n"
          "m = RnnNet()\n") .arg(cls).arg(layers).arg(bidirectional ? "True" : "False")
          .arg(bidirectional ? 12 : 6)
          .arg(output == "mean" ? "out.mean(1)" : "out[:, -1]") +
      kPrintState +
      "show(m)\n"
      "x = torch.linspace(-2, 2, 4 * 7 * 3).view(4, 7, 3)\n"
      "y = torch.linspace(-1, 1, 8).view(4, 2)\n"
      "opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
      "for step in range(2):\n"
      "    opt.zero_grad(); loss = F.mse_loss(m(x), y); loss.backward(); opt.step()\n"
      "    print('%.9g' % loss.item())\n";
  const QStringList py = python(script);
  torch::manual_seed(5);
  ModelPtr m = buildModel(c, std::vector<int64_t>{7, 3}, 2);
  QCOMPARE(QString::fromStdString(m->kind()), QString("rnn"));
  const int next = compareState(m->state_dict(), py, 0);
  QVERIFY2(next > 0, qPrintable(py.join('\n').left(2000)));
  QVERIFY(m->state_dict()[0].first == "rnn.weight_ih_l0");
  const at::Tensor x = torch::linspace(-2, 2, 4 * 7 * 3).view({4, 7, 3});
  const at::Tensor y = torch::linspace(-1, 1, 8).view({4, 2});
  torch::optim::SGD opt(m->parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 2; ++step) {
    opt.zero_grad();
    const at::Tensor loss = torch::mse_loss(m->forward(x), y);
    loss.backward();
    opt.step();
    const double expected = py.value(next + step).toDouble();
    QVERIFY2(std::abs(loss.item<double>() - expected) <= 1e-6 * std::abs(expected),
             qPrintable(QString::number(loss.item<double>(), 'g', 9) + " vs " + py.value(next + step)));
  }
  const std::vector<LayerInfo> info = m->layers({7, 3});
  QCOMPARE(info.size(), size_t{3});
  const int width = bidirectional ? 12 : 6;
  QCOMPARE(shape(info[0].output_shape), shape({7, width}));
  QCOMPARE(shape(info[1].output_shape), shape({width}));
  QCOMPARE(shape(info[2].output_shape), shape({2}));
  QCOMPARE(info[0].trainable_parameters + info[2].trainable_parameters,
           countParameters(*m, true));
  // The footprint's parameter count is exact.
  QCOMPARE(modelKind("rnn").footprint(c, {7, 3}, {}, 2).parameters, countParameters(*m, true));
  // clone: a deep copy in the same mode.
  m->eval();
  ModelPtr copy = m->clone();
  QVERIFY(!copy->is_training());
  QVERIFY(copy->state_dict()[0].second.data_ptr() != m->state_dict()[0].second.data_ptr());
  QVERIFY(torch::equal(copy->forward(x), m->forward(x)));
}

void TstModelKinds::rnnRefusesWhatIsNotASequence() {
  ModelConfig c;
  c.kind = "rnn";
  QString e = errorOf([&] { buildModel(c, std::vector<int64_t>{784}, 10); });
  QVERIFY2(e.contains("[T, F]") && e.contains("[784]"), qPrintable(e));
  c.rnn.dropout = 0.2;
  try {
    buildModel(c, std::vector<int64_t>{10, 1}, 1);
    QFAIL("dropout with one layer was accepted");
  } catch (const Error& err) {
    QCOMPARE(QString::fromStdString(err.subject()), QString("model.rnn.dropout"));
  }
  c.rnn.dropout = 0;
  ModelPtr m = buildModel(c, std::vector<int64_t>{10, 2}, 1);
  e = errorOf([&] { m->layers({10, 3}); });  // built for 2 features a step
  QVERIFY2(e.contains("2 features") && e.contains("[10, 3]"), qPrintable(e));
}

void TstModelKinds::torchScriptTrainsAsInPython() {
  QTemporaryDir dir;
  const QString file = dir.filePath("net.pt");
  // A module of the user's own class, children named as in their code; dropout and batch norm
  // so that train() and eval() matter.
  const QString script =
      QString(
          "import torch, torch.nn as nn, torch.nn.functional as F\n"
          "class Net(nn.Module):\n"
          "    def __init__(self):\n"
          "        super().__init__()\n"
          "        self.features = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2))\n"
          "        self.drop = nn.Dropout(0.5)\n"
          "        self.classifier = nn.Linear(4 * 4 * 4, 3)\n"
          "    def forward(self, x):\n"
          "        return self.classifier(self.drop(self.features(x).flatten(1)))\n"
          "torch.manual_seed(3)\n"
          "torch.jit.script(Net()).save('%1')\n"
          "m = torch.jit.load('%1')\n") .arg(file) +
      kPrintState +
      "show(m)\n"
      "x = torch.linspace(-2, 2, 6 * 64).view(6, 1, 8, 8)\n"
      "y = torch.tensor([0, 1, 2, 0, 1, 2])\n"
      "opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
      "m.eval()\n"  // no dropout: the losses are comparable
      "for step in range(2):\n"
      "    opt.zero_grad(); loss = F.cross_entropy(m(x), y); loss.backward(); opt.step()\n"
      "    print('%.9g' % loss.item())\n";
  const QStringList py = python(script);
  QVERIFY2(py.size() > 3, qPrintable(py.join('\n')));
  ModelConfig c;
  c.kind = "torchscript";
  c.torchscript.path = file.toStdString();
  ModelPtr m = buildModel(c, std::vector<int64_t>{1, 8, 8}, 3);
  QCOMPARE(QString::fromStdString(m->kind()), QString("torchscript"));
  QVERIFY2(m->is_training(), "a loaded module comes back in training mode");
  const int next = compareState(m->state_dict(), py, 0);
  QVERIFY2(next > 0, qPrintable(py.join('\n').left(3000)));
  QCOMPARE(QString::fromStdString(m->named_parameters()[0].first), QString("features.0.weight"));
  QCOMPARE(m->buffers().size(), size_t{3});  // running_mean, running_var, num_batches_tracked
  const at::Tensor x = torch::linspace(-2, 2, 6 * 64).view({6, 1, 8, 8});
  const at::Tensor y = torch::tensor({0, 1, 2, 0, 1, 2}, torch::kLong);
  m->eval();
  torch::optim::SGD opt(m->parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 2; ++step) {
    opt.zero_grad();
    const at::Tensor loss = torch::nn::functional::cross_entropy(m->forward(x), y);
    loss.backward();
    opt.step();
    const double expected = py.value(next + step).toDouble();
    QVERIFY2(std::abs(loss.item<double>() - expected) <= 1e-6 * std::abs(expected),
             qPrintable(QString::number(loss.item<double>(), 'g', 9) + " vs " + py.value(next + step)));
  }
  // train(): dropout draws masks, two forwards differ; eval(): equal.
  m->train();
  QVERIFY(!torch::equal(m->forward(x), m->forward(x)));
  m->eval();
  QVERIFY(torch::equal(m->forward(x), m->forward(x)));
  // Layers: the top module is not an nn.Sequential, so its children's shapes stay unknown and
  // the last row is the whole forward.
  const std::vector<LayerInfo> layers = m->layers({1, 8, 8});
  QCOMPARE(layers.size(), size_t{4});
  QCOMPARE(QString::fromStdString(layers[0].name), QString("features"));
  QVERIFY(!layers[0].shape_known);
  QCOMPARE(layers[0].trainable_parameters, int64_t{4 * 9 + 4 + 4 + 4});
  QVERIFY(layers[3].shape_known);
  QCOMPARE(shape(layers[3].output_shape), shape({3}));
  // clone: deep, mode kept, its parameters leaves that an optimizer takes.
  ModelPtr copy = m->clone();
  QVERIFY(!copy->is_training());
  QVERIFY(copy->parameters()[0].data_ptr() != m->parameters()[0].data_ptr());
  for (const at::Tensor& p : copy->parameters()) QVERIFY(p.is_leaf() && p.requires_grad());
  torch::optim::SGD takes(copy->parameters(), torch::optim::SGDOptions(0.1));
  QVERIFY(torch::equal(copy->forward(x), m->forward(x)));
  QCOMPARE(modelKind("torchscript").footprint(c, {1, 8, 8}, {}, 3).parameters,
           countParameters(*m, true));
  const QString wrong = errorOf([&] { m->layers({1, 10, 10}); });  // 4*5*5 features, not 64
  QVERIFY2(wrong.contains("[1, 10, 10]"), qPrintable(wrong));
}

void TstModelKinds::torchScriptComesBackToPython() {
  QTemporaryDir dir;
  const QString file = dir.filePath("seq.pt"), back = dir.filePath("back.pt");
  QStringList py = python(QString("import torch, torch.nn as nn\n"
                                  "torch.manual_seed(1)\n"
                                  "m = nn.Sequential(nn.Flatten(), nn.Linear(12, 8), nn.ReLU(), nn.Dropout(0.3), nn.Linear(8, 2))\n"
                                  "torch.jit.script(m).save('%1')\n").arg(file));
  QVERIFY2(py.isEmpty(), qPrintable(py.join('\n')));
  ModelConfig c;
  c.kind = "torchscript";
  c.torchscript.path = file.toStdString();
  ModelPtr m = buildModel(c, std::vector<int64_t>{3, 4}, 2);
  // An nn.Sequential reveals every child's shape.
  const std::vector<LayerInfo> layers = m->layers({3, 4});
  QCOMPARE(layers.size(), size_t{5});
  QCOMPARE(shape(layers[0].output_shape), shape({12}));
  QCOMPARE(shape(layers[1].output_shape), shape({8}));
  // Train a few steps (weights change), then save back in training mode.
  const at::Tensor x = torch::linspace(-1, 1, 5 * 12).view({5, 3, 4});
  m->train();
  torch::optim::SGD opt(m->parameters(), torch::optim::SGDOptions(0.05));
  for (int i = 0; i < 3; ++i) {
    opt.zero_grad();
    m->forward(x).pow(2).sum().backward();
    opt.step();
  }
  QVERIFY(m->saveTorchScript(back.toStdString()));
  QVERIFY2(m->is_training(), "saving restores the mode");
  m->eval();
  torch::NoGradGuard no_grad;
  const at::Tensor out = m->forward(x);
  py = python(QString("import torch\n"
                      "m = torch.jit.load('%1')\n"
                      "print(m.training)\n"
                      "x = torch.linspace(-1, 1, 5 * 12).view(5, 3, 4)\n"
                      "with torch.no_grad():\n"
                      "    print(' '.join('%.9g' % v for v in m(x).flatten().tolist()))\n").arg(back));
  QCOMPARE(py.value(0), QString("False"));  // saved in eval mode, ready to use
  const QStringList values = py.value(1).split(' ');
  QCOMPARE(values.size(), int(out.numel()));
  for (int i = 0; i < values.size(); ++i)
    QVERIFY2(std::abs(out.flatten()[i].item<double>() - values[i].toDouble()) <=
                 1e-6 * std::max(1.0, std::abs(values[i].toDouble())),
             qPrintable(QString::number(out.flatten()[i].item<double>(), 'g', 9) + " vs " +
                        values[i]));
  // The MLP kind has no TorchScript form.
  ModelConfig mlp;
  QVERIFY(!buildModel(mlp, 2, 2)->saveTorchScript(dir.filePath("none.pt").toStdString()));
  QVERIFY(!QFile::exists(dir.filePath("none.pt")));
}

void TstModelKinds::torchScriptRefusalsSayWhatToRun() {
  QTemporaryDir dir;
  auto path = [&](const char* name) { return dir.filePath(name); };
  const QStringList py = python(
      QString("import torch, torch.nn as nn\n"
              "from typing import Tuple\n"
              "m = nn.Sequential(nn.Linear(4, 2))\n"
              "torch.save(m.state_dict(), '%1')\n"
              "torch.save(m, '%2')\n"
              "torch.jit.freeze(torch.jit.script(m).eval()).save('%3')\n"
              "class Two(nn.Module):\n"
              "    def __init__(self):\n"
              "        super().__init__(); self.l = nn.Linear(4, 2)\n"
              "    def forward(self, x, lengths):\n"
              "        return self.l(x) * lengths\n"
              "torch.jit.script(Two()).save('%4')\n"
              "class Pair(nn.Module):\n"
              "    def __init__(self):\n"
              "        super().__init__(); self.l = nn.Linear(4, 2)\n"
              "    def forward(self, x) -> Tuple[torch.Tensor, torch.Tensor]:\n"
              "        return self.l(x), x\n"
              "torch.jit.script(Pair()).save('%5')\n")
          .arg(path("state_dict.pt"), path("whole.pt"), path("frozen.pt"), path("two.pt"),
               path("pair.pt")));
  QVERIFY2(py.isEmpty(), qPrintable(py.join('\n')));
  QFile csv(path("table.csv"));
  QVERIFY(csv.open(QIODevice::WriteOnly));
  csv.write("a,b\n1,2\n");
  csv.close();
  const struct {
    const char* file;
    QStringList says;
  } cases[] = {
      {"state_dict.pt", {"torch.save", "torch.jit.script(model).save"}},
      {"whole.pt", {"torch.save", "torch.jit.script(model).save"}},
      {"frozen.pt", {"no trainable parameters", "torch.jit.freeze"}},
      {"two.pt", {"does not take one tensor", "lengths"}},
      {"pair.pt", {"does not return one tensor"}},
      {"table.csv", {"not a zip archive", "a,b"}},
      {"missing.pt", {"no such file"}},
      {"", {"directory"}},
  };
  for (const auto& k : cases) {
    const std::string file = (k.file[0] ? path(k.file) : dir.path()).toStdString();
    const QString e = errorOf([&] { inspectTorchScript(file); });
    for (const QString& w : k.says)
      QVERIFY2(e.contains(w), qPrintable(QString(k.file) + ": " + e));
    QVERIFY2(e.contains(QString::fromStdString(file)), qPrintable(e));
    ModelConfig c;
    c.kind = "torchscript";
    c.torchscript.path = file;
    QCOMPARE(errorOf([&] { buildModel(c, std::vector<int64_t>{4}, 2); }), e);
  }
}

void TstModelKinds::tracedModulesAreToldApart() {
  QTemporaryDir dir;
  const QStringList py = python(
      QString("import torch, torch.nn as nn\n"
              "m = nn.Sequential(nn.Linear(4, 3), nn.Dropout(0.2), nn.Linear(3, 2))\n"
              "m[2].weight.requires_grad_(False)\n"
              "torch.jit.script(m).save('%1')\n"
              "torch.jit.trace(m.eval(), torch.zeros(1, 4)).save('%2')\n")
          .arg(dir.filePath("s.pt"), dir.filePath("t.pt")));
  QVERIFY2(py.isEmpty(), qPrintable(py.join('\n')));
  const ScriptModuleInfo s = inspectTorchScript(dir.filePath("s.pt").toStdString());
  const ScriptModuleInfo t = inspectTorchScript(dir.filePath("t.pt").toStdString());
  QVERIFY(!s.traced);
  QVERIFY(t.traced);
  QVERIFY(!t.training);
  QVERIFY(s.training);
  QCOMPARE(s.trainable_parameters, int64_t{4 * 3 + 3 + 2});
  QCOMPARE(s.frozen_parameters, int64_t{3 * 2});
  QCOMPARE(s.parameters.size(), size_t{4});
  QCOMPARE(QString::fromStdString(s.parameters[2].name), QString("2.weight"));
  QVERIFY(!s.parameters[2].requires_grad);
  QCOMPARE(s.submodules.size(), size_t{3});
  QCOMPARE(QString::fromStdString(s.forward_schema), QString("forward(Tensor input) -> Tensor"));
  QVERIFY(t.warnings.front().find("traced") != std::string::npos);
  QVERIFY(t.warnings.front().find("dropout") != std::string::npos);
  QCOMPARE(s.warnings.size(), size_t{1});  // the frozen parameters
  QCOMPARE(t.warning_codes, (std::vector<std::string>{"traced", "frozen_parameters"}));
  QCOMPARE(s.warning_codes, (std::vector<std::string>{"frozen_parameters"}));
  // Issue 43: the check relied on mangled type names. A module traced alone in its own Python
  // process has none (it was called scripted); one scripted second in a process has them (it
  // was called traced). The source ranges the graphs keep tell them apart either way.
  const QStringList alone = python(
      QString("import torch, torch.nn as nn\n"
              "m = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))\n"
              "torch.jit.trace(m, torch.zeros(1, 4)).save('%1')\n")
          .arg(dir.filePath("alone.pt")));
  QVERIFY2(alone.isEmpty(), qPrintable(alone.join('\n')));
  const QStringList twice = python(
      QString("import torch, torch.nn as nn\n"
              "m = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))\n"
              "torch.jit.script(m).save('%1')\n"
              "torch.jit.script(nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2)))"
              ".save('%2')\n")
          .arg(dir.filePath("first.pt"), dir.filePath("second.pt")));
  QVERIFY2(twice.isEmpty(), qPrintable(twice.join('\n')));
  const ScriptModuleInfo a = inspectTorchScript(dir.filePath("alone.pt").toStdString());
  QVERIFY(a.type_name.find("___torch_mangle") == std::string::npos);  // the old check's blind spot
  QVERIFY(a.traced);
  const ScriptModuleInfo second = inspectTorchScript(dir.filePath("second.pt").toStdString());
  QVERIFY(second.type_name.find("___torch_mangle") != std::string::npos);
  QVERIFY(!second.traced);
  QVERIFY(!inspectTorchScript(dir.filePath("first.pt").toStdString()).traced);
}

/// Issue 49 §3: Grad-CAM on a TorchScript module's named layer equals the Python computation
/// with a forward hook on the eager module (the hook keeps the layer's output; its gradient
/// by torch.autograd.grad; weights the spatial means; ReLU-free weighted sum; F.interpolate
/// bilinear, align_corners False), for a scripted and a traced copy: the default layer (the
/// last nn.Conv2d, "features.3") and a named one (its ReLU, "features.4"). Refusals name the
/// key: a layer that does not exist, one forward calls only inside an if.
void TstModelKinds::torchScriptGradCamEqualsPythonHooks() {
  QTemporaryDir dir;
  const QString scripted = dir.filePath("net.pt"), traced = dir.filePath("traced.pt"),
                branchy = dir.filePath("branchy.pt");
  const QString script =
      QString(
          "import torch, torch.nn as nn, torch.nn.functional as F\n"
          "class Net(nn.Module):\n"
          "    def __init__(self):\n"
          "        super().__init__()\n"
          "        self.features = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),\n"
          "                                      nn.Conv2d(4, 6, 3), nn.ReLU())\n"
          "        self.head = nn.Linear(6 * 4 * 4, 3)\n"
          "    def forward(self, x):\n"
          "        return self.head(torch.flatten(self.features(x), 1))\n"
          "class Branchy(nn.Module):\n"
          "    def __init__(self):\n"
          "        super().__init__()\n"
          "        self.conv = nn.Conv2d(1, 2, 3)\n"
          "        self.head = nn.Linear(2 * 10 * 10, 3)\n"
          "    def forward(self, x):\n"
          "        if bool(x.sum() > 0):\n"
          "            x = self.conv(x)\n"
          "        else:\n"
          "            x = self.conv(-x)\n"
          "        return self.head(x.flatten(1))\n"
          "torch.manual_seed(5)\n"
          "net = Net()\n"
          "x = torch.sin(torch.arange(3 * 144.) * 0.37).view(3, 1, 12, 12)\n"
          "torch.jit.script(net).save('%1')\n"
          "torch.jit.trace(net, x).save('%2')\n"
          "torch.jit.script(Branchy()).save('%3')\n"
          "net.eval()\n"
          "classes = torch.tensor([2, 0, 1])\n"
          "for layer in ['features.3', 'features.4']:\n"
          "    store = {}\n"
          "    h = dict(net.named_modules())[layer].register_forward_hook(lambda m, i, o: store.__setitem__('a', o))\n"
          "    out = net(x)\n"
          "    h.remove()\n"
          "    a = store['a']\n"
          "    g, = torch.autograd.grad(out.gather(1, classes.view(-1, 1)).sum(), a)\n"
          "    cam = (g.mean((2, 3), keepdim=True) * a).sum(1, keepdim=True)\n"
          "    cam = F.interpolate(cam, size=(12, 12), mode='bilinear', align_corners=False).squeeze(1)\n"
          "    print(' '.join('%.9g' % v for v in cam.flatten().tolist()))\n")
          .arg(scripted, traced, branchy);
  const QStringList py = python(script);
  QVERIFY2(py.size() == 2, qPrintable(py.join('\n').left(3000)));
  const at::Tensor x = at::sin(at::arange(3 * 144, at::kFloat) * 0.37).view({3, 1, 12, 12});
  const at::Tensor classes = at::tensor(std::vector<int64_t>{2, 0, 1}, at::kLong);
  auto compare = [&](Model& m, int line) {
    const at::Tensor cams = gradCam(m, x, classes, 12, 12).flatten();
    const QStringList expected = py.value(line).split(' ');
    if (expected.size() != cams.numel()) return QString("%1 values, Python %2").arg(cams.numel()).arg(expected.size());
    double worst = 0, scale = 0;
    for (int64_t i = 0; i < cams.numel(); ++i) {
      worst = std::max(worst, std::abs(cams[i].item<double>() - expected[int(i)].toDouble()));
      scale = std::max(scale, std::abs(expected[int(i)].toDouble()));
    }
    qInfo("%s, layer %s: largest difference from Python's hooks %.3g (largest value %.3g)",
          m.kind().c_str(), m.camLayer().c_str(), worst, scale);
    return worst <= 1e-5 * std::max(1.0, scale) && scale > 0 ? QString() : QString::number(worst);
  };
  for (const QString& file : {scripted, traced}) {
    ModelConfig c;
    c.kind = "torchscript";
    c.torchscript.path = file.toStdString();
    // Flat image rows ([144], images [1, 12, 12]): the module gets [N, 1, 12, 12] batches.
    ModelPtr m = buildModel(c, std::vector<int64_t>{144}, 3, {1, 12, 12});
    QCOMPARE(QString::fromStdString(m->camLayer()), QString("features.3"));
    QString why = compare(*m, 0);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY(m->is_training());  // the mode restored
    for (const at::Tensor& p : m->parameters()) QVERIFY(!p.grad().defined());
    // A clone computes its own (the rewritten graph made again for the copy).
    ModelPtr copy = m->clone();
    why = compare(*copy, 0);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    c.torchscript.grad_cam_layer = "features.4";
    ModelPtr relu = buildModel(c, std::vector<int64_t>{1, 12, 12}, 3);
    QCOMPARE(QString::fromStdString(relu->camLayer()), QString("features.4"));
    why = compare(*relu, 1);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    // A layer that is not there, and one whose output is not feature maps.
    c.torchscript.grad_cam_layer = "features.9";
    QString e = errorOf([&] { buildModel(c, std::vector<int64_t>{1, 12, 12}, 3); });
    QVERIFY2(e.contains("model.torchscript.grad_cam_layer") && e.contains("features.9") &&
                 e.contains("features.3"), qPrintable(e));
    c.torchscript.grad_cam_layer = "head";
    ModelPtr head = buildModel(c, std::vector<int64_t>{1, 12, 12}, 3);
    e = errorOf([&] { gradCam(*head, x, classes, 12, 12); });
    QVERIFY2(e.contains("[N, K, h, w]") && e.contains("head"), qPrintable(e));
  }
  // A convolution forward calls only inside an if: no Grad-CAM by default, refused by name.
  ModelConfig b;
  b.kind = "torchscript";
  b.torchscript.path = branchy.toStdString();
  ModelPtr plain = buildModel(b, std::vector<int64_t>{1, 12, 12}, 3);
  QVERIFY(plain->camLayer().empty());
  QString e = errorOf([&] { gradCam(*plain, x, classes, 12, 12); });
  QVERIFY2(e.contains("Grad-CAM needs a convolution"), qPrintable(e));
  b.torchscript.grad_cam_layer = "conv";
  e = errorOf([&] { buildModel(b, std::vector<int64_t>{1, 12, 12}, 3); });
  QVERIFY2(e.contains("model.torchscript.grad_cam_layer") && e.contains("outside an if"), qPrintable(e));
}

TRAINSCOPE_TEST_MAIN(TstModelKinds)
}  // namespace tst_model_kinds_suite
#include "tst_model_kinds.moc"

// Importing weights saved by Python's torch.save (Debian's python3-torch,
// TRAINSCOPE_TEST_PYTHON): a bare state_dict (an OrderedDict) and a dict with
// model_state_dict, with hand-picked weights whose outputs are computed by hand here; strict
// matching (missing, unexpected, other shapes: all listed with both shapes); and every kind of
// bad file (legacy format, truncated, random bytes, empty, a zip that holds no state_dict)
// giving an error that names the file, never a crash, with the model untouched.
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <fstream>
#include <random>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/python_weights.h"
#include "core/io/python_weights_file.h"
#include "core/model/model.h"
#include "core/train/loop/trainer_hooks.h"
#include "core/train/state/weights_import.h"
#include "core/train/trainer.h"
#include "recording_observer.h"
#include "python_runner.h"
#include "test_util.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_python_weights_suite {

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

// Writes the example files into argv[1]. The pinned model: nn.Sequential(Linear(1, 2), ReLU(),
// Linear(2, 1)) with W0 = [[0.5], [-1]], b0 = [0.1, 0.2], W1 = [[2, -3]], b1 = [0.25].
const char* kScript = R"PY(
import argparse, collections, copy, os, sys, zipfile, torch
d = sys.argv[1]
nn = torch.nn
def pinned(dtype=torch.float32):
    m = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 1)).to(dtype)
    with torch.no_grad():
        m[0].weight.copy_(torch.tensor([[0.5], [-1.0]]))
        m[0].bias.copy_(torch.tensor([0.1, 0.2]))
        m[2].weight.copy_(torch.tensor([[2.0, -3.0]]))
        m[2].bias.copy_(torch.tensor([0.25]))
    return m
m = pinned()
sd = copy.deepcopy(m.state_dict())  # state_dict() shares the parameters' storage
assert isinstance(sd, collections.OrderedDict)
torch.save(sd, os.path.join(d, "bare.pt"))
torch.save(sd, os.path.join(d, "protocol4.pt"), pickle_protocol=4)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
m(torch.ones(3, 1)).sum().backward()
opt.step()  # the optimizer state has buffers; the model_state_dict saved is the pinned one
torch.save({"epoch": 7, "model_state_dict": sd, "optimizer_state_dict": opt.state_dict(),
            "loss": torch.tensor(0.5), "args": argparse.Namespace(lr=0.01, hidden=[2]),
            "note": "pinned"}, os.path.join(d, "dict.pt"))
torch.save(pinned(torch.float64).state_dict(), os.path.join(d, "float64.pt"))
torch.save(sd, os.path.join(d, "legacy.pt"), _use_new_zipfile_serialization=False)
deeper = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
torch.save(deeper.state_dict(), os.path.join(d, "deeper.pt"))
torch.save(m, os.path.join(d, "module.pt"))
torch.save([1, 2, 3], os.path.join(d, "list.pt"))
torch.save({"lr": 0.1, "name": "x"}, os.path.join(d, "not_state.pt"))
with zipfile.ZipFile(os.path.join(d, "plain.zip"), "w") as z:
    z.writestr("notes/readme.txt", "hello")
print("OK")
)PY";

/// y = W1 relu(W0 x + b0) + b1 of the pinned weights, by hand.
double pinnedOutput(double x) {
  const double h0 = std::max(0.0, 0.5 * x + 0.1), h1 = std::max(0.0, -1.0 * x + 0.2);
  return 2.0 * h0 - 3.0 * h1 + 0.25;
}

ModelConfig mlp(std::vector<int64_t> hidden) {
  ModelConfig c;
  c.kind = "mlp";
  c.hidden = std::move(hidden);
  c.activation = "relu";
  c.dropout = 0;
  return c;
}

std::string messageOf(const std::function<void()>& f, ErrorCode expected) {
  try {
    f();
  } catch (const Error& e) {
    if (e.code() != expected) return std::string("WRONG CODE: ") + e.what();
    return e.what();
  } catch (const std::exception& e) {
    return std::string("NOT AN Error: ") + e.what();
  }
  return "NO ERROR";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::vector<char> readBytes(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void writeBytes(const fs::path& f, const char* data, size_t n) {
  std::ofstream(f, std::ios::binary | std::ios::trunc).write(data, n);
}

}  // namespace

class TstPythonWeights : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void bareStateDictGivesThePinnedOutputs();
  void dictWithModelStateDict();
  void otherDtypeAndProtocolAreRead();
  void trainScopeCheckpointIsAWeightsFile();
  void mismatchListsEveryKeyWithBothShapes();
  void legacyFormatSaysHowToResave();
  void badFilesNameTheFileAndProblem();
  void truncatedAndCorruptedFilesNeverCrash();
  void trainerStartsFromImportedWeights();
  void trainerRefusesBadFilesBeforeWriting();

 private:
  QTemporaryDir tmp_;
  fs::path dir_;
};

void TstPythonWeights::initTestCase() {
  QVERIFY(tmp_.isValid());
  dir_ = tmp_.path().toStdString();
  const testpython::Result py =
      testpython::script(kScript, {QString::fromStdString(dir_.string())});
  QVERIFY2(py.finished, qPrintable(py.why));
  const QByteArray out = py.out + py.err;
  QVERIFY2(py.exit_code == 0 && out.startsWith("OK"), out.constData());
}

void TstPythonWeights::bareStateDictGivesThePinnedOutputs() {
  const fs::path file = dir_ / "bare.pt";
  const WeightsFileInfo info = inspectWeightsFile(file);
  QCOMPARE(toString(info.form), std::string("state_dict"));
  QVERIFY(info.keys.empty());
  QCOMPARE(info.tensors.size(), size_t(4));
  QCOMPARE(info.tensors[0].name, std::string("0.weight"));
  QCOMPARE(info.tensors[0].shape, (std::vector<int64_t>{2, 1}));
  QCOMPARE(info.tensors[0].dtype, std::string("float32"));
  QCOMPARE(info.tensors[3].name, std::string("2.bias"));
  QCOMPARE(info.tensors[3].shape, (std::vector<int64_t>{1}));

  torch::manual_seed(0);
  ModelPtr model = buildModel(mlp({2}), 1, 1);
  const WeightsFileInfo imported = importWeights(*model, file);
  QCOMPARE(imported.tensors.size(), size_t(4));
  torch::NoGradGuard no_grad;
  const std::vector<double> xs = {-2.0, -1.0, 0.0, 0.15, 1.0, 3.0};
  at::Tensor y = model->forward(torch::tensor(xs, torch::kFloat).reshape({-1, 1}));
  for (size_t i = 0; i < xs.size(); ++i)
    QVERIFY2(std::abs(y[i][0].item<double>() - pinnedOutput(xs[i])) <= 1e-6,
             qPrintable(QString("x=%1: %2 vs %3")
                            .arg(xs[i])
                            .arg(y[i][0].item<double>())
                            .arg(pinnedOutput(xs[i]))));
}

void TstPythonWeights::dictWithModelStateDict() {
  const fs::path file = dir_ / "dict.pt";
  const WeightsFileInfo info = inspectWeightsFile(file);
  QCOMPARE(toString(info.form), std::string("model_state_dict"));
  QCOMPARE(info.keys, (std::vector<std::string>{"epoch", "model_state_dict", "optimizer_state_dict",
                                                "loss", "args", "note"}));
  QCOMPARE(info.tensors.size(), size_t(4));
  // The whole object is decoded: the Python ints, the optimizer's int keys and buffers.
  c10::IValue root = readTorchSaveFile(file);
  auto d = root.toGenericDict();
  QCOMPARE(d.at("epoch").toInt(), int64_t(7));
  auto opt = d.at("optimizer_state_dict").toGenericDict();
  auto state0 = opt.at("state").toGenericDict().at(int64_t(0)).toGenericDict();
  QCOMPARE(state0.at("exp_avg").toTensor().sizes().vec(), (std::vector<int64_t>{2, 1}));
  auto group = opt.at("param_groups").toListRef()[0].toGenericDict();
  QCOMPARE(group.at("lr").toDouble(), 0.01);
  QCOMPARE(group.at("betas").toTupleRef().elements()[1].toDouble(), 0.999);

  ModelPtr model = buildModel(mlp({2}), 1, 1);
  importWeights(*model, file);
  torch::NoGradGuard no_grad;
  at::Tensor y = model->forward(torch::tensor({{-1.0f}, {1.0f}}));
  QVERIFY(std::abs(y[0][0].item<double>() - pinnedOutput(-1.0)) <= 1e-6);  // -3.35
  QVERIFY(std::abs(y[1][0].item<double>() - pinnedOutput(1.0)) <= 1e-6);   // 1.45
}

void TstPythonWeights::otherDtypeAndProtocolAreRead() {
  // pickle protocol 4 (FRAME, SHORT_BINUNICODE, MEMOIZE) and float64 values converted on copy,
  // as Python's load_state_dict does.
  for (const char* name : {"protocol4.pt", "float64.pt"}) {
    ModelPtr model = buildModel(mlp({2}), 1, 1);
    importWeights(*model, dir_ / name);
    torch::NoGradGuard no_grad;
    at::Tensor y = model->forward(torch::tensor({{0.0f}}));
    QCOMPARE(y.scalar_type(), torch::kFloat);
    QVERIFY2(std::abs(y[0][0].item<double>() - pinnedOutput(0.0)) <= 1e-6, name);  // -0.15
  }
  QCOMPARE(inspectWeightsFile(dir_ / "float64.pt").tensors[0].dtype, std::string("float64"));
}

void TstPythonWeights::trainScopeCheckpointIsAWeightsFile() {
  TrainConfig c = resolveConfig("overfit-sine", {}, {});
  c.model.hidden = {3};
  c.training.epochs = 1;
  TrainerOptions o;
  o.run_dir = dir_ / "ckpt-run";
  Trainer trainer(c, o);
  COMPARE_REASON(trainer.run().stop_reason, StopReason::Completed);
  const fs::path file = o.run_dir / "checkpoints" / "last.pt";
  const WeightsFileInfo info = inspectWeightsFile(file);
  QCOMPARE(toString(info.form), std::string("trainscope_checkpoint"));
  QCOMPARE(info.tensors.size(), size_t(4));
  QCOMPARE(info.tensors[0].shape, (std::vector<int64_t>{3, 1}));
  // Its weights, bit for bit, against libtorch's own reader of the checkpoint.
  c10::IValue ref = torch::pickle_load(readBytes(file));
  auto ref_sd = ref.toGenericDict().at("model_state_dict").toGenericDict();
  ModelPtr model = buildModel(c.model, 1, 1);
  importWeights(*model, file);
  for (const auto& [name, t] : model->named_parameters())
    QVERIFY2(torch::equal(t, ref_sd.at(name).toTensor()), name.c_str());
}

void TstPythonWeights::mismatchListsEveryKeyWithBothShapes() {
  // File: Linear(1,2) ReLU Linear(2,2) ReLU Linear(2,1); model hidden [2] -> 0.*, 2.* only.
  ModelPtr model = buildModel(mlp({2}), 1, 1);
  const at::Tensor before = model->parameters()[0].clone();
  const fs::path file = dir_ / "deeper.pt";
  const std::string msg = messageOf([&] { importWeights(*model, file); }, ErrorCode::Checkpoint);
  QVERIFY2(contains(msg, file.string()), msg.c_str());
  QVERIFY2(contains(msg, "2.weight: file [2, 2], model [1, 2]"), msg.c_str());
  QVERIFY2(contains(msg, "2.bias: file [2], model [1]"), msg.c_str());
  QVERIFY2(contains(msg, "4.weight [1, 2] is not in the model"), msg.c_str());
  QVERIFY2(contains(msg, "4.bias [1] is not in the model"), msg.c_str());
  QVERIFY2(!contains(msg, "0.weight"), msg.c_str());  // that one matches
  // The matching 0.* entries were not copied: the model is untouched.
  QVERIFY(torch::equal(model->parameters()[0], before));

  // Missing keys: model hidden [2, 2] against the pinned two-layer file.
  ModelPtr wider = buildModel(mlp({2, 2}), 1, 1);
  const std::string missing =
      messageOf([&] { importWeights(*wider, dir_ / "bare.pt"); }, ErrorCode::Checkpoint);
  QVERIFY2(contains(missing, "4.weight missing from the file (model [1, 2])"), missing.c_str());
  QVERIFY2(contains(missing, "4.bias missing from the file (model [1])"), missing.c_str());
  QVERIFY2(contains(missing, "2.weight: file [1, 2], model [2, 2]"), missing.c_str());
}

void TstPythonWeights::legacyFormatSaysHowToResave() {
  const fs::path file = dir_ / "legacy.pt";
  const std::string msg = messageOf([&] { inspectWeightsFile(file); }, ErrorCode::Checkpoint);
  QVERIFY2(contains(msg, file.string()), msg.c_str());
  QVERIFY2(contains(msg, "legacy (non-zip) format"), msg.c_str());
  QVERIFY2(contains(msg, "torch.save("), msg.c_str());
  QVERIFY2(contains(msg, "_use_new_zipfile_serialization=True"), msg.c_str());
}

void TstPythonWeights::badFilesNameTheFileAndProblem() {
  std::mt19937 rng(12345);
  std::vector<char> random(4096);
  for (char& c : random) c = static_cast<char>(rng());
  random[0] = 'Q';
  writeBytes(dir_ / "random.bin", random.data(), random.size());
  writeBytes(dir_ / "empty.pt", "", 0);
  const std::vector<char> bare = readBytes(dir_ / "bare.pt");
  writeBytes(dir_ / "half.pt", bare.data(), bare.size() / 2);
  struct Case {
    const char* file;
    const char* problem;
  };
  const Case cases[] = {
      {"random.bin", "not a PyTorch file"},
      {"empty.pt", "the file is empty"},
      {"missing.pt", "no such file"},
      {"half.pt", "truncated or corrupt"},
      {"plain.zip", "not a torch.save file"},
      {"module.pt", "holds a torch.nn.modules.container.Sequential object, not a state_dict"},
      {"list.pt", "holds a list, not a state_dict"},
      {"not_state.pt", "neither a state_dict"},
  };
  for (const Case& c : cases) {
    const fs::path file = dir_ / c.file;
    ModelPtr model = buildModel(mlp({2}), 1, 1);
    const std::string msg = messageOf([&] { importWeights(*model, file); }, ErrorCode::Checkpoint);
    QVERIFY2(contains(msg, "cannot read weights from " + file.string() + ": "), msg.c_str());
    QVERIFY2(contains(msg, c.problem), msg.c_str());
  }
  const std::string keys =
      messageOf([&] { inspectWeightsFile(dir_ / "not_state.pt"); }, ErrorCode::Checkpoint);
  QVERIFY2(contains(keys, "'lr', 'name'"), keys.c_str());
}

void TstPythonWeights::truncatedAndCorruptedFilesNeverCrash() {
  // Every cut of the dict file and single-byte flips all over it: an Error naming the file, or
  // (a flip inside tensor bytes the zip's CRC does not cover) a successful read. Never a crash
  // or another exception type.
  const std::vector<char> bytes = readBytes(dir_ / "dict.pt");
  const fs::path file = dir_ / "cut.pt";
  int errors = 0;
  for (size_t n = 1; n < bytes.size(); n += 7) {
    writeBytes(file, bytes.data(), n);
    const std::string msg = messageOf([&] { inspectWeightsFile(file); }, ErrorCode::Checkpoint);
    QVERIFY2(contains(msg, "cannot read weights from " + file.string()), msg.c_str());
    ++errors;
  }
  QVERIFY(errors > 100);
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    std::vector<char> b = bytes;
    const size_t at = rng() % b.size();
    b[at] = static_cast<char>(b[at] ^ (1 + rng() % 255));
    writeBytes(file, b.data(), b.size());
    const std::string msg = messageOf([&] { inspectWeightsFile(file); }, ErrorCode::Checkpoint);
    QVERIFY2(msg == "NO ERROR" || contains(msg, "cannot read weights from " + file.string()),
             msg.c_str());
  }
}

void TstPythonWeights::trainerStartsFromImportedWeights() {
  TrainConfig c = resolveConfig("overfit-sine", {}, {});
  c.model.hidden = {2};
  c.model.activation = "relu";
  c.model.dropout = 0;
  c.training.epochs = 1;
  TrainerOptions o;
  o.run_dir = dir_ / "imported-run";
  o.init_weights = dir_ / "dict.pt";
  Trainer trainer(c, o);
  std::vector<at::Tensor> first;
  TrainerHooks hooks;
  hooks.after_backward = [&](const std::vector<at::Tensor>& params) {
    if (first.empty())
      for (const auto& p : params) first.push_back(p.detach().clone());
  };
  TrainerAccess::setHooks(trainer, hooks);
  testrun::RecordingObserver events;
  trainer.addObserver(&events);
  COMPARE_REASON(trainer.run().stop_reason, StopReason::Completed);

  // The first step trained from the pinned weights.
  QCOMPARE(first.size(), size_t(4));
  QVERIFY(torch::equal(first[0], torch::tensor({{0.5f}, {-1.0f}})));
  QVERIFY(torch::equal(first[1], torch::tensor({0.1f, 0.2f})));
  QVERIFY(torch::equal(first[2], torch::tensor({{2.0f, -3.0f}})));
  QVERIFY(torch::equal(first[3], torch::tensor({0.25f})));

  int imported = 0;
  for (const Event& e : events.events)
    if (e.kind == EventKind::WeightsImported) {
      ++imported;
      QCOMPARE(e.file, o.init_weights.string());
      QCOMPARE(e.message, "weights imported from " + o.init_weights.string() + " (4 tensors)");
      QCOMPARE(e.value.value_or(-1), 4.0);
      QCOMPARE(e.step, int64_t(0));
    }
  QCOMPARE(imported, 1);
  QCOMPARE(toString(EventKind::WeightsImported), std::string("weights_imported"));
  QVERIFY(eventKindFromString("weights_imported") == EventKind::WeightsImported);

  const QJsonObject run = testfiles::readJsonObject(testfiles::qpath(o.run_dir / "run.json"));
  const QJsonObject iw = run["init_weights"].toObject();
  QCOMPARE(iw["file"].toString().toStdString(), fs::absolute(o.init_weights).string());
  QCOMPARE(iw["form"].toString(), QString("model_state_dict"));
  QCOMPARE(iw["tensors"].toInt(), 4);
  bool logged = false;
  for (const QString& line : testfiles::readLines(testfiles::qpath(o.run_dir / "events.jsonl")))
    logged = logged || QJsonDocument::fromJson(line.toUtf8()).object()["kind"].toString() ==
                           "weights_imported";
  QVERIFY(logged);
}

void TstPythonWeights::trainerRefusesBadFilesBeforeWriting() {
  TrainConfig c = resolveConfig("overfit-sine", {}, {});
  c.model.hidden = {4};
  c.training.epochs = 1;
  {
    TrainerOptions o;
    o.run_dir = dir_ / "mismatch-run";
    o.init_weights = dir_ / "bare.pt";
    Trainer trainer(c, o);
    const std::string msg = messageOf([&] { trainer.run(); }, ErrorCode::Checkpoint);
    QVERIFY2(contains(msg, "0.weight: file [2, 1], model [4, 1]"), msg.c_str());
    QVERIFY2(contains(msg, "2.weight: file [1, 2], model [1, 4]"), msg.c_str());
    QVERIFY(!fs::exists(o.run_dir));
  }
  {
    TrainerOptions o;
    o.run_dir = dir_ / "both-run";
    o.init_weights = dir_ / "bare.pt";
    o.resume_from = dir_ / "ckpt-run" / "checkpoints" / "last.pt";
    Trainer trainer(c, o);
    const std::string msg = messageOf([&] { trainer.run(); }, ErrorCode::Config);
    QVERIFY2(contains(msg, "cannot be combined with resume_from"), msg.c_str());
    QVERIFY(!fs::exists(o.run_dir));
  }
}

TRAINSCOPE_TEST_MAIN(TstPythonWeights)
}  // namespace tst_python_weights_suite
#include "tst_python_weights.moc"

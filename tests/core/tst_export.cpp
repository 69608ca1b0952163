// Exports (issue 50) checked by runtimes other than TrainScope's: runs of every model kind are
// trained, exported as TorchScript and ONNX, and the files run on 100 validation samples as
// they are stored (pixels 0-255, table values before standardisation) must give the run's own
// model outputs (the checkpoint's weights on the run's preprocessed inputs): Python's
// torch.jit.load (torch 1.13) within 1e-6, ONNX through OpenCV's dnn in C++
// (cv::dnn::readNetFromONNX) and in Python (cv2) within 1e-4, onnx.checker.check_model
// (full_check) passing. The model cards' numbers against the run's files; refusals with what
// and why, nothing written.
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/dnn.hpp>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/errors.h"
#include "core/export/export_model.h"
#include "core/model/model.h"
#include "core/run/run_reader.h"
#include "core/train/state/weights_import.h"
#include "core/train/trainer.h"
#include "python_runner.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_export_suite {

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

/// Trains `preset` with `sets` (one thread) into `dir`; returns the run folder.
fs::path trainInto(const fs::path& dir, const std::string& preset, const std::vector<std::string>& sets) {
  TrainConfig c = resolveConfig(preset, {}, sets);
  c.training.num_threads = 1;
  TrainerOptions o;
  o.run_dir = dir;
  Trainer t(c, o);
  const RunSummary s = t.run();
  if (s.stop_reason != StopReason::Completed) throw std::runtime_error("the run did not complete");
  return dir;
}

/// The first `n` validation samples as stored (float32) and the run's model outputs for them
/// (checkpoint `which`, on the inputs the run's preprocessing gives).
struct Reference {
  at::Tensor raw, inputs, out;
};

Reference reference(const fs::path& run, const std::string& which, int64_t n) {
  std::ifstream in(run / "config.json");
  const TrainConfig c = configFromJson(nlohmann::json::parse(in));
  const PreparedData data = loadData(c.data);
  TrainConfig raw_config = c;
  raw_config.data.standardize = false;
  const PreparedData raw = loadData(raw_config.data);
  ModelPtr m = buildModel(c.model, data.summary);
  importWeights(*m, run / "checkpoints" / (which + ".pt"));
  m->eval();
  torch::NoGradGuard no_grad;
  n = std::min(n, data.val.size());
  Reference r;
  r.inputs = data.val.inputs(0, n).contiguous();
  r.out = m->forward(r.inputs).contiguous();
  r.raw = raw.val.x.slice(0, 0, n).to(at::kFloat).contiguous();
  return r;
}

/// Largest absolute difference between OpenCV dnn's outputs for `x` and `expected`, or -1
/// when the shapes differ.
double opencvDifference(const fs::path& onnx, const at::Tensor& x, const at::Tensor& expected) {
  cv::dnn::Net net = cv::dnn::readNetFromONNX(onnx.string());
  std::vector<int> dims;
  for (int64_t d : x.sizes()) dims.push_back(static_cast<int>(d));
  cv::Mat input(static_cast<int>(dims.size()), dims.data(), CV_32F, x.data_ptr<float>());
  net.setInput(input);
  const cv::Mat y = net.forward();
  if (static_cast<int64_t>(y.total()) != expected.numel()) return -1;
  const at::Tensor got = at::from_blob(const_cast<float*>(y.ptr<float>()), {expected.numel()}, at::kFloat);
  return (got - expected.flatten()).abs().max().item<double>();
}

void writeFloats(const fs::path& file, const at::Tensor& t) {
  std::ofstream out(file, std::ios::binary);
  out.write(static_cast<const char*>(t.data_ptr()), static_cast<std::streamsize>(t.numel() * 4));
}

QString shapeArg(const at::Tensor& t) {
  QStringList s;
  for (int64_t d : t.sizes()) s << QString::number(d);
  return s.join(',');
}

/// Python's side: torch.jit.load on the TorchScript file, onnx.checker and cv2 on the ONNX
/// file (empty: none), each compared with the run's outputs. Lines "torch D", "checker ok",
/// "cv2 D".
const char* const kPythonCheck = R"(
import sys, numpy as np, torch
pt, onnx_file, raw_file, out_file, raw_shape, out_shape = sys.argv[1:7]
raw = np.fromfile(raw_file, np.float32).reshape([int(v) for v in raw_shape.split(',')])
out = np.fromfile(out_file, np.float32).reshape([int(v) for v in out_shape.split(',')])
torch.set_num_threads(1)
m = torch.jit.load(pt)
with torch.no_grad():
    got = m(torch.from_numpy(raw)).numpy()
print('torch %.3g' % np.abs(got - out).max())
if onnx_file != '-':
    import onnx, cv2
    onnx.checker.check_model(onnx.load(onnx_file), full_check=True)
    print('checker ok')
    net = cv2.dnn.readNetFromONNX(onnx_file)
    net.setInput(raw)
    print('cv2 %.3g' % np.abs(net.forward() - out).max())
)";

}  // namespace

class TstExport : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void exportsEqualTheRunsModel_data();
  void exportsEqualTheRunsModel();
  void rawInputAndSoftmax();
  void torchScriptModelIsWrapped();
  void cardSaysWhatTheRunDid();
  void badInputIsRefused();

 private:
  QTemporaryDir tmp_;
  fs::path root() const { return tmp_.path().toStdString(); }
};

void TstExport::initTestCase() {
  QVERIFY(tmp_.isValid());
  at::set_num_threads(1);
}

void TstExport::exportsEqualTheRunsModel_data() {
  QTest::addColumn<QString>("preset");
  QTest::addColumn<QStringList>("sets");
  QTest::addColumn<bool>("onnx");
  QTest::newRow("moons mlp, per-feature standardisation") << "moons" << QStringList{"training.epochs=2"} << true;
  QTest::newRow("flowers-csv, tanh and dropout")
      << "flowers-csv" << QStringList{"training.epochs=2", "model.activation=tanh", "model.dropout=0.1"} << true;
  QTest::newRow("housing-csv regression, sigmoid")
      << "housing-csv" << QStringList{"training.epochs=2", "model.activation=sigmoid"} << true;
  QTest::newRow("fashion-mnist-cnn: batch norm, max pool")
      << "fashion-mnist-cnn" << QStringList{"data.limit=600", "training.epochs=1"} << true;
  QTest::newRow("cnn: gelu, avg pool, padding, a hidden layer")
      << "fashion-mnist-cnn"
      << QStringList{"data.limit=600", "training.epochs=1", "model.activation=gelu", "model.cnn.pool=avg",
                     "model.cnn.padding=1", "model.cnn.batch_norm=false", "model.cnn.channels=[4,6]",
                     "model.cnn.hidden=[16]", "model.dropout=0.2"}
      << true;
  QTest::newRow("rnn: lstm, 2 layers, bidirectional, mean")
      << "rnn-exploding"
      << QStringList{"training.epochs=1", "data.limit=300", "model.rnn.cell=lstm", "model.rnn.num_layers=2",
                     "model.rnn.bidirectional=true", "model.rnn.output=mean", "training.clip.enabled=true"}
      << false;
  QTest::newRow("rnn: gru") << "rnn-exploding"
                            << QStringList{"training.epochs=1", "data.limit=300", "model.rnn.cell=gru",
                                           "training.clip.enabled=true"}
                            << false;
  QTest::newRow("rnn: relu rnn") << "rnn-exploding"
                                 << QStringList{"training.epochs=1", "data.limit=300", "model.rnn.nonlinearity=relu",
                                                "training.clip.enabled=true", "optimizer.lr=0.01"}
                                 << false;
}

void TstExport::exportsEqualTheRunsModel() {
  QFETCH(QString, preset);
  QFETCH(QStringList, sets);
  QFETCH(bool, onnx);
  static int row = 0;
  const fs::path dir = root() / ("run-" + std::to_string(++row));
  std::vector<std::string> s;
  for (const QString& v : sets) s.push_back(v.toStdString());
  const fs::path run = trainInto(dir, preset.toStdString(), s);
  const Reference ref = reference(run, "best", 100);
  QVERIFY(ref.raw.size(0) > 10);

  ExportRequest r;
  r.run = run;
  r.format = "torchscript";
  r.output = root() / (dir.filename().string() + ".pt");
  const ExportResult ts = exportModel(r);
  QVERIFY(ts.self_check && *ts.self_check <= 1e-6);
  fs::path onnx_file;
  if (onnx) {
    r.format = "onnx";
    r.output = root() / (dir.filename().string() + "-onnx.onnx");  // its own card name
    onnx_file = exportModel(r).file;
    const double cv = opencvDifference(onnx_file, ref.raw, ref.out);
    qInfo("OpenCV dnn (C++): largest difference %.3g", cv);
    QVERIFY2(cv >= 0 && cv <= 1e-4, qPrintable(QString::number(cv)));
  } else {
    r.format = "onnx";
    r.output = root() / (dir.filename().string() + "-onnx.onnx");
    try {
      exportModel(r);
      QFAIL("an rnn model was written as ONNX");
    } catch (const Error& e) {
      QVERIFY2(QString(e.what()).contains("layer rnn (") && QString(e.what()).contains("--format torchscript"), e.what());
    }
    QVERIFY(!fs::exists(r.output));  // never a partial file
  }
  writeFloats(root() / "raw.f32", ref.raw);
  writeFloats(root() / "out.f32", ref.out);
  const testpython::Result py = testpython::script(
      kPythonCheck,
      {QString::fromStdString(ts.file.string()), onnx ? QString::fromStdString(onnx_file.string()) : "-",
       QString::fromStdString((root() / "raw.f32").string()), QString::fromStdString((root() / "out.f32").string()),
       shapeArg(ref.raw), shapeArg(ref.out)},
      300000);
  QVERIFY2(py.ok, qPrintable(py.why));
  const QStringList lines = py.lines();
  qInfo("%s", qPrintable(lines.join("; ")));
  QCOMPARE(lines.size(), onnx ? 3 : 1);
  QVERIFY2(lines[0].startsWith("torch ") && lines[0].mid(6).toDouble() <= 1e-6, qPrintable(lines[0]));
  if (onnx) {
    QCOMPARE(lines[1], QString("checker ok"));
    QVERIFY2(lines[2].startsWith("cv2 ") && lines[2].mid(4).toDouble() <= 1e-4, qPrintable(lines[2]));
  }
}

/// --raw-input: the export takes the model's own (preprocessed) inputs; --softmax: rows of
/// probabilities, softmax of the run's logits.
void TstExport::rawInputAndSoftmax() {
  const fs::path run = trainInto(root() / "raw-moons", "moons", {"training.epochs=1"});
  const Reference ref = reference(run, "best", 50);
  ExportRequest r;
  r.run = run;
  r.format = "onnx";
  r.raw_input = true;
  r.output = root() / "raw.onnx";
  exportModel(r);
  const double raw_diff = opencvDifference(r.output, ref.inputs, ref.out);
  QVERIFY2(raw_diff >= 0 && raw_diff <= 1e-4, qPrintable(QString::number(raw_diff)));
  r.raw_input = false;
  r.softmax = true;
  r.output = root() / "soft.onnx";
  exportModel(r);
  const at::Tensor probs = at::softmax(ref.out, 1).contiguous();
  const double soft_diff = opencvDifference(r.output, ref.raw, probs);
  QVERIFY2(soft_diff >= 0 && soft_diff <= 1e-5, qPrintable(QString::number(soft_diff)));
  std::ifstream in(root() / "soft.model-card.json");
  const nlohmann::json card = nlohmann::json::parse(in);
  QVERIFY(card["output"].get<std::string>().rfind("probabilities", 0) == 0);
}

/// The torchscript kind: the user's module (a scripted CNN taking [N, 1, 28, 28]) wrapped
/// with the run's preprocessing and a reshape of the stored flat pixels, equal to the run's
/// model in Python; ONNX refused with what to do instead.
void TstExport::torchScriptModelIsWrapped() {
  const QString file = QString::fromStdString((root() / "user-cnn.pt").string());
  const testpython::Result made = testpython::scriptFile(
      QString("import torch, torch.nn as nn\n"
              "class Net(nn.Module):\n"
              "    def __init__(self):\n"
              "        super().__init__()\n"
              "        self.features = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2))\n"
              "        self.head = nn.Linear(4 * 13 * 13, 10)\n"
              "    def forward(self, x):\n"
              "        return self.head(self.features(x).flatten(1))\n"
              "torch.manual_seed(1)\n"
              "torch.jit.script(Net()).save('%1')\n")
          .arg(file));
  QVERIFY2(made.ok, qPrintable(made.why));
  const fs::path run = trainInto(root() / "user-cnn-run", "fashion-mnist-cnn",
                                 {"data.limit=300", "training.epochs=1", "model.kind=torchscript",
                                  "model.torchscript.path=" + file.toStdString()});
  const Reference ref = reference(run, "best", 100);
  ExportRequest r;
  r.run = run;
  r.format = "torchscript";
  r.output = root() / "user-cnn-export.pt";
  const ExportResult ts = exportModel(r);
  QVERIFY(ts.self_check && *ts.self_check <= 1e-6);
  writeFloats(root() / "raw.f32", ref.raw);
  writeFloats(root() / "out.f32", ref.out);
  const testpython::Result py = testpython::script(
      kPythonCheck,
      {QString::fromStdString(ts.file.string()), "-", QString::fromStdString((root() / "raw.f32").string()),
       QString::fromStdString((root() / "out.f32").string()), shapeArg(ref.raw), shapeArg(ref.out)},
      300000);
  QVERIFY2(py.ok, qPrintable(py.why));
  qInfo("%s", qPrintable(py.lines().join("; ")));
  QVERIFY2(py.lines().value(0).mid(6).toDouble() <= 1e-6 && py.lines().value(0).startsWith("torch "),
           qPrintable(py.lines().join("; ")));
  r.format = "onnx";
  r.output = root() / "user-cnn-onnx.onnx";
  try {
    exportModel(r);
    QFAIL("a torchscript model was written as ONNX");
  } catch (const Error& e) {
    QVERIFY2(QString(e.what()).contains("torch.onnx.export"), e.what());
  }
  QVERIFY(!fs::exists(r.output));
}

/// The card's numbers are the run's: classes, shapes, preprocessing, metrics of the exported
/// epoch (metrics.csv), settings changed (the --set values), the checkpoint.
void TstExport::cardSaysWhatTheRunDid() {
  const fs::path run = trainInto(root() / "card-cnn", "fashion-mnist-cnn",
                                 {"data.limit=600", "training.epochs=2", "optimizer.lr=0.002"});
  ExportRequest r;
  r.run = run;
  r.format = "onnx";
  r.checkpoint = "last";
  r.output = root() / "cards" / "m.onnx";
  fs::create_directories(root() / "cards");
  const ExportResult res = exportModel(r);
  QCOMPARE(res.card_json, root() / "cards" / "m.model-card.json");
  QCOMPARE(res.card_markdown, root() / "cards" / "m.model-card.md");
  std::ifstream in(res.card_json);
  const nlohmann::json card = nlohmann::json::parse(in);
  for (const char* key : {"task", "class_names", "input_shape", "input_dtype", "preprocessing", "metrics"})
    QVERIFY2(card.contains(key), key);
  QCOMPARE(card["task"].get<std::string>(), std::string("classification"));
  QCOMPARE(card["class_names"].size(), std::size_t{10});
  QCOMPARE(card["class_names"][9].get<std::string>(), std::string("Ankle boot"));
  QCOMPARE(card["input_shape"].dump(), std::string(R"(["N",784])"));
  QCOMPARE(card["input_dtype"].get<std::string>(), std::string("float32"));
  QVERIFY(card["preprocessing"]["included"].get<bool>());
  QCOMPARE(card["preprocessing"]["pixel_scale"].get<double>(), 255.0);
  QCOMPARE(card["checkpoint"]["epoch"].get<int64_t>(), int64_t{2});
  const std::vector<EpochRecord> epochs = readMetricsCsv(run / "metrics.csv");
  QCOMPARE(card["metrics"]["val_loss"].get<double>(), epochs.back().val_loss);
  QCOMPARE(card["metrics"]["val_accuracy"].get<double>(), *epochs.back().val_accuracy);
  QVERIFY(card["metrics"].contains("test_accuracy"));
  bool lr = false, limit = false;
  for (const auto& c : card["settings_changed"]["keys"]) {
    lr = lr || (c["key"] == "optimizer.lr" && c["value"] == "0.002");
    limit = limit || c["key"] == "data.limit";
    QVERIFY2(c["key"] != "training.num_threads" && c["key"] != "training.non_finite", qPrintable(QString::fromStdString(c.dump())));
  }
  QVERIFY(lr && limit);
  // The best weights are the last epoch's here or not: test metrics only where they are the
  // weights the run tested.
  r.checkpoint = "best";
  r.output = root() / "cards" / "best.onnx";
  const ExportResult best = exportModel(r);
  std::ifstream best_in(best.card_json);
  const nlohmann::json best_card = nlohmann::json::parse(best_in);
  if (best.epoch == 2) QVERIFY(best_card["metrics"].contains("test_accuracy"));
  // A copy renamed (config.json names no preset) without its summary (a run still training):
  // compared with the closest preset, keys that do not apply to a CNN left out; the caveat said.
  const fs::path copy = root() / "card-copy";
  fs::copy(run, copy, fs::copy_options::recursive);
  fs::remove(copy / "summary.json");
  {
    std::ifstream cin(copy / "config.json");
    nlohmann::json cj = nlohmann::json::parse(cin);
    cj["name"] = "mine";
    std::ofstream(copy / "config.json") << cj.dump(2);
  }
  r.run = copy;
  r.output = root() / "cards" / "copy.onnx";
  const ExportResult cr = exportModel(r);
  QCOMPARE(cr.notes.size(), std::size_t{1});
  QVERIFY2(QString::fromStdString(cr.notes[0]).contains("no summary.json"), cr.notes[0].c_str());
  std::ifstream copy_in(cr.card_json);
  const nlohmann::json copy_card = nlohmann::json::parse(copy_in);
  QVERIFY2(copy_card["settings_changed"]["compared_with"].get<std::string>().rfind("preset fashion-mnist-cnn (the closest", 0) == 0,
           copy_card["settings_changed"].dump().c_str());
  QCOMPARE(copy_card["settings_changed"]["keys"], card["settings_changed"]["keys"]);
  QCOMPARE(copy_card["caveats"].size(), std::size_t{1});
  std::ifstream md(res.card_markdown);
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  QVERIFY(text.rfind("# Model card: m.onnx", 0) == 0);
  QVERIFY(text.find("cv2.dnn.readNetFromONNX(\"m.onnx\")") != std::string::npos);
  QVERIFY(text.find("(x / 255 - ") != std::string::npos);
}

/// Bad input: exit 2's errors naming what and why, nothing written, the run folder unchanged.
void TstExport::badInputIsRefused() {
  const fs::path run = trainInto(root() / "bad-moons", "moons", {"training.epochs=1"});
  auto listing = [&] {
    std::vector<std::pair<std::string, std::uintmax_t>> files;
    for (const auto& e : fs::recursive_directory_iterator(run))
      files.emplace_back(e.path().string(), e.is_regular_file() ? fs::file_size(e.path()) : 0);
    std::sort(files.begin(), files.end());
    return files;
  };
  const auto before = listing();
  auto refused = [&](ExportRequest r, const QString& says) {
    try {
      exportModel(r);
    } catch (const Error& e) {
      const bool usage = e.code() == ErrorCode::Config || e.code() == ErrorCode::Checkpoint;  // exit 2
      return usage && QString(e.what()).contains(says) ? QString() : QString("wrong error: ") + e.what();
    }
    return QString("not refused");
  };
  ExportRequest r;
  r.run = run;
  r.format = "onnx";
  r.output = root() / "bad.onnx";
  ExportRequest x = r;
  x.format = "tflite";
  QString why = refused(x, "--format must be onnx or torchscript");
  QVERIFY2(why.isEmpty(), qPrintable(why));
  x = r;
  x.checkpoint = "epoch-3";
  QVERIFY2((why = refused(x, "--checkpoint must be best or last")).isEmpty(), qPrintable(why));
  x = r;
  x.output = root();  // a directory
  QVERIFY2((why = refused(x, "is a directory")).isEmpty(), qPrintable(why));
  x.output = run / "m.onnx";  // inside the run folder
  QVERIFY2((why = refused(x, "inside the run folder")).isEmpty(), qPrintable(why));
  x.output = run / "config.json";  // a run's own file
  QVERIFY2((why = refused(x, "config.json")).isEmpty(), qPrintable(why));
  x.output = root() / "missing-folder" / "m.onnx";
  QVERIFY2((why = refused(x, "does not exist")).isEmpty(), qPrintable(why));
  {
    std::ofstream mine(root() / "mine.onnx");
    mine << "the user's own file";
  }
  x.output = root() / "mine.onnx";
  QVERIFY2((why = refused(x, "not written by TrainScope")).isEmpty(), qPrintable(why));
  x = r;
  x.run = run / "config.json";  // a file, not a run folder
  QVERIFY2((why = refused(x, "is not a run folder")).isEmpty(), qPrintable(why));
  x.run = root() / "nowhere";
  QVERIFY2((why = refused(x, "does not exist")).isEmpty(), qPrintable(why));
  // A run without its best checkpoint (a copy without it), and one whose checkpoint holds
  // another model than its config.
  const fs::path copy = root() / "bad-copy";
  fs::copy(run, copy, fs::copy_options::recursive);
  fs::remove(copy / "checkpoints" / "best.pt");
  x = r;
  x.run = copy;
  QVERIFY2((why = refused(x, "has no checkpoints/best.pt")).isEmpty(), qPrintable(why));
  QVERIFY2((why = refused(x, "--checkpoint last")).isEmpty(), qPrintable(why));
  const fs::path other = trainInto(root() / "bad-wide", "moons", {"training.epochs=1", "model.hidden=[7]"});
  fs::copy_file(other / "checkpoints" / "best.pt", copy / "checkpoints" / "best.pt");
  QVERIFY2((why = refused(x, "holds another model than the run's config.json: model.hidden [7]")).isEmpty(),
           qPrintable(why));
  QVERIFY(!fs::exists(root() / "bad.onnx") && !fs::exists(root() / "bad.model-card.json"));
  QVERIFY(before == listing());  // nothing in the run folder changed
  // Over 64 MiB (an export can be): recognised by its first and last MiB, a stranger's refused.
  {
    std::string big(65u << 20, '\0');
    std::ofstream(root() / "big.pt", std::ios::binary) << big;
    x = r;
    x.format = "torchscript";
    x.output = root() / "big.pt";
    QVERIFY2((why = refused(x, "not written by TrainScope")).isEmpty(), qPrintable(why));
    const std::string mark = "archive/extra/trainscope_export.json";
    big.replace(big.size() - 1000, mark.size(), mark);  // as a zip's central directory names it
    std::ofstream(root() / "big.pt", std::ios::binary) << big;
    QVERIFY(exportModel(x).file == root() / "big.pt");
    QVERIFY(fs::file_size(root() / "big.pt") < (1u << 20));
  }
  // A file TrainScope wrote is replaced on a second export.
  exportModel(r);
  exportModel(r);
  QVERIFY(before == listing());
}

TRAINSCOPE_TEST_MAIN(TstExport)
}  // namespace tst_export_suite
#include "tst_export.moc"

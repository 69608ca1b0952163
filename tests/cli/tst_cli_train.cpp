// End-to-end tests of `trainscope-cli train`: the run directory it writes (ARCHITECTURE §4),
// reproducibility of unseeded runs, Fashion-MNIST on a subset, and the non-finite stop.
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <cmath>

#include "python_runner.h"
#include "cli_test_util.h"

using namespace clitest;

namespace {

/// Relative closeness for values that went through "%.9g" text (9 significant digits).
bool close9(double a, double b) {
  return std::fabs(a - b) <= 1e-7 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

/// Training-split size as core documents it (core/data/dataset.h splitIndices): the
/// validation count is round(n * val_fraction), at least 1 when n >= 2.
int64_t trainCount(int64_t n, double val_fraction) {
  int64_t n_val = std::llround(n * val_fraction);
  if (n >= 2 && val_fraction > 0 && n_val < 1) n_val = 1;
  return n - n_val;
}

/// Evaluates a Fashion-MNIST run's last.pt on the t10k files in Python's torch (argv: run
/// folder, data folder) from what the run recorded alone: the MLP rebuilt from the config, the
/// test images read from the IDX files and preprocessed as the checkpoint's `data` says.
/// Prints "OK <test loss> <test accuracy>", or what disagrees.
const char* kEvaluateOutside = R"PY(
import gzip, json, sys, torch
from torch import nn
run_dir, data_dir = sys.argv[1], sys.argv[2]
ckpt = torch.load(run_dir + "/checkpoints/last.pt")
run = json.load(open(run_dir + "/run.json"))
d = ckpt["data"]
for k in ("input_shape", "image_shape", "x_dtype", "outputs", "class_names", "preprocessing"):
    assert run["data"][k] == d[k], (k, run["data"][k], d[k])
assert d["outputs"] == len(d["class_names"]) == 10 and d["class_names"][0] == "T-shirt/top", d
def idx(name):
    b = gzip.open(data_dir + "/" + name).read()
    dims = [int.from_bytes(b[4 + 4 * i:8 + 4 * i], "big") for i in range(b[3])]
    return torch.frombuffer(bytearray(b[4 + 4 * b[3]:]), dtype=torch.uint8).reshape(dims)
p = d["preprocessing"]
assert d["x_dtype"] == "uint8" and p["standardize"] == "per_channel", d
x = idx("t10k-images-idx3-ubyte.gz").reshape([-1] + d["input_shape"]).double()
x = ((x / p["pixel_scale"] - p["mean"][0]) / p["std"][0]).float()
y = idx("t10k-labels-idx1-ubyte.gz").long()
cfg = json.loads(ckpt["config"])["model"]
act = {"relu": nn.ReLU, "tanh": nn.Tanh, "gelu": nn.GELU, "sigmoid": nn.Sigmoid}
layers, width = [], d["input_shape"][0]
for h in cfg["hidden"]:
    layers += [nn.Linear(width, h), act[cfg["activation"]]()]
    if cfg["dropout"] > 0:
        layers.append(nn.Dropout(cfg["dropout"]))
    width = h
model = nn.Sequential(*layers, nn.Linear(width, d["outputs"]))
model.load_state_dict(ckpt["model_state_dict"], strict=True)
model.eval()
with torch.no_grad():
    out = model(x)
print("OK %.9g %.9g" % (nn.functional.cross_entropy(out, y).item(),
                        (out.argmax(1) == y).double().mean().item()))
)PY";

const char* kRunFiles[] = {"config.json", "run.json",     "metrics.csv",
                           "steps.csv",   "events.jsonl", "summary.json", "system.csv"};

}  // namespace

class TstCliTrain : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void overfitSineRunDirectory();
  void unseededRunIsReproducible();
  void fashionMnistSubset();
  void nonFiniteStops();
  void explodingPresetStopsThenCompletesWithClipping();
};

void TstCliTrain::overfitSineRunDirectory() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("run");
  // batch_size 8 so that an epoch has several batches (the preset has a few dozen samples).
  const int kEpochs = 5;
  const CliResult r = runCli({"train", "--preset", "overfit-sine", "--set", "training.batch_size=8",
                              "--epochs", QString::number(kEpochs), "--out", out});
  QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0, describe(r));
  for (const char* name : kRunFiles) QVERIFY2(QFileInfo::exists(out + "/" + name), name);

  const QJsonObject config = readJsonObject(out + "/config.json");
  const QJsonObject summary = readJsonObject(out + "/summary.json");
  QCOMPARE(at(config, "training.epochs").toInt(), kEpochs);
  QCOMPARE(at(config, "training.batch_size").toInt(), 8);

  // Batches per epoch, computed from the config: n_train = n - round(n * val_fraction),
  // batches = ceil(n_train / batch_size) (the last partial batch is kept).
  const int64_t n = at(config, "data.n_samples").toInteger();
  const double vf = at(config, "data.val_fraction").toDouble();
  const int64_t batch = at(config, "training.batch_size").toInteger();
  const int64_t n_train = trainCount(n, vf);
  QVERIFY(n_train > batch);  // several batches per epoch, the last one may be partial
  const QJsonValue exposed = findKey(readJsonObject(out + "/run.json"), "n_train");
  if (!exposed.isUndefined()) QCOMPARE(exposed.toInteger(), n_train);
  const int64_t bpe = (n_train + batch - 1) / batch;

  // metrics.csv: one row per epoch, epoch 1..N, step = epoch * batches_per_epoch.
  const auto metrics = readCsv(out + "/metrics.csv");
  QVERIFY(metrics);
  for (const char* col : {"epoch", "step", "train_loss", "val_loss", "val_accuracy", "lr",
                          "epoch_seconds", "samples_per_second"})
    QVERIFY2(metrics->column(col) >= 0, col);
  QCOMPARE(metrics->rows.size(), kEpochs);
  for (int i = 0; i < kEpochs; ++i) {
    QCOMPARE(metrics->cell(i, "epoch").toLongLong(), int64_t(i + 1));
    QCOMPARE(metrics->cell(i, "step").toLongLong(), int64_t(i + 1) * bpe);
    QVERIFY(metrics->cell(i, "val_accuracy").isEmpty());  // regression: no accuracy
    QVERIFY(std::isfinite(metrics->number(i, "train_loss")));
    QVERIFY(std::isfinite(metrics->number(i, "val_loss")));
    // No scheduler: the learning rate is the configured one.
    QVERIFY(close9(metrics->number(i, "lr"), at(config, "optimizer.lr").toDouble()));
  }

  // steps.csv: one row per step, epoch = (step-1)/bpe + 1, loss_scale empty without AMP,
  // grad_norm_clipped == grad_norm with clipping off.
  const auto steps = readCsv(out + "/steps.csv");
  QVERIFY(steps);
  for (const char* col :
       {"step", "epoch", "loss", "grad_norm", "grad_norm_clipped", "lr", "loss_scale"})
    QVERIFY2(steps->column(col) >= 0, col);
  QCOMPARE(int64_t(steps->rows.size()), kEpochs * bpe);
  for (int i = 0; i < steps->rows.size(); ++i) {
    QCOMPARE(steps->cell(i, "step").toLongLong(), int64_t(i + 1));
    QCOMPARE(steps->cell(i, "epoch").toLongLong(), int64_t(i) / bpe + 1);
    QVERIFY(steps->cell(i, "loss_scale").isEmpty());
    QVERIFY(std::isfinite(steps->number(i, "grad_norm")));
    QVERIFY(close9(steps->number(i, "grad_norm_clipped"), steps->number(i, "grad_norm")));
  }

  // train_loss of each epoch is the sample-weighted mean of its step losses; batch b holds
  // min(batch_size, n_train - b * batch_size) samples (e.g. 8, 8, 4 for 20 samples).
  for (int e = 0; e < kEpochs; ++e) {
    double sum = 0, count = 0;
    for (int b = 0; b < bpe; ++b) {
      const double samples = std::min<int64_t>(batch, n_train - b * batch);
      sum += steps->number(e * bpe + b, "loss") * samples;
      count += samples;
    }
    QVERIFY2(close9(metrics->number(e, "train_loss"), sum / count),
             qPrintable(QString("epoch %1: %2 vs %3")
                            .arg(e + 1)
                            .arg(metrics->number(e, "train_loss"), 0, 'g', 12)
                            .arg(sum / count, 0, 'g', 12)));
  }

  QCOMPARE(summary.value("stop_reason").toString(), QString("completed"));
  QCOMPARE(summary.value("epochs_completed").toInteger(), int64_t(kEpochs));
  QCOMPARE(summary.value("global_step").toInteger(), kEpochs * bpe);
  QCOMPARE(summary.value("seed").toInteger(), at(config, "training.seed").toInteger());

  // The final summary line goes to stderr and names the run directory.
  QVERIFY2(r.err.contains("completed"), r.err.constData());
  QVERIFY2(r.err.contains(QFileInfo(out).fileName().toUtf8()), r.err.constData());
}

void TstCliTrain::unseededRunIsReproducible() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QStringList common{"train",    "--preset", "overfit-sine", "--set", "training.batch_size=8",
                           "--epochs", "3"};
  const QString first = tmp.filePath("first");
  CliResult r = runCli(common + QStringList{"--set", "training.seed=null", "--out", first});
  QVERIFY2(r.exit_code == 0, describe(r));
  const QJsonValue seed = at(readJsonObject(first + "/config.json"), "training.seed");
  QVERIFY2(seed.isDouble(), "config.json must record the drawn seed");
  const double s = seed.toDouble();
  QVERIFY(s == std::floor(s) && s >= 0 && s <= 2147483647.0);
  QCOMPARE(readJsonObject(first + "/summary.json").value("seed").toInteger(), seed.toInteger());

  // A second unseeded run draws another seed (equal with probability 2^-31).
  const QString other = tmp.filePath("other");
  r = runCli(common + QStringList{"--set", "training.seed=null", "--out", other});
  QVERIFY2(r.exit_code == 0, describe(r));
  QVERIFY(at(readJsonObject(other + "/config.json"), "training.seed").toInteger() !=
          seed.toInteger());

  // Re-running from the recorded config alone reproduces every non-wall-clock value.
  const QString again = tmp.filePath("again");
  r = runCli({"train", "--config", first + "/config.json", "--out", again});
  QVERIFY2(r.exit_code == 0, describe(r));
  QCOMPARE(at(readJsonObject(again + "/config.json"), "training.seed").toInteger(),
           seed.toInteger());
  for (const char* file : {"metrics.csv", "steps.csv"}) {
    const auto a = readCsv(first + "/" + file);
    const auto b = readCsv(again + "/" + file);
    QVERIFY(a && b);
    QCOMPARE(a->header, b->header);
    QCOMPARE(a->rows.size(), b->rows.size());
    QVERIFY(!a->rows.isEmpty());
    for (int i = 0; i < a->rows.size(); ++i) {
      for (int c = 0; c < a->header.size(); ++c) {
        const QString& col = a->header[c];
        // Wall-clock columns are the only ones allowed to differ (ARCHITECTURE §4); steps.csv's
        // data_wait (issue 48's name) is seconds of waiting.
        if (col.contains("second") || col.contains("time") || col == "data_wait") continue;
        QVERIFY2(a->rows[i].value(c) == b->rows[i].value(c),
                 qPrintable(QString("%1 row %2 column %3: %4 vs %5")
                                .arg(file)
                                .arg(i + 1)
                                .arg(col, a->rows[i].value(c), b->rows[i].value(c))));
      }
    }
  }
}

void TstCliTrain::fashionMnistSubset() {
  if (!QFileInfo::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"))
    QSKIP("Fashion-MNIST is not installed (/usr/share/datasets/fashion-mnist)");
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("fm");
  const CliResult r = runCli({"train", "--preset", "fashion-mnist-mlp", "--set", "data.limit=2000",
                              "--epochs", "1", "--out", out},
                             QString(), 180000);
  QVERIFY2(r.exit_code == 0, describe(r));
  const auto metrics = readCsv(out + "/metrics.csv");
  QVERIFY(metrics);
  QCOMPARE(metrics->rows.size(), 1);
  const double acc = metrics->number(0, "val_accuracy");
  QVERIFY2(acc > 0 && acc <= 1, qPrintable(metrics->cell(0, "val_accuracy")));

  // 2,000 samples, 20 % validation: 1,600 training samples in batches of 128 -> 13 steps.
  const QJsonObject config = readJsonObject(out + "/config.json");
  const int64_t n_train = trainCount(2000, at(config, "data.val_fraction").toDouble());
  QCOMPARE(n_train, int64_t(1600));
  const int64_t batch = at(config, "training.batch_size").toInteger();
  QCOMPARE(metrics->cell(0, "step").toLongLong(), (n_train + batch - 1) / batch);

  const QJsonObject summary = readJsonObject(out + "/summary.json");
  QCOMPARE(summary.value("stop_reason").toString(), QString("completed"));
  QVERIFY2(summary.value("test_loss").isDouble(), "summary.json needs test_loss");
  QVERIFY2(summary.value("test_accuracy").isDouble(), "summary.json needs test_accuracy");
  QVERIFY(std::isfinite(summary.value("test_loss").toDouble()));
  const double test_acc = summary.value("test_accuracy").toDouble();
  QVERIFY(test_acc > 0 && test_acc <= 1);
  // Ten classes: even one epoch on 1,600 images is far above chance (0.1).
  QVERIFY2(test_acc > 0.5, qPrintable(QString::number(test_acc)));

  // What the run recorded (run.json and the checkpoint's `data`) is enough to evaluate its
  // model outside TrainScope with the same numbers.
  const testpython::Result py = testpython::script(
      kEvaluateOutside, {out, "/usr/share/datasets/fashion-mnist"}, 180000);
  QVERIFY2(py.finished, qPrintable(py.why));
  const QString said = QString::fromUtf8(py.out + py.err);
  const QStringList words = said.trimmed().split(' ');
  QVERIFY2(words.size() == 3 && words[0] == "OK", qPrintable(said));
  const double py_loss = words[1].toDouble(), py_acc = words[2].toDouble();
  const double loss = summary.value("test_loss").toDouble();
  QVERIFY2(
      std::fabs(py_loss - loss) <= 1e-5 * std::max(1.0, loss),
      qPrintable(QString("Python %1, TrainScope %2").arg(py_loss, 0, 'g', 9).arg(loss, 0, 'g', 9)));
  QVERIFY2(std::fabs(py_acc - test_acc) <= 2e-4,  // a tie or two may round the other way
           qPrintable(QString("Python %1, TrainScope %2").arg(py_acc).arg(test_acc)));

  // Where the sizes are exposed, they add up to the limit and the test set is t10k.
  for (const QString file : {"run.json", "summary.json"}) {
    const QJsonObject obj = readJsonObject(out + "/" + file);
    const QJsonValue tr = findKey(obj, "n_train"), va = findKey(obj, "n_val");
    if (!tr.isUndefined() && !va.isUndefined())
      QCOMPARE(tr.toInteger() + va.toInteger(), int64_t(2000));
    const QJsonValue te = findKey(obj, "n_test");
    if (!te.isUndefined()) QCOMPARE(te.toInteger(), int64_t(10000));
  }
}

void TstCliTrain::nonFiniteStops() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("nf");
  // SGD with lr 1e6 on the sine MLP: the weights explode within a few steps.
  const CliResult r = runCli({"train", "--preset", "overfit-sine", "--set", "optimizer.name=sgd",
                              "--set", "optimizer.lr=1e6", "--epochs", "50", "--out", out});
  QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 3, describe(r));
  const QJsonObject summary = readJsonObject(out + "/summary.json");
  QCOMPARE(summary.value("stop_reason").toString(), QString("non_finite"));

  bool found = false;
  for (const QString& line : readLines(out + "/events.jsonl")) {
    const QJsonObject ev = QJsonDocument::fromJson(line.toUtf8()).object();
    if (ev.value("kind").toString() == "non_finite") found = true;
  }
  QVERIFY2(found, "events.jsonl needs a non_finite event");

  const auto steps = readCsv(out + "/steps.csv");
  QVERIFY(steps && !steps->rows.isEmpty());
  const int last = steps->rows.size() - 1;
  QVERIFY2(!std::isfinite(steps->number(last, "loss")) ||
               !std::isfinite(steps->number(last, "grad_norm")),
           qPrintable(steps->rows[last].join(',')));
  // Non-finite cells are written the way Python's float() reads them.
  const QStringList allowed{"nan", "inf", "-inf"};
  for (const char* col : {"loss", "grad_norm"}) {
    if (!std::isfinite(steps->number(last, col)))
      QVERIFY2(allowed.contains(steps->cell(last, col)), qPrintable(steps->cell(last, col)));
  }
  QCOMPARE(summary.value("global_step").toInteger(), steps->cell(last, "step").toLongLong());
  QVERIFY2(r.err.contains("non_finite"), r.err.constData());
}

void TstCliTrain::explodingPresetStopsThenCompletesWithClipping() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  // Without clipping: exit 3, a message naming the step and the likely cause.
  const QString out = tmp.filePath("boom");
  const CliResult r = runCli({"train", "--preset", "exploding", "--out", out});
  QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 3, describe(r));
  QVERIFY2(r.err.contains("event: non_finite at step "), r.err.constData());
  QVERIFY2(r.err.contains("gradient clipping is off"), r.err.constData());
  QVERIFY2(r.err.contains("diagnosis: diverging"), r.err.constData());
  const QJsonObject summary = readJsonObject(out + "/summary.json");
  QCOMPARE(summary.value("stop_reason").toString(), QString("non_finite"));
  QVERIFY(summary.value("global_step").toInteger() <= 36);  // "within a few dozen steps"
  QCOMPARE(at(summary, "diagnosis.kind").toString(), QString("diverging"));
  QVERIFY(!at(summary, "diagnosis.evidence").toArray().isEmpty());
  QVERIFY(!at(summary, "diagnosis.checks").toArray().isEmpty());

  // With clipping: completes, no non_finite / diverged event, and the loss came down.
  const QString out2 = tmp.filePath("clipped");
  const CliResult c = runCli(
      {"train", "--preset", "exploding", "--set", "training.clip.enabled=true", "--out", out2});
  QVERIFY2(c.finished && c.status == QProcess::NormalExit && c.exit_code == 0, describe(c));
  for (const QString& line : readLines(out2 + "/events.jsonl")) {
    const QString kind = QJsonDocument::fromJson(line.toUtf8()).object().value("kind").toString();
    QVERIFY2(kind != "non_finite" && kind != "diverged", qPrintable(line));
  }
  const auto metrics = readCsv(out2 + "/metrics.csv");
  QVERIFY(metrics && metrics->rows.size() == 100);
  // Targets of variance ~1250 (sin * 50); the clipped fit ends far below it.
  QVERIFY2(metrics->number(99, "val_loss") < 200, qPrintable(metrics->rows[99].join(',')));
  // layers.csv is written by default (every 10 steps).
  const auto layers = readCsv(out2 + "/layers.csv");
  QVERIFY(layers && !layers->rows.isEmpty());
  QVERIFY(layers->header.contains("0.weight.grad_norm"));
}

QTEST_GUILESS_MAIN(TstCliTrain)
#include "tst_cli_train.moc"

// End-to-end: `train --init-weights FILE` starts from weights saved by Python's torch.save
// (Debian's python3-torch, TRAINSCOPE_TEST_PYTHON); a file that does not fit exits with 2
// naming the file and every mismatch; --init-weights with --resume is a usage error; `inspect`
// describes the torch.save files --init-weights takes and says what a CSV file is not.
#include <QtCore/QJsonArray>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "python_runner.h"
#include "cli_test_util.h"

using namespace clitest;

namespace {

// argv[1] = "save" DIR: pinned weights of nn.Sequential(Linear(1, 2), ReLU(), Linear(2, 1)) as a
// bare state_dict. argv[1] = "check" PINNED CHECKPOINT: the checkpoint's model_state_dict
// equals the pinned one bit for bit.
const char* kScript = R"PY(
import sys, torch
if sys.argv[1] == "save":
    sd = {"0.weight": torch.tensor([[0.5], [-1.0]]), "0.bias": torch.tensor([0.1, 0.2]),
          "2.weight": torch.tensor([[2.0, -3.0]]), "2.bias": torch.tensor([0.25])}
    m = torch.nn.Sequential(torch.nn.Linear(1, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
    m.load_state_dict(sd, strict=True)
    torch.save(m.state_dict(), sys.argv[2])
elif sys.argv[1] == "describe":
    # A state_dict with a float64 layer and BatchNorm's int64 buffer, bare and inside a dict;
    # prints what each holds as [name, shape, dtype], in state_dict order.
    import json, os
    nn = torch.nn
    m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2).double())
    sd = m.state_dict()
    torch.save(sd, os.path.join(sys.argv[2], "bare.pt"))
    torch.save({"epoch": 3, "model_state_dict": sd, "note": "x"},
               os.path.join(sys.argv[2], "dict.pt"))
    print(json.dumps([[k, list(v.shape), str(v.dtype).replace("torch.", "")]
                      for k, v in sd.items()]))
else:
    pinned, ckpt = torch.load(sys.argv[2]), torch.load(sys.argv[3])["model_state_dict"]
    assert list(pinned) == list(ckpt), (list(pinned), list(ckpt))
    for k in pinned:
        assert torch.equal(pinned[k], ckpt[k]), (k, pinned[k], ckpt[k])
print("OK")
)PY";

/// overfit-sine with the pinned architecture; SGD with lr 1e-30 leaves float32 weights of
/// this size unchanged, so the run's last.pt holds exactly the weights it started from.
QStringList sineArgs(const QString& hidden) {
  return {"train",
          "--preset",
          "overfit-sine",
          "--set",
          "model.hidden=" + hidden,
          "--set",
          "optimizer.name=\"sgd\"",
          "--set",
          "optimizer.lr=1e-30",
          "--epochs",
          "2"};
}

QByteArray python(const QStringList& args) {
  const testpython::Result py = testpython::script(kScript, args);
  if (!py.finished) return "python did not run";
  return py.out + py.err;
}

}  // namespace

class TstCliInitWeights : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void trainStartsFromThePythonWeights();
  void mismatchedAndBadFilesExitWith2();
  void initWeightsWithResumeIsAUsageError();
  void inspectDescribesPythonFiles();
  void inspectSaysWhatAFileIsNot();

 private:
  QTemporaryDir tmp_;
  QString pinned_;
};

void TstCliInitWeights::initTestCase() {
  QVERIFY(tmp_.isValid());
  pinned_ = tmp_.filePath("pinned.pt");
  const QByteArray out = python({"save", pinned_});
  QVERIFY2(out.startsWith("OK"), out.constData());
}

void TstCliInitWeights::trainStartsFromThePythonWeights() {
  const QString out = tmp_.filePath("run");
  CliResult r = runCli(sineArgs("[2]") << "--init-weights" << pinned_ << "--out" << out);
  QVERIFY2(r.exit_code == 0, describe(r));
  QVERIFY2(r.err.contains("weights imported from " + pinned_.toUtf8() + " (4 tensors)"),
           describe(r));
  const QJsonObject run = readJsonObject(out + "/run.json");
  QCOMPARE(at(run, "init_weights.file").toString(), QFileInfo(pinned_).absoluteFilePath());
  QCOMPARE(at(run, "init_weights.form").toString(), QString("state_dict"));
  QCOMPARE(at(run, "init_weights.tensors").toInt(), 4);
  bool logged = false;
  for (const QString& line : readLines(out + "/events.jsonl"))
    logged = logged || QJsonDocument::fromJson(line.toUtf8()).object()["kind"].toString() ==
                           "weights_imported";
  QVERIFY(logged);
  const QByteArray check = python({"check", pinned_, out + "/checkpoints/last.pt"});
  QVERIFY2(check.startsWith("OK"), check.constData());

  // A TrainScope checkpoint is a weights file too (its model_state_dict).
  const QString again = tmp_.filePath("again");
  r = runCli(sineArgs("[2]") << "--init-weights" << out + "/checkpoints/last.pt"
                             << "--out" << again);
  QVERIFY2(r.exit_code == 0, describe(r));
  QCOMPARE(at(readJsonObject(again + "/run.json"), "init_weights.form").toString(),
           QString("trainscope_checkpoint"));
  const QByteArray check2 = python({"check", pinned_, again + "/checkpoints/last.pt"});
  QVERIFY2(check2.startsWith("OK"), check2.constData());
}

void TstCliInitWeights::mismatchedAndBadFilesExitWith2() {
  const QString out = tmp_.filePath("mismatch");
  CliResult r = runCli(sineArgs("[3]") << "--init-weights" << pinned_ << "--out" << out);
  QCOMPARE(r.exit_code, 2);
  QVERIFY2(r.err.contains("cannot import weights from " + pinned_.toUtf8()), describe(r));
  QVERIFY2(r.err.contains("0.weight: file [2, 1], model [3, 1]"), describe(r));
  QVERIFY2(r.err.contains("2.weight: file [1, 2], model [1, 3]"), describe(r));
  QVERIFY2(!QFileInfo::exists(out), describe(r));  // nothing written

  const QString junk = tmp_.filePath("junk.pt");
  {
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is not a torch file at all");
  }
  r = runCli(sineArgs("[2]") << "--init-weights" << junk << "--out" << tmp_.filePath("junk"));
  QCOMPARE(r.exit_code, 2);
  QVERIFY2(r.err.contains("cannot read weights from " + junk.toUtf8() + ": not a PyTorch file"),
           describe(r));
}

void TstCliInitWeights::initWeightsWithResumeIsAUsageError() {
  CliResult r = runCli({"train", "--resume", tmp_.filePath("run/checkpoints/last.pt"),
                        "--init-weights", pinned_, "--out", tmp_.filePath("both")});
  QCOMPARE(r.exit_code, 2);
  QVERIFY2(r.err.contains("--init-weights cannot be combined with --resume"), describe(r));
  QVERIFY(!QFileInfo::exists(tmp_.filePath("both")));
}

void TstCliInitWeights::inspectDescribesPythonFiles() {
  const QString dir = tmp_.filePath("describe");
  QVERIFY(QDir().mkpath(dir));
  const QByteArray out = python({"describe", dir});
  QVERIFY2(out.trimmed().endsWith("OK"), out.constData());
  const QJsonArray expected = QJsonDocument::fromJson(out.split('\n').first()).array();
  QCOMPARE(expected.size(), 9);  // 2 + 5 (weight, bias, running_mean, running_var, count) + 2
  for (const QString file : {"bare.pt", "dict.pt"}) {
    const QString path = dir + "/" + file;
    CliResult r = runCli({"inspect", path, "--json"});
    QVERIFY2(r.exit_code == 0, describe(r));
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j["form"].toString(), QString(file == "bare.pt" ? "state_dict" : "model_state_dict"));
    const QJsonArray tensors = j["tensors"].toArray();
    QCOMPARE(tensors.size(), expected.size());
    for (int i = 0; i < expected.size(); ++i) {
      const QJsonArray e = expected[i].toArray();
      const QJsonObject t = tensors[i].toObject();
      QCOMPARE(t["name"].toString(), e[0].toString());
      QCOMPARE(t["shape"].toArray(), e[1].toArray());
      QCOMPARE(t["dtype"].toString(), e[2].toString());
    }
    if (file == "dict.pt")
      QCOMPARE(j["keys"].toArray(), (QJsonArray{"epoch", "model_state_dict", "note"}));
    r = runCli({"inspect", path});
    QVERIFY2(r.exit_code == 0, describe(r));
    QVERIFY2(r.out.contains("torch.save file"), describe(r));
    QVERIFY2(r.out.contains("tensors         9"), describe(r));
    QVERIFY2(QString::fromUtf8(r.out).contains(
                 QRegularExpression("\\b3\\.weight +\\[2, 4\\] +float64\\b")),
             describe(r));
    QVERIFY2(QString::fromUtf8(r.out).contains(
                 QRegularExpression("\\b1\\.num_batches_tracked +\\[\\] +int64\\b")),
             describe(r));
    QVERIFY2(!r.err.contains("INTERNAL ASSERT"), describe(r));
  }
}

void TstCliInitWeights::inspectSaysWhatAFileIsNot() {
  // A CSV is not a zip archive: say so and what it starts with, without sending the user after
  // PyTorch's legacy format.
  const QString csv = tmp_.filePath("x.csv");
  {
    QFile f(csv);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("a,b,c\n1,2,3\n");
  }
  const CliResult r = runCli({"inspect", csv});
  QCOMPARE(r.exit_code, 2);
  QVERIFY2(r.err.contains(csv.toUtf8()), describe(r));
  QVERIFY2(r.err.contains("not a zip archive"), describe(r));
  QVERIFY2(r.err.contains("it starts with 'a,b,c\\n1,2,3\\n'"), describe(r));
  QVERIFY2(!r.err.contains("legacy") && !r.err.contains("_use_new_zipfile_serialization"),
           describe(r));
}

QTEST_GUILESS_MAIN(TstCliInitWeights)
#include "tst_cli_init_weights.moc"

// End-to-end: `train --resume` continues a run in a new process exactly as the uninterrupted
// run (epoch end, and wherever Ctrl-C stopped it), `inspect` describes a checkpoint, and the
// usage and bad-file errors exit with 2 naming the problem.
#include <signal.h>
#include <sys/types.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtTest/QtTest>

#include "cli_test_util.h"

using namespace clitest;

namespace {

/// moons with dropout, SGD with momentum: 800 training samples / 32 = 25 steps per epoch.
QStringList baseArgs() {
  return {"--preset", "moons",
          "--set",    "model.dropout=0.2",
          "--set",    "optimizer.name=\"sgd\"",
          "--set",    "optimizer.momentum=0.9",
          "--set",    "optimizer.lr=0.05",
          "--set",    "training.num_threads=1"};
}

/// The rows of two CSV files agree, wall-clock columns aside.
}  // namespace

class TstCliCheckpoint : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void resumeAtEpochEnd();
  void resumeAfterInterrupt();
  void resumeWithSet();
  void inspectDescribesTheFile();
  void usageAndBadFiles();

 private:
  QTemporaryDir tmp_;
  QString straight_;  ///< 6 epochs uninterrupted, the reference
};

void TstCliCheckpoint::initTestCase() {
  QVERIFY(tmp_.isValid());
  straight_ = tmp_.filePath("straight");
  CliResult r = runCli(QStringList{"train"} << baseArgs() << "--epochs"
                                            << "6"
                                            << "--out" << straight_);
  QVERIFY2(r.exit_code == 0, describe(r));
}

void TstCliCheckpoint::resumeAtEpochEnd() {
  const QString half = tmp_.filePath("half"), resumed = tmp_.filePath("resumed");
  CliResult r = runCli(QStringList{"train"} << baseArgs() << "--epochs"
                                            << "3"
                                            << "--out" << half);
  QVERIFY2(r.exit_code == 0, describe(r));
  r = runCli({"train", "--resume", half + "/checkpoints/last.pt", "--epochs", "6", "--out", resumed,
              "--json"});
  QVERIFY2(r.exit_code == 0, describe(r));
  COMPARE_RUN_CSV(straight_ + "/metrics.csv", resumed + "/metrics.csv");
  COMPARE_RUN_CSV(straight_ + "/steps.csv", resumed + "/steps.csv");
  // --json prints the resumed epochs only (4..6), then the summary.
  QCOMPARE(r.out.trimmed().split('\n').size(), 4);
  const QJsonObject run = readJsonObject(resumed + "/run.json");
  QCOMPARE(at(run, "resumed_from.step").toInteger(), qint64(75));
  QVERIFY(at(run, "resumed_from.file").toString().endsWith("half/checkpoints/last.pt"));
  // training.epochs is the run's total.
  QCOMPARE(at(readJsonObject(resumed + "/config.json"), "training.epochs").toInteger(), qint64(6));
  // The source run directory is untouched.
  QCOMPARE(readCsv(half + "/metrics.csv")->rows.size(), 3);
}

void TstCliCheckpoint::resumeAfterInterrupt() {
  // Ctrl-C wherever the run happens to be (usually mid-epoch): last.pt holds that state, and
  // a resume from it in a new process reproduces the uninterrupted run.
  const QString stopped = tmp_.filePath("stopped"), resumed = tmp_.filePath("resumed2");
  QProcess p;
  p.start(cliPath(), QStringList{"train"} << baseArgs() << "--epochs"
                                          << "6"
                                          << "--out" << stopped);
  QVERIFY(p.waitForStarted(10000));
  QElapsedTimer timer;
  timer.start();
  bool started = false;
  while (!started && timer.elapsed() < 60000 && p.state() == QProcess::Running) {
    const auto steps = readCsv(stopped + "/steps.csv");
    started = steps && steps->rows.size() >= 3;
    if (!started) QThread::msleep(2);
  }
  if (p.state() == QProcess::Running) ::kill(static_cast<pid_t>(p.processId()), SIGINT);
  QVERIFY(p.waitForFinished(30000));
  const int code = p.exitCode();
  QVERIFY2(code == 130 || code == 0, p.readAllStandardError().constData());
  const QString ckpt = stopped + "/checkpoints/last.pt";
  CliResult info = runCli({"inspect", ckpt, "--json"});
  QVERIFY2(info.exit_code == 0, describe(info));
  const QJsonObject j = QJsonDocument::fromJson(info.out).object();
  const qint64 step = j["global_step"].toInteger();
  QCOMPARE(step, qint64(readCsv(stopped + "/steps.csv")->rows.size()));
  if (code == 0) QSKIP("the run completed before the interrupt arrived");
  CliResult r = runCli({"train", "--resume", ckpt, "--out", resumed});
  QVERIFY2(r.exit_code == 0, describe(r));
  COMPARE_RUN_CSV(straight_ + "/metrics.csv", resumed + "/metrics.csv");
  COMPARE_RUN_CSV(straight_ + "/steps.csv", resumed + "/steps.csv");
  QCOMPARE(at(readJsonObject(resumed + "/run.json"), "resumed_from.step").toInteger(), step);
}

void TstCliCheckpoint::resumeWithSet() {
  // A run continued with a 10x lower learning rate and a longer patience: the change takes
  // effect from the resume's first step and is recorded as config_changed at the resume step.
  const QString half = tmp_.filePath("half_set"), resumed = tmp_.filePath("resumed_set");
  CliResult r = runCli(QStringList{"train"} << baseArgs() << "--epochs"
                                            << "3"
                                            << "--out" << half);
  QVERIFY2(r.exit_code == 0, describe(r));
  r = runCli({"train", "--resume", half + "/checkpoints/last.pt", "--epochs", "5", "--set",
              "optimizer.lr=0.005", "--set", "training.early_stopping.patience=7", "--set",
              "training.clip.enabled=true", "--set", "training.clip.max_norm=0.5", "--out",
              resumed});
  QVERIFY2(r.exit_code == 0, describe(r));
  const auto steps = readCsv(resumed + "/steps.csv"), ref = readCsv(straight_ + "/steps.csv");
  QVERIFY(steps && ref);
  QCOMPARE(steps->rows.size(), 125);
  for (int i = 0; i < steps->rows.size(); ++i) {
    QCOMPARE(steps->number(i, "step"), double(i + 1));
    QCOMPARE(steps->number(i, "lr"), i < 75 ? 0.05 : 0.005);
    // Clipping at 0.5 from step 76 on: the norm the optimizer used never exceeds it.
    if (i >= 75) QVERIFY(steps->number(i, "grad_norm_clipped") <= 0.5 * (1 + 1e-6));
  }
  // Step 76's loss comes before its update: equal to the uninterrupted run's; step 77 differs.
  QCOMPARE(steps->cell(75, "loss"), ref->cell(75, "loss"));
  QVERIFY(steps->cell(76, "loss") != ref->cell(76, "loss"));
  QMap<QString, QJsonObject> changed;
  for (const QString& line : readLines(resumed + "/events.jsonl")) {
    const QJsonObject e = QJsonDocument::fromJson(line.toUtf8()).object();
    if (e["kind"].toString() == "config_changed") changed[e["what"].toString()] = e;
  }
  QVERIFY2(changed.contains("optimizer.lr"), qPrintable(QStringList(changed.keys()).join(",")));
  QCOMPARE(changed["optimizer.lr"]["step"].toInteger(), qint64(75));
  QCOMPARE(changed["optimizer.lr"]["value"].toDouble(), 0.005);
  QCOMPARE(changed["training.clip.max_norm"]["step"].toInteger(), qint64(75));
  QCOMPARE(changed["training.clip.max_norm"]["value"].toDouble(), 0.5);
  QCOMPARE(changed["training.early_stopping.patience"]["step"].toInteger(), qint64(75));
  QCOMPARE(changed["training.early_stopping.patience"]["value"].toDouble(), 7.0);
  QCOMPARE(changed["training.epochs"]["value"].toDouble(), 5.0);
  // config.json: the settings the resumed run started with (the live ones change by events).
  const QJsonObject config = readJsonObject(resumed + "/config.json");
  QCOMPARE(at(config, "training.early_stopping.patience").toInteger(), qint64(7));
  QCOMPARE(at(config, "optimizer.lr").toDouble(), 0.05);
}

void TstCliCheckpoint::inspectDescribesTheFile() {
  const QString ckpt = straight_ + "/checkpoints/best.pt";
  CliResult r = runCli({"inspect", ckpt});
  QVERIFY2(r.exit_code == 0, describe(r));
  QVERIFY2(r.out.contains("trainscope.checkpoint version 2"), describe(r));
  QVERIFY2(r.out.contains("0.weight"), describe(r));
  QVERIFY2(r.out.contains("[32, 2]"), describe(r));  // moons: Linear(2 -> 32)
  QVERIFY2(r.out.contains("model_state_dict"), describe(r));
  QVERIFY2(r.out.contains("moons: moons, mlp [32,32] tanh, sgd lr 0.05"), describe(r));

  r = runCli({"inspect", ckpt, "--json"});
  QVERIFY2(r.exit_code == 0, describe(r));
  const QJsonObject j = QJsonDocument::fromJson(r.out).object();
  // best.pt is the epoch of the lowest val_loss in metrics.csv.
  const auto metrics = readCsv(straight_ + "/metrics.csv");
  int best = 0;
  for (int i = 1; i < metrics->rows.size(); ++i)
    if (metrics->number(i, "val_loss") < metrics->number(best, "val_loss")) best = i;
  QCOMPARE(j["epoch"].toInteger(), qint64(best + 1));
  QCOMPARE(j["best_epoch"].toInteger(), qint64(best + 1));
  QCOMPARE(j["best_loss"].toDouble(), metrics->number(best, "val_loss"));
  QCOMPARE(j["global_step"].toInteger(), qint64(25 * (best + 1)));
  QCOMPARE(at(j, "config.optimizer.name").toString(), QString("sgd"));
  const QJsonArray tensors = j["tensors"].toArray();
  QCOMPARE(tensors[0].toObject()["name"].toString(), QString("0.weight"));
  QCOMPARE(tensors[0].toObject()["shape"].toArray(), QJsonArray({32, 2}));
  QVERIFY(j["keys"].toArray().contains("optimizer_state_dict"));
  QCOMPARE(j["history"].toArray().size(), best + 1);
  QVERIFY(!j["torch_version"].toString().isEmpty());
}

void TstCliCheckpoint::usageAndBadFiles() {
  const QString ckpt = straight_ + "/checkpoints/last.pt";
  CliResult r = runCli({"train", "--resume", ckpt, "--preset", "moons"});
  QCOMPARE(r.exit_code, 2);
  QVERIFY2(r.err.contains("only --epochs, --set, --out, --overwrite and --json"), describe(r));
  // A key that cannot change mid-run is refused, by name, before anything is written.
  const QString refused = tmp_.filePath("refused");
  for (const char* set :
       {"training.batch_size=64", "model.hidden=[8]", "training.clip.norm_type=1"}) {
    r = runCli({"train", "--resume", ckpt, "--epochs", "8", "--set", set, "--out", refused});
    QCOMPARE(r.exit_code, 2);
    const QByteArray key = QByteArray(set).left(QByteArray(set).indexOf('='));
    QVERIFY2(r.err.contains("--resume cannot change " + key), describe(r));
    QVERIFY(!QFileInfo::exists(refused));
  }
  // The run already has its 6 epochs: a resume needs a larger total.
  r = runCli({"train", "--resume", ckpt, "--out", tmp_.filePath("nothing")});
  QCOMPARE(r.exit_code, 2);
  QVERIFY2(r.err.contains("--epochs N"), describe(r));

  QFile junk(tmp_.filePath("junk.pt"));
  QVERIFY(junk.open(QIODevice::WriteOnly));
  junk.write(QByteArray(1000, 'j'));
  junk.close();
  for (const QStringList& args :
       {QStringList{"inspect", junk.fileName()}, QStringList{"train", "--resume", junk.fileName()},
        QStringList{"inspect", tmp_.filePath("missing.pt")}}) {
    r = runCli(args);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(args.last().toUtf8()), describe(r));
    QVERIFY2(!r.err.contains("terminate"), describe(r));
  }
  QVERIFY2(runCli({"inspect", junk.fileName()}).err.contains("not a PyTorch zip file"),
           "the problem is named");
}

QTEST_GUILESS_MAIN(TstCliCheckpoint)
#include "tst_cli_checkpoint.moc"

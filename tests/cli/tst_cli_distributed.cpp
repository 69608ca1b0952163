// End-to-end data parallel runs of trainscope-cli on 127.0.0.1 (ranks as child processes on a
// free port): 2 ranks x batch 32 equal 1 process x batch 64 on the same global order, two
// identical 2-rank runs are bit-identical, a killed rank is named by the survivor within the
// timeout, Ctrl-C through `launch` stops every rank cleanly (exit 130), rank 0 alone writes.
#include <signal.h>
#include <sys/types.h>

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFileInfo>
#include <QtCore/QProcessEnvironment>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtTest/QtTest>

#include "cli_test_util.h"
#include "free_port.h"

using namespace clitest;

namespace {

/// moons with 768 training samples (12 global batches of 64, no partial batch): 5 epochs are
/// 60 optimizer steps.
QStringList moonsArgs(int batch_size, int epochs) {
  QStringList args{"train", "--preset", "moons", "--epochs", QString::number(epochs)};
  // SGD with momentum (Adam would hide a gradient off by a constant factor) and clipping,
  // which must see the global gradient.
  for (const QString& set :
       QStringList{"data.n_samples=960", "training.batch_size=" + QString::number(batch_size),
                   QString("training.layer_stats_every=0"),
                   QString("distributed.timeout_seconds=20"), QString("optimizer.name=sgd"),
                   QString("optimizer.lr=0.2"), QString("optimizer.momentum=0.9"),
                   QString("training.clip.enabled=true"), QString("training.clip.max_norm=0.5")})
    args << "--set" << set;
  return args;
}

/// Runs /usr/bin/python3 -c `code` with `args`; its stdout, trimmed.
QString python(const QString& code, const QStringList& args) {
  QProcess p;
  p.start(QStringLiteral(TRAINSCOPE_TEST_PYTHON), QStringList{"-c", code} + args);
  if (!p.waitForStarted(10000) || !p.waitForFinished(120000)) return "python did not run";
  return QString::fromUtf8(p.readAllStandardOutput()).trimmed() +
         (p.exitCode() != 0 ? " " + QString::fromUtf8(p.readAllStandardError()) : QString());
}

/// Largest |a - b| over the model_state_dict tensors of two checkpoints (torch.load).
double maxWeightDiff(const QString& a, const QString& b) {
  const QString code = QStringLiteral(
      "import sys, torch\n"
      "a = torch.load(sys.argv[1])['model_state_dict']\n"
      "b = torch.load(sys.argv[2])['model_state_dict']\n"
      "assert a.keys() == b.keys()\n"
      "print(repr(max((a[k].double() - b[k].double()).abs().max().item() for k in a)))\n");
  bool ok = false;
  const QString out = python(code, {a, b});
  const double d = out.toDouble(&ok);
  if (!ok) qWarning() << "python:" << out;
  return ok ? d : 1e9;
}

/// Starts rank `rank` of `world` of `args` with the environment a launcher sets.
void startRank(QProcess& p, int rank, int world, int port, const QStringList& args) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("MASTER_ADDR", "127.0.0.1");
  env.insert("MASTER_PORT", QString::number(port));
  env.insert("RANK", QString::number(rank));
  env.insert("WORLD_SIZE", QString::number(world));
  env.insert("LOCAL_RANK", QString::number(rank));
  env.insert("LOCAL_WORLD_SIZE", QString::number(world));
  p.setProcessEnvironment(env);
  p.start(cliPath(), args);
}

/// Waits until `file` (a CSV) has at least `rows` rows while `p` runs.
bool waitForRows(const QString& file, int rows, const QProcess& p, int timeout_ms = 60000) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < timeout_ms && p.state() == QProcess::Running) {
    const auto csv = readCsv(file);
    if (csv && csv->rows.size() >= rows) return true;
    QThread::msleep(50);
  }
  return false;
}

}  // namespace

class TstCliDistributed : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void twoRanksEqualOneProcessWithTwiceTheBatch();
  void killedRankIsNamedBySurvivor_data();
  void killedRankIsNamedBySurvivor();
  void interruptThroughLaunch();
  void ranksWithOtherDataRefuse();
  void launchUsageErrors();
};

void TstCliDistributed::twoRanksEqualOneProcessWithTwiceTheBatch() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString one = tmp.filePath("one"), two_a = tmp.filePath("two-a"),
                two_b = tmp.filePath("two-b");
  const CliResult r1 = runCli(moonsArgs(64, 5) + QStringList{"--out", one});
  QVERIFY2(r1.exit_code == 0, describe(r1).constData());
  for (const QString& out : {two_a, two_b}) {
    const int port = testfiles::freeLoopbackPort();
    const CliResult r2 = runCli(QStringList{"launch", "--nproc-per-node", "2", "--master-port",
                                            QString::number(port), "--"} +
                                    moonsArgs(32, 5) + QStringList{"--out", out},
                                tmp.path());
    QVERIFY2(r2.exit_code == 0, describe(r2).constData());
  }
  // Rank 0 alone wrote: the three run directories and nothing else (no runs/ of rank 1).
  QCOMPARE(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
           (QStringList{"one", "two-a", "two-b"}));

  const auto s1 = readCsv(one + "/steps.csv");
  const auto s2 = readCsv(two_a + "/steps.csv");
  const auto s3 = readCsv(two_b + "/steps.csv");
  QVERIFY(s1 && s2 && s3);
  QCOMPARE(s1->rows.size(), 60);
  QCOMPARE(s2->rows.size(), 60);
  for (int i = 0; i < 60; ++i) {
    const double a = s1->number(i, "loss"), b = s2->number(i, "loss");
    QVERIFY2(
        std::abs(a - b) <= 1e-6 * std::abs(a),
        qPrintable(
            QString("step %1: loss %2 vs %3").arg(i + 1).arg(a, 0, 'g', 10).arg(b, 0, 'g', 10)));
    const double ga = s1->number(i, "grad_norm"), gb = s2->number(i, "grad_norm");
    QVERIFY2(std::abs(ga - gb) <= 1e-5 * std::abs(ga),
             qPrintable(QString("step %1: grad_norm %2 vs %3").arg(i + 1).arg(ga).arg(gb)));
    // Two identical 2-rank runs: bit-identical rows (the text of every number).
    for (const QString& col : {"loss", "grad_norm", "grad_norm_clipped", "lr"})
      QCOMPARE(s2->cell(i, col), s3->cell(i, col));
  }
  const double diff = maxWeightDiff(one + "/checkpoints/last.pt", two_a + "/checkpoints/last.pt");
  QVERIFY2(diff <= 1e-5, qPrintable(QString("weights differ by %1").arg(diff)));
  QCOMPARE(maxWeightDiff(two_a + "/checkpoints/last.pt", two_b + "/checkpoints/last.pt"), 0.0);

  // Validation sums over both ranks: the same val_loss as one process, up to summation order.
  const auto m1 = readCsv(one + "/metrics.csv"), m2 = readCsv(two_a + "/metrics.csv");
  QVERIFY(m1 && m2 && m1->rows.size() == 5 && m2->rows.size() == 5);
  QVERIFY(std::abs(m1->number(4, "val_loss") - m2->number(4, "val_loss")) <=
          1e-5 * m1->number(4, "val_loss"));
  QCOMPARE(m1->cell(4, "val_accuracy"), m2->cell(4, "val_accuracy"));

  const QJsonObject run = readJsonObject(two_a + "/run.json");
  QCOMPARE(at(run, "distributed.world_size").toInt(), 2);
  QCOMPARE(at(run, "distributed.backend").toString(), QString("gloo"));
  QCOMPARE(at(run, "distributed.hosts").toArray().size(), 2);
  QVERIFY(at(readJsonObject(one + "/run.json"), "distributed").isUndefined());
  const QStringList events = readLines(two_a + "/events.jsonl");
  QVERIFY2(events.filter("\"group_formed\"").size() == 1, qPrintable(events.join('\n')));
}

void TstCliDistributed::killedRankIsNamedBySurvivor_data() {
  QTest::addColumn<int>("victim");
  QTest::newRow("rank 1 killed") << 1;
  QTest::newRow("rank 0 (the store) killed") << 0;
}

void TstCliDistributed::killedRankIsNamedBySurvivor() {
  QFETCH(int, victim);
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("run");
  const int port = testfiles::freeLoopbackPort();
  QStringList args = moonsArgs(8, 100000);
  args << "--set"
       << "distributed.timeout_seconds=10";
  QProcess r0, r1;
  startRank(r0, 0, 2, port, args + QStringList{"--out", out});
  startRank(r1, 1, 2, port, args);
  QVERIFY(r0.waitForStarted(10000) && r1.waitForStarted(10000));
  QVERIFY2(waitForRows(out + "/steps.csv", 20, r0), r0.readAllStandardError().constData());

  QProcess& dead = victim == 0 ? r0 : r1;
  QProcess& survivor = victim == 0 ? r1 : r0;
  QElapsedTimer timer;
  timer.start();
  QCOMPARE(::kill(static_cast<pid_t>(dead.processId()), SIGKILL), 0);
  QVERIFY(dead.waitForFinished(5000));
  QVERIFY2(survivor.waitForFinished(15000), "the survivor did not stop within 15 s");
  const QByteArray err = survivor.readAllStandardError();
  QVERIFY2(timer.elapsed() < 12000, qPrintable(QString::number(timer.elapsed()) + " ms"));
  QCOMPARE(survivor.exitStatus(), QProcess::NormalExit);
  QVERIFY2(survivor.exitCode() == 1, err.constData());
  QVERIFY2(err.contains("lost rank " + QByteArray::number(victim) + " of 2"), err.constData());
  if (victim == 1) {  // rank 0's run directory ends with a summary of the error
    const QJsonObject summary = readJsonObject(out + "/summary.json");
    QCOMPARE(summary.value("stop_reason").toString(), QString("error"));
    QVERIFY(summary.value("error").toString().contains("lost rank 1 of 2"));
  }
}

void TstCliDistributed::interruptThroughLaunch() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("run");
  const int port = testfiles::freeLoopbackPort();
  QProcess p;
  p.start(cliPath(), QStringList{"launch", "--nproc-per-node", "2", "--master-port",
                                 QString::number(port), "--"} +
                         moonsArgs(8, 100000) + QStringList{"--out", out});
  QVERIFY(p.waitForStarted(10000));
  QVERIFY2(waitForRows(out + "/steps.csv", 10, p), p.readAllStandardError().constData());
  QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGINT), 0);
  QVERIFY2(p.waitForFinished(20000), "launch did not stop within 20 s of SIGINT");
  const QByteArray err = p.readAllStandardError();
  QVERIFY2(p.exitCode() == 130, err.constData());
  const QJsonObject summary = readJsonObject(out + "/summary.json");
  QCOMPARE(summary.value("stop_reason").toString(), QString("interrupted"));
}

void TstCliDistributed::ranksWithOtherDataRefuse() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const int port = testfiles::freeLoopbackPort();
  QProcess r0, r1;
  startRank(r0, 0, 2, port, moonsArgs(32, 1) + QStringList{"--out", tmp.filePath("run")});
  startRank(r1, 1, 2, port, moonsArgs(32, 1) + QStringList{"--set", "data.n_samples=1000"});
  QVERIFY(r0.waitForFinished(60000) && r1.waitForFinished(60000));
  for (QProcess* p : {&r0, &r1}) {
    const QByteArray err = p->readAllStandardError();
    QVERIFY2(p->exitCode() == 2, err.constData());
    // 768 training samples (960 - 192) on rank 0, 800 (1000 - 200) on rank 1.
    QVERIFY2(err.contains("ranks disagree on training samples: from 768 to 800"), err.constData());
  }
  QVERIFY(!QFileInfo::exists(tmp.filePath("run")));  // nothing written before the first step
}

void TstCliDistributed::launchUsageErrors() {
  const CliResult no_train = runCli({"launch", "--nproc-per-node", "2", "--", "presets"});
  QCOMPARE(no_train.exit_code, 2);
  QVERIFY(no_train.err.contains("launch runs `train`"));
  const CliResult bad_node = runCli(
      {"launch", "--nproc-per-node", "1", "--nnodes", "2", "--node-rank", "2", "--", "train"});
  QCOMPARE(bad_node.exit_code, 2);
  QVERIFY(bad_node.err.contains("--node-rank 2 must be below --nnodes 2"));
}

QTEST_GUILESS_MAIN(TstCliDistributed)
#include "tst_cli_distributed.moc"

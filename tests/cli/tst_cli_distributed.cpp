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

#include "python_runner.h"
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
  const testpython::Result p = testpython::script(code, args);
  if (!p.finished) return "python did not run";
  return QString::fromUtf8(p.out).trimmed() +
         (p.exit_code != 0 ? " " + QString::fromUtf8(p.err) : QString());
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
  void ranksWithOtherSettingsRefuse_data();
  void ranksWithOtherSettingsRefuse();
  void stuckRankEndsLaunchWithinTheTimeout();
  void takenPortEndsLaunchAtOnce();
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
  // The configs are compared first: rank 1 names the key and both values.
  const QByteArray e0 = r0.readAllStandardError(), e1 = r1.readAllStandardError();
  QVERIFY2(r0.exitCode() == 2 && r1.exitCode() == 2, (e0 + e1).constData());
  QVERIFY2(e1.contains("data.n_samples is 960 on rank 0 and 1000 on rank 1"), e1.constData());
  QVERIFY2(e0.contains("rank 1's differs from rank 0's"), e0.constData());
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

void TstCliDistributed::ranksWithOtherSettingsRefuse_data() {
  // Each ran to exit 0 before (val accuracy 0.17 against 0.82 for the lr).
  QTest::addColumn<QString>("set");
  QTest::addColumn<QString>("message");
  QTest::newRow("lr") << "optimizer.lr=0.5"
                      << "optimizer.lr is 0.2 on rank 0 and 0.5 on rank 1";
  QTest::newRow("optimizer") << "optimizer.name=adam"
                             << "optimizer.name is \"sgd\" on rank 0 and \"adam\" on rank 1";
  QTest::newRow("dropout") << "model.dropout=0.3"
                           << "model.dropout is 0.0 on rank 0 and 0.3 on rank 1";
  QTest::newRow("clipping") << "training.clip.max_norm=2"
                            << "training.clip.max_norm is 0.5 on rank 0 and 2.0 on rank 1";
  QTest::newRow("seed") << "training.seed=7"
                        << "training.seed is";
}

void TstCliDistributed::ranksWithOtherSettingsRefuse() {
  QFETCH(QString, set);
  QFETCH(QString, message);
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const int port = testfiles::freeLoopbackPort();
  QProcess r0, r1;
  startRank(r0, 0, 2, port, moonsArgs(32, 1) + QStringList{"--out", tmp.filePath("run")});
  startRank(r1, 1, 2, port, moonsArgs(32, 1) + QStringList{"--set", set});
  QVERIFY(r0.waitForFinished(60000) && r1.waitForFinished(60000));
  const QByteArray e0 = r0.readAllStandardError(), e1 = r1.readAllStandardError();
  QVERIFY2(r0.exitCode() == 2 && r1.exitCode() == 2, (e0 + e1).constData());
  QVERIFY2(e1.contains(message.toUtf8()), e1.constData());
  QVERIFY(!QFileInfo::exists(tmp.filePath("run") + "/steps.csv"));
}

namespace {
/// The pids of `parent`'s children (/proc/<pid>/task/<tid>/children).
QList<qint64> childrenOf(qint64 parent) {
  QList<qint64> out;
  for (const QString& tid : QDir(QString("/proc/%1/task").arg(parent)).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    QFile f(QString("/proc/%1/task/%2/children").arg(parent).arg(tid));
    if (!f.open(QIODevice::ReadOnly)) continue;
    for (const QByteArray& w : f.readAll().split(' '))
      if (!w.trimmed().isEmpty()) out << w.trimmed().toLongLong();
  }
  return out;
}
}  // namespace

void TstCliDistributed::stuckRankEndsLaunchWithinTheTimeout() {
  // A rank stopped with SIGSTOP: launch took 212 s with timeout 20 before (a 180 s grace).
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
  const QList<qint64> ranks = childrenOf(p.processId());
  QCOMPARE(ranks.size(), 2);
  // Rank 1 is the second child started.
  qint64 rank1 = -1;
  for (qint64 pid : ranks) {
    QFile env(QString("/proc/%1/environ").arg(pid));
    if (env.open(QIODevice::ReadOnly) && env.readAll().split('\0').contains("RANK=1")) rank1 = pid;
  }
  QVERIFY(rank1 > 0);
  QElapsedTimer timer;
  timer.start();
  QCOMPARE(::kill(static_cast<pid_t>(rank1), SIGSTOP), 0);
  // distributed.timeout_seconds=20: rank 0 declares rank 1 lost within it; launch then stops
  // rank 1 (SIGTERM + SIGCONT, SIGKILL 5 s later) after its 5 s grace.
  const bool ended = p.waitForFinished(45000);
  if (!ended) ::kill(static_cast<pid_t>(rank1), SIGKILL);
  QVERIFY2(ended, "launch did not end within 45 s of a stuck rank");
  const QByteArray err = p.readAllStandardError();
  QVERIFY2(timer.elapsed() < 40000, qPrintable(QString::number(timer.elapsed()) + " ms"));
  QVERIFY2(p.exitCode() == 1, err.constData());
  QVERIFY2(err.contains("lost rank 1 of 2"), err.constData());
  // Declared by rank 0 only: the stopped rank is killed, not woken to blame rank 0.
  QVERIFY2(!err.contains("lost rank 0"), err.constData());
  QVERIFY2(err.contains("rank 1 (pid " + QByteArray::number(rank1) + ") is stopped: killing it"),
           err.constData());
}

void TstCliDistributed::takenPortEndsLaunchAtOnce() {
  // Another program holds the master port: rank 0 fails at once; launch returned after 191 s.
  const int holder = socket(AF_INET, SOCK_STREAM, 0);
  QVERIFY(holder >= 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  QVERIFY(bind(holder, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && listen(holder, 4) == 0 &&
          getsockname(holder, reinterpret_cast<sockaddr*>(&a), &len) == 0);
  const int port = ntohs(a.sin_port);
  QElapsedTimer timer;
  timer.start();
  const CliResult r = runCli(QStringList{"launch", "--nproc-per-node", "2", "--master-port",
                                         QString::number(port), "--"} +
                                 moonsArgs(8, 1),
                             QString(), 60000);
  QVERIFY(r.finished);
  QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed()) + " ms"));
  QVERIFY2(r.exit_code != 0, r.err.constData());
  QVERIFY2(r.err.contains("already in use"), r.err.constData());
  close(holder);
}

QTEST_GUILESS_MAIN(TstCliDistributed)
#include "tst_cli_distributed.moc"

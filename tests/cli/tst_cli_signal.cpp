// End-to-end test of Ctrl-C / SIGTERM: a long run stops cleanly at the next step, writes
// summary.json with stop_reason "interrupted" and exits with 130.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtTest/QtTest>

#include "cli_test_util.h"

using namespace clitest;

class TstCliSignal : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void interruptStopsCleanly_data();
  void interruptStopsCleanly();
  void interruptDuringALongLoad();
  void interruptDuringADataLoad_data();
  void interruptDuringADataLoad();
  void secondRunOnTheSameOutIsRefusedAtOnce();
  void compareCommandsStopCleanly_data();
  void compareCommandsStopCleanly();
  void closedStdoutDoesNotKillTheRun();
};

void TstCliSignal::interruptStopsCleanly_data() {
  QTest::addColumn<int>("signal");
  QTest::addColumn<int>("copies");
  QTest::newRow("SIGINT") << int(SIGINT) << 1;
  QTest::newRow("SIGTERM") << int(SIGTERM) << 1;
  // `timeout -s INT` and a terminal signal the process and its group: the same interrupt
  // arrives twice within microseconds and must still stop cleanly, not quit at once.
  QTest::newRow("SIGINT twice at once") << int(SIGINT) << 2;
}

void TstCliSignal::interruptStopsCleanly() {
  QFETCH(int, signal);
  QFETCH(int, copies);
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("long");
  QProcess p;
  // 100,000 epochs of overfit-sine would take many minutes: the run must be interrupted.
  p.start(cliPath(), {"train", "--preset", "overfit-sine", "--epochs", "100000", "--out", out});
  QVERIFY(p.waitForStarted(10000));

  // Wait until at least one epoch row is in metrics.csv (header + 1 line).
  QElapsedTimer timer;
  timer.start();
  bool has_row = false;
  while (!has_row && timer.elapsed() < 60000 && p.state() == QProcess::Running) {
    const auto metrics = readCsv(out + "/metrics.csv");
    has_row = metrics && !metrics->rows.isEmpty();
    if (!has_row) QThread::msleep(50);
  }
  QVERIFY2(has_row, p.readAllStandardError().constData());
  QCOMPARE(p.state(), QProcess::Running);

  timer.restart();
  for (int i = 0; i < copies; ++i) QCOMPARE(::kill(static_cast<pid_t>(p.processId()), signal), 0);
  QVERIFY2(p.waitForFinished(10000), "the run did not stop within 10 s of the signal");
  const QByteArray err = p.readAllStandardError();
  QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed()) + " ms"));
  QVERIFY2(p.exitStatus() == QProcess::NormalExit, err.constData());  // not killed by it
  QVERIFY2(p.exitCode() == 130, err.constData());

  const QJsonObject summary = readJsonObject(out + "/summary.json");
  QCOMPARE(summary.value("stop_reason").toString(), QString("interrupted"));
  const auto metrics = readCsv(out + "/metrics.csv");
  QVERIFY(metrics);
  QVERIFY(metrics->rows.size() >= 1 && metrics->rows.size() < 100000);
  QCOMPARE(summary.value("epochs_completed").toInteger(), int64_t(metrics->rows.size()));
  // Every completed step was flushed to steps.csv.
  const auto steps = readCsv(out + "/steps.csv");
  QVERIFY(steps);
  QCOMPARE(summary.value("global_step").toInteger(), int64_t(steps->rows.size()));
  QVERIFY2(err.contains("interrupted"), err.constData());
}

namespace {

/// The read offset of `pid`'s open descriptor on `file` (from /proc/PID/fdinfo), or -1 when
/// it has none open.
qint64 readOffset(qint64 pid, const QString& file) {
  const QString fds = QStringLiteral("/proc/%1/fd").arg(pid);
  for (const QString& fd : QDir(fds).entryList(QDir::Files | QDir::System)) {
    if (QFileInfo(fds + "/" + fd).symLinkTarget() != file) continue;
    QFile info(QStringLiteral("/proc/%1/fdinfo/%2").arg(pid).arg(fd));
    if (!info.open(QIODevice::ReadOnly)) continue;
    for (const QByteArray& line : info.readAll().split('\n'))
      if (line.startsWith("pos:")) return line.mid(4).trimmed().toLongLong();
  }
  return -1;
}

/// How a frozen (SIGSTOPped) process answered `sig`: sent, then SIGCONT, then up to 5 s to end
/// (killed after that): whether it ended, the milliseconds after the signal, its stderr.
struct Answer {
  bool finished;
  qint64 ms;
  QByteArray err;
};
Answer signalFrozen(QProcess& p, qint64 pid, int sig) {
  ::kill(static_cast<pid_t>(pid), sig);
  ::kill(static_cast<pid_t>(pid), SIGCONT);
  QElapsedTimer timer;
  timer.start();
  const bool finished = p.waitForFinished(5000);
  const qint64 ms = timer.elapsed();
  if (!finished) {
    p.kill();
    p.waitForFinished(5000);
  }
  return {finished, ms, p.readAllStandardError()};
}

}  // namespace

void TstCliSignal::interruptDuringALongLoad() {
  // A checkpoint that takes long to read (a big file on a slow disk). A FIFO no longer stands
  // in for the slow disk (paths that are not regular files are refused at once), so
  // the slowness is made by freezing the process: a 2 GiB file (zip header, then zeros) is read
  // as --resume; once the CLI is past the format check and part-way through the whole-file
  // read it is stopped (SIGSTOP), sent Ctrl-C and let go (SIGCONT). The read must stop within
  // a chunk: exit 130 within a second, "interrupted while reading", nothing written.
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString file = tmp.filePath("big.pt"), out = tmp.filePath("resumed");
  const qint64 size = qint64{2} << 30;
  {
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("PK\x03\x04", 4);
    QVERIFY(f.resize(size));  // sparse: no disk space used
  }
  QProcess p;
  p.start(cliPath(), {"train", "--resume", file, "--out", out});
  QVERIFY(p.waitForStarted(10000));
  const qint64 pid = p.processId();
  QElapsedTimer timer;
  timer.start();
  qint64 pos = -1;
  bool frozen = false;
  while (!frozen && timer.elapsed() < 20000 && p.state() == QProcess::Running) {
    pos = readOffset(pid, file);
    // Past the 64 KiB format check, not yet at the end: freeze it there.
    if (pos > (qint64{1} << 16) && pos < size) {
      QCOMPARE(::kill(static_cast<pid_t>(pid), SIGSTOP), 0);
      frozen = true;
      pos = readOffset(pid, file);  // where it stopped
    }
  }
  QVERIFY2(frozen, "never saw the CLI part-way through reading the file");
  QVERIFY2(pos > 0 && pos < size, qPrintable(QString::number(pos)));
  const auto [finished, ms, err] = signalFrozen(p, pid, SIGINT);
  QVERIFY2(finished, "the CLI was still loading 5 s after Ctrl-C");
  QVERIFY2(ms < 1000, qPrintable(QString::number(ms) + " ms after the signal"));
  QVERIFY2(p.exitStatus() == QProcess::NormalExit, err.constData());
  QVERIFY2(p.exitCode() == 130, err.constData());
  QVERIFY2(err.contains("interrupted while reading " + QFile::encodeName(file)), err.constData());
  QVERIFY(!QFileInfo::exists(out));  // nothing written
}

void TstCliSignal::interruptDuringADataLoad_data() {
  QTest::addColumn<QString>("source");
  QTest::addColumn<int>("signal");
  for (const char* source : {"csv", "image-folder"}) {
    QTest::newRow(qPrintable(QString(source) + " SIGINT")) << QString(source) << int(SIGINT);
    QTest::newRow(qPrintable(QString(source) + " SIGTERM")) << QString(source) << int(SIGTERM);
  }
}

void TstCliSignal::interruptDuringADataLoad() {
  // Issue 44 items 7 and 18: Ctrl-C and SIGTERM while a table is parsed (a 48 MB CSV, about 4 s to read) or an
  // image folder decoded (1,200 PGM images of 160x160, no cache): frozen part-way through the
  // reading (SIGSTOP), signalled, let go (SIGCONT): exit 130 (the CLI's code for both) within a
  // second, nothing written.
  QFETCH(QString, source);
  QFETCH(int, signal);
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString data = tmp.filePath(source == QStringLiteral("csv") ? "big.csv" : "images");
  if (source == QStringLiteral("csv")) {
    QFile f(data);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("a,b,label\n");
    const QByteArray rows = QByteArray("0.25,1.5,1\n0.75,-2.5,0\n").repeated(1 << 16);
    for (int i = 0; i < 32; ++i) f.write(rows);
  } else {
    QByteArray pgm = "P5\n160 160\n255\n";
    for (int i = 0; i < 160 * 160; ++i) pgm.append(char(i * 7 % 251));
    for (const char* cls : {"a", "b"}) {
      QVERIFY(QDir().mkpath(data + '/' + cls));
      for (int i = 0; i < 600; ++i) {
        QFile f(QStringLiteral("%1/%2/%3.pgm").arg(data, cls).arg(i, 4, 10, QChar('0')));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(pgm);
      }
    }
  }
  const QString out = tmp.filePath("run");
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("TRAINSCOPE_CACHE_DIR", tmp.filePath("cache"));  // no cached decode
  p.setProcessEnvironment(env);
  QStringList args = {"train", "--preset", source == QStringLiteral("csv") ? "moons" : "fashion-mnist-mlp",
                      "--set", "data.source=" + source, "--out", out};
  args << "--set" << (source == QStringLiteral("csv") ? "data.csv.path=" : "data.image_folder.path=") + data;
  p.start(cliPath(), args);
  QVERIFY(p.waitForStarted(10000));
  const qint64 pid = p.processId();
  // Reading: an open file of the data, part-way (the CSV past its first block).
  auto reading = [&] {
    const QString fds = QStringLiteral("/proc/%1/fd").arg(pid);
    for (const QString& fd : QDir(fds).entryList(QDir::Files | QDir::System)) {
      const QString target = QFileInfo(fds + "/" + fd).symLinkTarget();
      if (source == QStringLiteral("csv") ? target == data && readOffset(pid, data) > (1 << 17)
                                          : target.startsWith(data + '/'))
        return true;
    }
    return false;
  };
  QElapsedTimer timer;
  timer.start();
  bool frozen = false;
  while (!frozen && timer.elapsed() < 30000 && p.state() == QProcess::Running) {
    if (reading()) {
      QCOMPARE(::kill(static_cast<pid_t>(pid), SIGSTOP), 0);
      frozen = true;
    }
  }
  QVERIFY2(frozen, "never saw the CLI reading the data");
  const auto [finished, ms, err] = signalFrozen(p, pid, signal);
  QVERIFY2(finished, "the CLI was still loading 5 s after the signal");
  QVERIFY2(ms < 1000, qPrintable(QString::number(ms) + " ms after the signal"));
  QVERIFY2(p.exitStatus() == QProcess::NormalExit, err.constData());
  QVERIFY2(p.exitCode() == 130, qPrintable(QString::number(p.exitCode()) + " " + err));
  // No step was trained (frozen at the data's last block, the run may have begun: a header
  // line at most).
  QVERIFY2(!QFileInfo::exists(out + "/steps.csv") || readLines(out + "/steps.csv").size() <= 1,
           err.constData());
}

void TstCliSignal::secondRunOnTheSameOutIsRefusedAtOnce() {
  // Issue 43: two runs started together on one --out both wrote into it (two headers in
  // steps.csv): the folder was checked before the data loaded and locked only after. Now it is
  // claimed (created and locked) first. The first run is frozen (SIGSTOP) the moment its lock
  // file appears, which is before its data (60,000 Fashion-MNIST images) has loaded: nothing
  // else is in the folder yet. A second run on that --out is refused, exit 2, naming the
  // first's pid; the first, let go, completes alone.
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("one");
  QProcess first;
  first.start(cliPath(), {"train", "--preset", "fashion-mnist-mlp", "--epochs", "1", "--set",
                          "data.limit=3000", "--out", out});
  QVERIFY(first.waitForStarted(10000));
  const pid_t pid = static_cast<pid_t>(first.processId());
  QElapsedTimer timer;
  timer.start();
  // The lock file exists and names its holder (written right after the lock is taken).
  while (QFileInfo(out + "/.trainscope.lock").size() == 0 && timer.elapsed() < 60000 &&
         first.state() == QProcess::Running)
    QThread::usleep(200);
  QCOMPARE(::kill(pid, SIGSTOP), 0);
  QVERIFY2(QFileInfo::exists(out + "/.trainscope.lock"), first.readAllStandardError().constData());
  // Claimed before anything slow: the run's own files come after its data has loaded.
  QVERIFY(!QFileInfo::exists(out + "/config.json"));
  QVERIFY(!QFileInfo::exists(out + "/steps.csv"));
  const CliResult second = runCli({"train", "--preset", "moons", "--epochs", "2", "--out", out});
  ::kill(pid, SIGCONT);
  QCOMPARE(second.exit_code, 2);
  const QString err = QString::fromUtf8(second.err);
  QVERIFY2(err.contains("is being written by a running TrainScope process") &&
               err.contains(QStringLiteral("pid %1").arg(pid)),
           qPrintable(err));
  QVERIFY(first.waitForFinished(120000));
  QVERIFY2(first.exitCode() == 0, first.readAllStandardError().constData());
  QFile steps(out + "/steps.csv");
  QVERIFY(steps.open(QIODevice::ReadOnly));
  QCOMPARE(steps.readAll().count("step,"), 1);  // one header: one run
  QCOMPARE(QDir(out).entryList({"events.out.tfevents.*"}, QDir::Files).size(), 1);
}

void TstCliSignal::compareCommandsStopCleanly_data() {
  QTest::addColumn<QString>("command");
  QTest::addColumn<int>("signal");
  QTest::newRow("verify-repro SIGTERM") << "verify-repro" << int(SIGTERM);
  QTest::newRow("amp-compare SIGINT") << "amp-compare" << int(SIGINT);
}

void TstCliSignal::compareCommandsStopCleanly() {
  // verify-repro and amp-compare stop like train: at the next step, exit 130, a short message.
  QFETCH(QString, command);
  QFETCH(int, signal);
  QProcess p;
  p.start(cliPath(), {command, "--preset", "moons", "--steps", "1000000"});
  QVERIFY(p.waitForStarted(10000));
  QElapsedTimer timer;
  timer.start();
  QByteArray err;
  // verify-repro trains 2 runs, amp-compare 2 per timing round (3 rounds: "run 1 of 6").
  while (!err.contains("run 1 of ") && timer.elapsed() < 60000 && p.state() == QProcess::Running) {
    p.waitForReadyRead(50);
    err += p.readAllStandardError();
  }
  QVERIFY2(err.contains(command == "amp-compare" ? "run 1 of 6 (float32)" : "run 1 of 2"),
           err.constData());
  QThread::msleep(200);
  QCOMPARE(::kill(static_cast<pid_t>(p.processId()), signal), 0);
  timer.restart();
  QVERIFY2(p.waitForFinished(10000), "no stop within 10 s of the signal");
  err += p.readAllStandardError();
  QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed()) + " ms"));
  QVERIFY2(p.exitStatus() == QProcess::NormalExit, err.constData());  // not killed by it
  QVERIFY2(p.exitCode() == 130, err.constData());
  QVERIFY2(err.contains(command.toUtf8() + " interrupted: no result"), err.constData());
  QVERIFY(p.readAllStandardOutput().isEmpty());  // no half report
}

// `train ... | head -1`: the reader goes away after one line; SIGPIPE used to kill the run
// before it saved anything (no summary.json, no checkpoints). Now the run trains on to the end.
void TstCliSignal::closedStdoutDoesNotKillTheRun() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  for (const QString& mode : {QStringLiteral("--json"), QStringLiteral("--epochs=30")}) {
    const QString out = tmp.filePath(mode.mid(2, 4));
    QProcess p;
    p.start(QStringLiteral("/bin/bash"),
            {"-c", "\"$0\" train --preset moons \"$1\" --out \"$2\" 2>&1 | head -1 >/dev/null; "
                   "exit \"${PIPESTATUS[0]}\"",
             QStringLiteral(TRAINSCOPE_CLI_PATH), mode, out});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    QFile summary(out + QStringLiteral("/summary.json"));
    QVERIFY2(summary.open(QIODevice::ReadOnly), qPrintable(mode));
    QCOMPARE(QJsonDocument::fromJson(summary.readAll()).object().value("stop_reason").toString(),
             QStringLiteral("completed"));
    QVERIFY(QFile::exists(out + QStringLiteral("/checkpoints/last.pt")));
  }
}

QTEST_GUILESS_MAIN(TstCliSignal)
#include "tst_cli_signal.moc"

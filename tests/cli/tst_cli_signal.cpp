// End-to-end test of Ctrl-C / SIGTERM: a long run stops cleanly at the next step, writes
// summary.json with stop_reason "interrupted" and exits with 130.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtTest/QtTest>
#include <atomic>
#include <cerrno>
#include <thread>

#include "cli_test_util.h"

using namespace clitest;

class TstCliSignal : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void interruptStopsCleanly_data();
  void interruptStopsCleanly();
  void interruptDuringALongLoad();
  void compareCommandsStopCleanly_data();
  void compareCommandsStopCleanly();
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

void TstCliSignal::interruptDuringALongLoad() {
  // A checkpoint that takes long to read (a big file on a slow disk): a named pipe called
  // big.pt that a writer feeds with a zip header and then 1 MiB of zeros every 10 ms, for up to
  // 30 s. Ctrl-C 0.3 s into the load must end the process within a second, exit 130.
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString file = tmp.filePath("big.pt"), out = tmp.filePath("resumed");
  const QByteArray fifo = QFile::encodeName(file);
  QCOMPARE(::mkfifo(fifo.constData(), 0600), 0);
  ::signal(SIGPIPE, SIG_IGN);  // the writer learns of the reader's exit from EPIPE

  std::atomic<bool> reading{false}, done{false};
  std::thread writer([&] {
    QElapsedTimer t;
    t.start();
    int fd = -1;
    while (fd < 0 && !done && t.elapsed() < 30000) {  // no reader yet: ENXIO
      fd = ::open(fifo.constData(), O_WRONLY | O_NONBLOCK);
      if (fd < 0) QThread::msleep(5);
    }
    if (fd < 0) return;
    reading = true;
    const QByteArray header("PK\x03\x04", 4), zeros(1 << 20, '\0');
    bool ok = ::write(fd, header.constData(), header.size()) == header.size();
    while (ok && !done && t.elapsed() < 30000) {
      const ssize_t n = ::write(fd, zeros.constData(), zeros.size());
      ok = n >= 0 || errno == EAGAIN;
      QThread::msleep(10);
    }
    ::close(fd);
  });

  QProcess p;
  p.start(cliPath(), {"train", "--resume", file, "--out", out});
  QVERIFY(p.waitForStarted(10000));
  QElapsedTimer timer;
  timer.start();
  while (!reading && timer.elapsed() < 20000) QThread::msleep(5);
  const bool load_started = reading;
  if (load_started) {
    QThread::msleep(300);
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGINT), 0);
    timer.restart();
  }
  const bool finished = p.waitForFinished(5000);
  const qint64 ms = timer.elapsed();
  done = true;
  if (!finished) {
    p.kill();
    p.waitForFinished(5000);
  }
  writer.join();
  const QByteArray err = p.readAllStandardError();
  QVERIFY2(load_started, "the CLI never opened the checkpoint");
  QVERIFY2(finished, "the CLI was still loading 5 s after Ctrl-C");
  QVERIFY2(ms < 1000, qPrintable(QString::number(ms) + " ms after the signal"));
  QVERIFY2(p.exitStatus() == QProcess::NormalExit, err.constData());
  QVERIFY2(p.exitCode() == 130, err.constData());
  QVERIFY2(err.contains("interrupted while reading " + fifo), err.constData());
  QVERIFY(!QFileInfo::exists(out));  // nothing written
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
  while (!err.contains("run 1 of 2") && timer.elapsed() < 60000 && p.state() == QProcess::Running) {
    p.waitForReadyRead(50);
    err += p.readAllStandardError();
  }
  QVERIFY2(err.contains("run 1 of 2"), err.constData());
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

QTEST_GUILESS_MAIN(TstCliSignal)
#include "tst_cli_signal.moc"

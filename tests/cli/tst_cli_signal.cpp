// End-to-end test of Ctrl-C / SIGTERM: a long run stops cleanly at the next step, writes
// summary.json with stop_reason "interrupted" and exits with 130.
#include <signal.h>
#include <sys/types.h>

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

QTEST_GUILESS_MAIN(TstCliSignal)
#include "tst_cli_signal.moc"

// `trainscope-cli lr-find`: prints the curve and ends with suggested_lr=X; bad options exit 2.
#include <QtTest/QtTest>

#include "cli_test_util.h"

using namespace clitest;

class TstCliLrFind : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void printsCurveAndSuggestion();
  void badOptionsExit2();
};

void TstCliLrFind::printsCurveAndSuggestion() {
  CliResult r = runCli({"lr-find", "--preset", "moons", "--steps", "30", "--start-lr", "1e-5",
                        "--end-lr", "1", "--set", "data.n_samples=200"});
  QVERIFY2(r.exit_code == 0, r.err.constData());
  const QStringList lines = QString::fromUtf8(r.out).trimmed().split('\n');
  QCOMPARE(lines.front(), QString("step,lr,loss,smoothed_loss"));
  QVERIFY(lines.size() >= 3 && lines.size() <= 32);
  QCOMPARE(lines[1].split(',')[1].toDouble(), 1e-5);
  QVERIFY(lines.back().startsWith("suggested_lr="));
  const double lr = lines.back().mid(13).toDouble();
  QVERIFY(lr >= 1e-5 && lr <= 1);
  // The suggestion is one of the curve's lrs.
  bool found = false;
  for (int i = 1; i + 1 < lines.size(); ++i)
    found = found || lines[i].split(',')[1] == lines.back().mid(13);
  QVERIFY(found);
}

void TstCliLrFind::badOptionsExit2() {
  CliResult r = runCli({"lr-find", "--preset", "moons", "--start-lr", "1", "--end-lr", "0.1"});
  QCOMPARE(r.exit_code, 2);
  QVERIFY2(r.err.contains("start"), r.err.constData());
  r = runCli({"lr-find", "--preset", "nope"});
  QCOMPARE(r.exit_code, 2);
}

QTEST_GUILESS_MAIN(TstCliLrFind)
#include "tst_cli_lr_find.moc"

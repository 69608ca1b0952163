// trainscope-cli verify-repro, amp-compare, training.amp and training.grad_accum_steps end to
// end: two seeded runs in one process (verify-repro) equal a third in another process (train),
// unseeded runs differ (exit 4), bad input is exit 2.
#include <QtCore/QJsonArray>
#include <QtCore/QRegularExpression>
#include <algorithm>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_test_util.h"

using namespace clitest;

class TstCliRepro : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void verifyReproMoonsIsBitwiseIdentical();
  void threeRunsTwoProcessesIdentical();
  void unseededDiffersWithExit4();
  void badInputIsExit2();
  void ampAndAccumulationTrain();
  void ampCompareReports();
  void ampCompareNeverPrintsZeroRates();
};

void TstCliRepro::verifyReproMoonsIsBitwiseIdentical() {
  const CliResult r = runCli({"verify-repro", "--preset", "moons"});
  QVERIFY2(r.exit_code == 0, describe(r).constData());
  QVERIFY2(r.out.contains("bitwise identical"), describe(r).constData());
  QVERIFY(r.out.contains("100 of 100"));
}

void TstCliRepro::threeRunsTwoProcessesIdentical() {
  // moons: 800 training samples in batches of 32 = 25 steps per epoch; 2 epochs = 50 steps.
  const CliResult v = runCli({"verify-repro", "--preset", "moons", "--steps", "50", "--json"});
  QVERIFY2(v.exit_code == 0, describe(v).constData());
  const QJsonObject report = QJsonDocument::fromJson(v.out).object();
  const QJsonArray a = report.value("losses_a").toArray();
  QCOMPARE(a.size(), 50);
  QTemporaryDir dir;
  const QString out = dir.path() + "/run";
  const CliResult t = runCli({"train", "--preset", "moons", "--epochs", "2", "--out", out});
  QVERIFY2(t.exit_code == 0, describe(t).constData());
  const auto steps = readCsv(out + "/steps.csv");
  QVERIFY(steps.has_value());
  QCOMPARE(static_cast<int>(steps->rows.size()), 50);
  for (int i = 0; i < 50; ++i)
    QVERIFY2(steps->number(i, "loss") == a[i].toDouble(),
             qPrintable(QString("step %1: %2 vs %3")
                            .arg(i + 1)
                            .arg(steps->cell(i, "loss"))
                            .arg(a[i].toDouble(), 0, 'g', 17)));
}

void TstCliRepro::unseededDiffersWithExit4() {
  const CliResult r =
      runCli({"verify-repro", "--preset", "moons", "--set", "training.seed=null", "--steps", "5"});
  QVERIFY2(r.exit_code == 4, describe(r).constData());
  QVERIFY(r.out.contains("differs by"));
  QVERIFY(r.out.contains("training.seed is null"));
}

void TstCliRepro::badInputIsExit2() {
  for (const QStringList& args :
       {QStringList{"verify-repro", "--preset", "no-such-preset"},
        QStringList{"verify-repro", "--preset", "moons", "--steps", "0"},
        QStringList{"verify-repro", "--checkpoint", "x.pt", "--set", "training.epochs=2"},
        QStringList{"verify-repro", "--checkpoint", "/nonexistent/x.pt"},
        QStringList{"verify-repro", "--preset", "moons", "--set", "training.grad_accum_steps=0"},
        QStringList{"amp-compare", "--preset", "moons", "--set", "training.amp=maybe"}}) {
    const CliResult r = runCli(args);
    QVERIFY2(r.exit_code == 2, qPrintable(args.join(' ') + "\n" + QString::fromUtf8(describe(r))));
    QVERIFY2(!r.err.isEmpty(), describe(r).constData());  // the reason, on stderr
  }
}

void TstCliRepro::ampAndAccumulationTrain() {
  QTemporaryDir dir;
  const CliResult a = runCli({"train", "--preset", "moons", "--epochs", "1", "--set",
                              "training.amp=true", "--out", dir.path() + "/amp"});
  QVERIFY2(a.exit_code == 0, describe(a).constData());
  // 800 samples in micro-batches of 8: 100 per epoch, groups of 4: 25 optimizer steps.
  const CliResult g =
      runCli({"train", "--preset", "moons", "--epochs", "1", "--set", "training.batch_size=8",
              "--set", "training.grad_accum_steps=4", "--out", dir.path() + "/accum"});
  QVERIFY2(g.exit_code == 0, describe(g).constData());
  const auto steps = readCsv(dir.path() + "/accum/steps.csv");
  QCOMPARE(static_cast<int>(steps->rows.size()), 25);
  QCOMPARE(steps->cell(0, "batch"), QString("4"));
  QCOMPARE(steps->cell(24, "batch"), QString("100"));
}

void TstCliRepro::ampCompareReports() {
  const CliResult r = runCli({"amp-compare", "--preset", "moons", "--steps", "30", "--json"});
  QVERIFY2(r.exit_code == 0, describe(r).constData());
  const QJsonObject j = QJsonDocument::fromJson(r.out).object();
  QCOMPARE(j.value("loss_fp32").toArray().size(), 30);
  QCOMPARE(j.value("loss_amp").toArray().size(), 30);
  QCOMPARE(
      j.value("loss_fp32").toArray()[0].toDouble() == j.value("loss_amp").toArray()[0].toDouble(),
      false);  // the first forward pass already ran in bf16
  QVERIFY(j.value("max_loss_diff").toDouble() >= j.value("mean_loss_diff").toDouble());
  QVERIFY(j.value("speedup").toDouble() > 0);
  QVERIFY(j.value("explanation").toString().contains("bf16"));
  // Three interleaved rounds by default: the speed-up is their median, the spread their range
  // over it, and "busy" exactly when that exceeds 20%.
  QCOMPARE(j.value("rounds").toInt(), 3);
  std::vector<double> s;
  for (const QJsonValue& v : j.value("speedups").toArray()) s.push_back(v.toDouble());
  QCOMPARE(s.size(), std::size_t{3});
  std::sort(s.begin(), s.end());
  QCOMPARE(j.value("speedup").toDouble(), s[1]);
  QCOMPARE(j.value("speedup_low").toDouble(), s[0]);
  QCOMPARE(j.value("speedup_high").toDouble(), s[2]);
  const double spread = (s[2] - s[0]) / s[1];
  QVERIFY(std::fabs(j.value("speedup_spread").toDouble() - spread) < 1e-12);
  QCOMPARE(j.value("busy").toBool(), spread > 0.2);
  // Text: the range with the median, or the range alone on a busy machine.
  const CliResult text = runCli({"amp-compare", "--preset", "moons", "--steps", "30", "--rounds",
                                 "2"});
  QVERIFY2(text.exit_code == 0, describe(text).constData());
  const QString out = QString::fromUtf8(text.out);
  QVERIFY2(out.contains("medians of 2 rounds"), qPrintable(out));
  QVERIFY2(out.contains(QRegularExpression("speed-up +([0-9.]+x \\(median; rounds|[0-9.]+x to "
                                           "[0-9.]+x over 2 rounds \\(spread [0-9]+%: machine "
                                           "busy)")),
           qPrintable(out));
  QCOMPARE(QString::fromUtf8(text.err).count("run "), 4);  // "run 1 of 4 (float32)" ...
  QVERIFY2(text.err.contains("run 3 of 4 (AMP)"), text.err.constData());  // round 2: AMP first
  // --rounds outside 1..20: bad input, exit 2.
  for (const char* bad : {"0", "21"}) {
    const CliResult r2 = runCli({"amp-compare", "--preset", "moons", "--rounds", bad});
    QCOMPARE(r2.exit_code, 2);
  }
}

void TstCliRepro::ampCompareNeverPrintsZeroRates() {
  // overfit-sine trains one full batch per epoch: no step follows another within an epoch, so
  // the between-steps timing has nothing; whole epochs' training time is timed instead (every
  // epoch after the first: 29 of 30 steps). Once "float32 0 samples/s, AMP 0 samples/s".
  const CliResult r =
      runCli({"amp-compare", "--preset", "overfit-sine", "--steps", "30", "--json"});
  QVERIFY2(r.exit_code == 0, describe(r).constData());
  const QJsonObject j = QJsonDocument::fromJson(r.out).object();
  QCOMPARE(j.value("timed_steps").toInt(), 29);
  QVERIFY(j.value("samples_per_second_fp32").toDouble() > 0);
  QVERIFY(j.value("samples_per_second_amp").toDouble() > 0);
  QVERIFY(j.value("speedup").toDouble() > 0);
  // Two steps cannot be timed: said in words, no rates.
  const CliResult small = runCli({"amp-compare", "--preset", "overfit-sine", "--steps", "2"});
  QVERIFY2(small.exit_code == 0, describe(small).constData());
  const QString out = QString::fromUtf8(small.out);
  QVERIFY2(out.contains("samples/s       too small to time"), qPrintable(out));
  QVERIFY2(out.contains("The run is too small to time"), qPrintable(out));
  QVERIFY2(!out.contains("0 samples/s") && !out.contains("fp32 0") && !out.contains("0.00x"),
           qPrintable(out));
}

QTEST_GUILESS_MAIN(TstCliRepro)
#include "tst_cli_repro.moc"

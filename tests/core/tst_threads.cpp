// training.num_threads "auto": candidates, the choice, the rate text, and the slowdown monitor
// driven by scripted epoch rates.
#include <QtTest/QtTest>
#include <cmath>
#include <cstdlib>

#include "core/run/records.h"
#include "core/system/noise.h"
#include "core/train/monitors/throughput_monitor.h"
#include "core/train/probes/thread_choice.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_threads_suite {

using namespace trainscope;

class TstThreads : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void candidates();
  void limitFollowsOmpAndReservedCores();
  void fastestWinsSmallerOnTie();
  void ratesAndDescriptions();
  void rateSpreadIsMedianRangeAndBusyFlag();
  void slowdownFiresForScriptedRates_data();
  void slowdownFiresForScriptedRates();
  void slowdownMessageNamesCauseAndSuggestion();
};

void TstThreads::candidates() {
  QCOMPARE(threadCandidates(1), (std::vector<int>{1}));
  QCOMPARE(threadCandidates(2), (std::vector<int>{1, 2}));
  QCOMPARE(threadCandidates(3), (std::vector<int>{1, 2, 3}));
  QCOMPARE(threadCandidates(6), (std::vector<int>{1, 2, 4, 6}));
  QCOMPARE(threadCandidates(8), (std::vector<int>{1, 2, 4, 8}));
  QCOMPARE(threadCandidates(0), (std::vector<int>{1}));
}

void TstThreads::limitFollowsOmpAndReservedCores() {
  qunsetenv("OMP_NUM_THREADS");
  bool omp = true;
  QCOMPARE(autoThreadLimit(4, 0, &omp), 4);
  QVERIFY(!omp);
  QCOMPARE(autoThreadLimit(4, 1, &omp), 3);   // the GUI keeps a core for drawing
  QCOMPARE(autoThreadLimit(2, 1, &omp), 1);   // -> one candidate: nothing to measure
  QCOMPARE(autoThreadLimit(1, 1, &omp), 1);   // never below 1
  QVERIFY(autoThreadLimit(0, 0, &omp) >= 1);  // 0: the machine's cores
  qputenv("OMP_NUM_THREADS", "3");
  QCOMPARE(autoThreadLimit(8, 1, &omp), 3);  // OMP_NUM_THREADS is the largest candidate
  QVERIFY(omp);
  qputenv("OMP_NUM_THREADS", "junk");
  QCOMPARE(autoThreadLimit(2, 0, &omp), 2);
  QVERIFY(!omp);
  qunsetenv("OMP_NUM_THREADS");
}

void TstThreads::fastestWinsSmallerOnTie() {
  QCOMPARE(fastestThreads({{1, 66000}, {2, 11000}}), 1);
  QCOMPARE(fastestThreads({{1, 40000}, {2, 70000}, {4, 65000}}), 2);
  QCOMPARE(fastestThreads({{1, 50000}, {2, 50000}}), 1);
  QCOMPARE(fastestThreads({}), 1);
}

void TstThreads::ratesAndDescriptions() {
  QCOMPARE(QString::fromStdString(formatRate(860)), QString("860/s"));
  QCOMPARE(QString::fromStdString(formatRate(66000)), QString("66k/s"));
  QCOMPARE(QString::fromStdString(formatRate(10700)), QString("11k/s"));
  QCOMPARE(QString::fromStdString(formatRate(1234)), QString("1.2k/s"));
  QCOMPARE(QString::fromStdString(formatRate(2.5e6)), QString("2.5M/s"));
  ThreadChoice c;
  c.threads = 1;
  c.automatic = true;
  c.max_threads = 2;
  c.rates = {{1, 66000}, {2, 11000}};
  QCOMPARE(QString::fromStdString(describeThreads(c)),
           QString("1 thread (auto: 1 = 66k/s, 2 = 11k/s)"));
  c.limited_by_omp = true;
  QCOMPARE(QString::fromStdString(describeThreadDetail(c)),
           QString("auto: 1 = 66k/s, 2 = 11k/s; OMP_NUM_THREADS=2 is the largest candidate"));
  // Rounds that agree within 20% keep one figure; a candidate whose rounds spread more shows
  // its range, and the description says the choice is uncertain.
  c.limited_by_omp = false;
  c.rates = {{1, 60000, {58000, 62000}}, {2, 11000, {11000}}};
  QCOMPARE(QString::fromStdString(describeThreads(c)),
           QString("1 thread (auto: 1 = 60k/s, 2 = 11k/s)"));
  c.rates = {{1, 53000, {40000, 66000}}, {2, 11000, {11000, 11500}}};  // 49% > 20%
  QCOMPARE(QString::fromStdString(describeThreads(c)),
           QString("1 thread (auto: 1 = 40k-66k/s, 2 = 11k/s; rates varied over 20% between "
                   "rounds (other programs or warm-up): an uncertain choice)"));
  ThreadChoice one;
  one.automatic = true;
  QCOMPARE(QString::fromStdString(describeThreads(one)),
           QString("1 thread (auto: 1 core available)"));
  ThreadChoice fixed;
  fixed.threads = 2;
  QCOMPARE(QString::fromStdString(describeThreads(fixed)), QString("2 threads"));
  QVERIFY(describeThreadDetail(fixed).empty());
}

void TstThreads::rateSpreadIsMedianRangeAndBusyFlag() {
  // Odd count: the middle value; spread = (high - low) / median, by hand.
  RateSpread r = rateSpread({2.31, 5.51, 3.49});
  QCOMPARE(r.rounds, 3);
  QCOMPARE(r.median, 3.49);
  QCOMPARE(r.low, 2.31);
  QCOMPARE(r.high, 5.51);
  QVERIFY(std::fabs(r.spread - 3.2 / 3.49) < 1e-12);
  QVERIFY(r.busy);
  // Even count: the mean of the two middle values; 100 and 110 spread 10/105 = 9.5%.
  r = rateSpread({110, 100});
  QCOMPARE(r.median, 105.0);
  QVERIFY(std::fabs(r.spread - 10.0 / 105.0) < 1e-12);
  QVERIFY(!r.busy);
  // Exactly 20% is not busy; just over is.
  QVERIFY(!rateSpread({90, 100, 110}).busy);  // 20 / 100
  QVERIFY(rateSpread({89, 100, 110}).busy);   // 21 / 100
  // One round: no spread, never busy; untimed rounds (0, NaN) are left out.
  r = rateSpread({0.0, 7.0, std::nan("")});
  QCOMPARE(r.rounds, 1);
  QCOMPARE(r.median, 7.0);
  QCOMPARE(r.spread, 0.0);
  QVERIFY(!r.busy);
  QCOMPARE(rateSpread({}).rounds, 0);
}

void TstThreads::slowdownFiresForScriptedRates_data() {
  // Rates and firing epochs as comma-separated text: QList<double> in a test table would make
  // the test export Qt template symbols (see the exported_symbols check).
  QTest::addColumn<double>("baseline");
  QTest::addColumn<QString>("rates");  // samples/s of epochs 1, 2, ...
  QTest::addColumn<QString>("fires");  // epochs (1-based) with an event
  // Threshold: an epoch below baseline / 3 (60000 / 3 = 20000).
  QTest::newRow("steady") << 60000.0 << "61000,58000,52000"
                          << "";
  QTest::newRow("mild slowdown") << 60000.0 << "40000,21000,30000"
                                 << "";
  QTest::newRow("exactly a third") << 60000.0 << "20000"
                                   << "";
  QTest::newRow("busy from epoch 3") << 60000.0 << "60000,59000,11000,10000"
                                     << "3";
  QTest::newRow("busy, recovers, busy again") << 60000.0 << "860,900,60000,15000"
                                              << "1,4";
  QTest::newRow("no measurement") << 0.0 << "1,1"
                                  << "";
}

void TstThreads::slowdownFiresForScriptedRates() {
  QFETCH(double, baseline);
  QFETCH(QString, rates);
  QFETCH(QString, fires);
  ThroughputMonitor m(baseline, 2);
  QStringList fired;
  const QStringList list = rates.split(',');
  for (int i = 0; i < list.size(); ++i)
    if (m.onEpoch(i + 1, list[i].toDouble())) fired << QString::number(i + 1);
  QCOMPARE(fired.join(','), fires);
}

void TstThreads::slowdownMessageNamesCauseAndSuggestion() {
  ThroughputMonitor two(66000, 2);
  const std::optional<std::string> m = two.onEpoch(2, 860);
  QVERIFY(m.has_value());
  const QString text = QString::fromStdString(*m);
  QVERIFY2(text.contains("epoch 2 trained at 860/s"), qPrintable(text));
  QVERIFY2(text.contains("66k/s measured at the start with 2 threads"), qPrintable(text));
  QVERIFY2(text.contains("another program is probably using the cores"), qPrintable(text));
  QVERIFY2(text.contains("training.num_threads=1"), qPrintable(text));
  QCOMPARE(two.suggestedThreads(), 1);
  ThroughputMonitor one(66000, 1);
  const std::optional<std::string> m1 = one.onEpoch(1, 1000);
  QVERIFY(m1.has_value());
  QVERIFY(QString::fromStdString(*m1).contains("already uses 1 thread"));
}

TRAINSCOPE_TEST_MAIN(TstThreads)
}  // namespace tst_threads_suite
#include "tst_threads.moc"

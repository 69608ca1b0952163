// Smoothing helpers (core/run/smoothing.h) against values worked out by hand.
#include <QtTest/QtTest>
#include <cmath>

#include "core/run/smoothing.h"

using namespace trainscope;

class TstSmoothing : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void emaWithDebiasing();
  void movingWindow();
  void defaultWeightSuitsTheRunLength();
};

// Issue 43 item 19: the default weight by run length, and what it does to a short lesson run
// (the AMP lesson: 20 steps, the loss falling from 2.0 to 0.7): the smoothed curve ends within
// 5% of the raw loss instead of lagging at 1.3 as EMA 0.95 did.
void TstSmoothing::defaultWeightSuitsTheRunLength() {
  QCOMPARE(emaWeightForRun(0), 0.0);
  QCOMPARE(emaWeightForRun(20), 0.0);
  QCOMPARE(emaWeightForRun(100), 0.8);     // time constant 5 steps = 5% of 100
  QCOMPARE(emaWeightForRun(400), 0.95);
  QCOMPARE(emaWeightForRun(100000), 0.95);
  std::vector<double> loss;
  for (int i = 0; i < 20; ++i) loss.push_back(2.0 - 1.3 * i / 19.0);
  const double old_default = emaDebiased(loss, 0.95).back();
  const double now = emaDebiased(loss, emaWeightForRun(20)).back();
  QVERIFY2(old_default > 1.2, qPrintable(QString::number(old_default)));  // the lag users saw
  QVERIFY(std::abs(now - 0.7) < 0.05 * 0.7);
  // 200 steps falling the same way: EMA 0.9 ends near the raw loss too (within 10%).
  std::vector<double> longer;
  for (int i = 0; i < 200; ++i) longer.push_back(2.0 - 1.3 * i / 199.0);
  QVERIFY(std::abs(emaDebiased(longer, emaWeightForRun(200)).back() - 0.7) < 0.1 * 0.7);
}

void TstSmoothing::emaWithDebiasing() {
  // weight 0.5 on 4, 8, 2:
  // last 2 -> /(1-0.5) = 4; last 1 + 4 = 5 -> /(1-0.25) = 6.6667; last 2.5 + 1 = 3.5 ->
  // /(1-0.125) = 4.
  const auto s = emaDebiased({4, 8, 2}, 0.5);
  QCOMPARE(s.size(), size_t{3});
  QCOMPARE(s[0], 4.0);  // debiasing: the first value is itself
  QVERIFY(std::abs(s[1] - 20.0 / 3.0) < 1e-12);
  QVERIFY(std::abs(s[2] - 4.0) < 1e-12);
  // A NaN passes through and does not enter the average: 4, NaN, 8 -> 4, NaN, 6.6667.
  const auto n = emaDebiased({4, std::nan(""), 8}, 0.5);
  QVERIFY(std::isnan(n[1]));
  QVERIFY(std::abs(n[2] - 20.0 / 3.0) < 1e-12);
  // weight 0: unchanged; a constant series stays constant at any weight.
  QCOMPARE(emaDebiased({1, 5, 3}, 0), (std::vector<double>{1, 5, 3}));
  for (double v : emaDebiased(std::vector<double>(50, 2.5), 0.99))
    QVERIFY(std::abs(v - 2.5) < 1e-9);
}

void TstSmoothing::movingWindow() {
  // window 3 on 1, 2, 6, 4, NaN, 10: 1; 1.5; 3; 4; (6+4)/2 = 5; (4+10)/2 = 7.
  const auto m = movingAverage({1, 2, 6, 4, std::nan(""), 10}, 3);
  const std::vector<double> expected = {1, 1.5, 3, 4, 5, 7};
  QCOMPARE(m, expected);
  QCOMPARE(movingAverage({1, 2}, 1), (std::vector<double>{1, 2}));
  QVERIFY(std::isnan(movingAverage({std::nan(""), std::nan("")}, 2)[1]));
}

QTEST_GUILESS_MAIN(TstSmoothing)
#include "tst_smoothing.moc"

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
};

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

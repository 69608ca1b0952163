// RunHistory: bounded memory with min/max folding, exact newest points, non-finite values kept
// apart from the finite ones. Expected values come from the data fed in, kept on the side.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include "gui/model/run_history.h"
#include "gui/model/run_store.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_run_history_suite {

using trainscope::BoundedSeries;
using trainscope::NonFiniteKind;
using trainscope::RunHistory;
using trainscope::Series;

class TstRunHistory : public QObject {
  Q_OBJECT
 private slots:
  void keepsEveryPointUpToTheBudget();
  void foldingBoundsMemoryKeepsExtremesAndNewest();
  void nonFiniteValuesAreMarkersNotValues();
  void historyNamesSeriesAndSpansEveryStep();
  void swapExchangesRunsWithNewGenerations();
  void yRangeFollowsAppendsFoldsAndRollBacks();
  void storeHoldsRunsByKey();
};

void TstRunHistory::keepsEveryPointUpToTheBudget() {
  BoundedSeries s(100);
  for (int i = 1; i <= 100; ++i) s.append(i, i * 0.5);
  QCOMPARE(s.size(), std::size_t{100});
  QCOMPARE(s.foldedCount(), std::size_t{0});
  QCOMPARE(s.revision(), std::uint64_t{0});
  for (int i = 0; i < 100; ++i) QCOMPARE(s.points()[i].y, (i + 1) * 0.5);
}

void TstRunHistory::foldingBoundsMemoryKeepsExtremesAndNewest() {
  const std::size_t n = 1000;
  BoundedSeries s(n);
  std::mt19937 rng(12345);
  std::normal_distribution<double> noise(1.0, 0.2);
  std::vector<double> fed;
  // Spikes at steps a newcomer would miss in a bucket average: each one a unique huge (or tiny)
  // value, so it must survive folding as its bucket's max (or min).
  const std::set<int> spikes = {17, 2222, 4321, 7777, 9000};
  const std::set<int> dips = {33, 5555};
  for (int step = 1; step <= static_cast<int>(10 * n); ++step) {
    double y = noise(rng);
    if (spikes.count(step)) y = 1e6 + step;
    if (dips.count(step)) y = -1e6 - step;
    fed.push_back(y);
    s.append(step, y);
    QVERIFY2(s.size() <= n, "more points stored than the budget");
  }
  QVERIFY(s.revision() > 0);  // it did fold

  std::multiset<double> kept;
  for (const auto& p : s.points()) kept.insert(p.y);
  // Global extremes of the original data are still there.
  QVERIFY(kept.count(*std::min_element(fed.begin(), fed.end())) > 0);
  QVERIFY(kept.count(*std::max_element(fed.begin(), fed.end())) > 0);
  for (int step : spikes) QVERIFY2(kept.count(1e6 + step) == 1, qPrintable(QString::number(step)));
  for (int step : dips) QVERIFY2(kept.count(-1e6 - step) == 1, qPrintable(QString::number(step)));

  // The newest n/2 points are exact: same steps, same values, in order.
  const auto& pts = s.points();
  QVERIFY(pts.size() >= n / 2);
  for (std::size_t i = 0; i < n / 2; ++i) {
    const auto& p = pts[pts.size() - 1 - i];
    const std::size_t step = fed.size() - i;
    QCOMPARE(p.x, static_cast<double>(step));
    QCOMPARE(p.y, fed[step - 1]);
  }
  // Steps stay in increasing order and within what was fed.
  for (std::size_t i = 1; i < pts.size(); ++i) QVERIFY(pts[i].x > pts[i - 1].x);
  QCOMPARE(pts.front().x, 1.0);
  QCOMPARE(s.appended(), std::uint64_t{10 * n});
}

void TstRunHistory::nonFiniteValuesAreMarkersNotValues() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Series s;
  const double ys[] = {1, 0.5, nan, 0.25, inf, 0.2, 0.1, -inf};
  for (int i = 0; i < 8; ++i) s.append(i + 1, ys[i]);
  QCOMPARE(s.values().size(), std::size_t{5});
  QCOMPARE(s.markers(NonFiniteKind::NaN).size(), std::size_t{1});
  QCOMPARE(s.markers(NonFiniteKind::NaN).points()[0].x, 3.0);
  QCOMPARE(s.markers(NonFiniteKind::PosInf).points()[0].x, 5.0);
  QCOMPARE(s.markers(NonFiniteKind::NegInf).points()[0].x, 8.0);
  QCOMPARE(s.nonFiniteCount(), std::uint64_t{3});
  double lo = 0, hi = 0;
  QVERIFY(s.xRange(&lo, &hi));
  QCOMPARE(lo, 1.0);
  QCOMPARE(hi, 8.0);  // the last step is a -inf: still spanned
  QVERIFY(s.yRange(&lo, &hi));
  QCOMPARE(lo, 0.1);
  QCOMPARE(hi, 1.0);
}

void TstRunHistory::historyNamesSeriesAndSpansEveryStep() {
  RunHistory h(64);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int step = 1; step <= 300; ++step) {
    h.append(trainscope::series::kStepLoss, step, step < 6 ? 1.0 / step : nan);
    h.append(trainscope::series::kStepGradNorm, step, step <= 70 ? 2.0 : nan);
  }
  QVERIFY(h.find(trainscope::series::kStepLoss));
  QVERIFY(!h.find("no/such/series"));
  double lo = 0, hi = 0;
  QVERIFY(h.stepRange(&lo, &hi));
  QCOMPARE(lo, 1.0);
  QCOMPARE(hi, 300.0);
  QVERIFY(h.find(trainscope::series::kStepLoss)->values().size() == 5);
  const auto gen = h.generation();
  h.clear();
  QVERIFY(h.generation() != gen);
  QVERIFY(!h.stepRange(&lo, &hi));
}

void TstRunHistory::swapExchangesRunsWithNewGenerations() {
  // One history per run: swap makes the shown run the previous one. Both get generations no
  // history had before, so a plot that copied either one's points copies again.
  using trainscope::RunHistory;
  namespace series = trainscope::series;
  RunHistory shown(64), previous(128);
  for (int step = 1; step <= 10; ++step) shown.append(series::kStepLoss, step, step);
  previous.append(series::kEpochValLoss, 5, 2.0);
  QVERIFY(shown.generation() != previous.generation());
  const auto seen = {shown.generation(), previous.generation()};
  const auto shown_count = shown.appendCount(), previous_count = previous.appendCount();
  previous.swap(shown);
  QCOMPARE(previous.find(series::kStepLoss)->values().size(), std::size_t{10});
  QVERIFY(!previous.find(series::kEpochValLoss));
  QCOMPARE(shown.find(series::kEpochValLoss)->values().size(), std::size_t{1});
  QCOMPARE(previous.budget(), std::size_t{64});  // the budget goes with the run
  QCOMPARE(shown.budget(), std::size_t{128});
  for (auto g : seen) {
    QVERIFY(shown.generation() != g);
    QVERIFY(previous.generation() != g);
  }
  QVERIFY(shown.generation() != previous.generation());
  QVERIFY(shown.appendCount() != shown_count);  // the window's "anything new?" check sees it
  QVERIFY(previous.appendCount() != previous_count);
  RunHistory fresh;
  QVERIFY(fresh.generation() != shown.generation() && fresh.generation() != previous.generation());
  shown.clear();
  QVERIFY(shown.empty());
  QVERIFY(!previous.empty());
}

// The store keeps one history per run key, the shown run and the previous one from the start,
// at fixed addresses (plots keep pointers to them); an unknown key reads as an empty run.
void TstRunHistory::storeHoldsRunsByKey() {
  trainscope::RunStore store;
  namespace runs = trainscope::runs;
  QCOMPARE(store.runKeys(), (std::vector<std::string>{runs::kShown, runs::kPrevious}));
  QCOMPARE(&store.run(runs::kShown), &store.history());
  QCOMPARE(&store.run(runs::kPrevious), &store.previousRun());
  QVERIFY(store.run("trial 7").empty());
  QCOMPARE(store.runKeys().size(), std::size_t{2});  // reading a key adds nothing
}

void TstRunHistory::yRangeFollowsAppendsFoldsAndRollBacks() {
  // yRange scans only the new points between calls: after every append, fold, roll-back and
  // clear it must equal a scan of all the points (min and max of the finite values, of the
  // positive ones for a log axis), asked at irregular intervals.
  Series s(64);
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 1.0);
  auto brute = [&](bool positive, double* lo, double* hi) {
    bool any = false;
    for (const trainscope::SeriesPoint& p : s.values().points()) {
      if (positive && !(p.y > 0)) continue;
      *lo = any ? std::min(*lo, p.y) : p.y;
      *hi = any ? std::max(*hi, p.y) : p.y;
      any = true;
    }
    return any;
  };
  auto check = [&] {
    for (bool positive : {false, true}) {
      double lo = 0, hi = 0, blo = 0, bhi = 0;
      const bool any = s.yRange(&lo, &hi, positive);
      QCOMPARE(any, brute(positive, &blo, &bhi));
      if (any) {
        QCOMPARE(lo, blo);
        QCOMPARE(hi, bhi);
      }
    }
  };
  check();  // empty
  int x = 0;
  for (int round = 0; round < 60; ++round) {
    const int n = 1 + round % 7 * 5;  // 1..31 points between two calls: folds happen in between
    for (int i = 0; i < n; ++i) s.append(++x, round < 30 ? noise(rng) : 100 + noise(rng));
    check();
    if (round == 20 || round == 45) {
      s.dropAfter(x - 10);  // a roll-back forgets the newest points, extremes among them
      x -= 10;
      check();
    }
  }
  QVERIFY(s.values().revision() > 2);  // the folds happened
  s.clear();
  check();
  s.append(1, -3);  // only non-positive values: no range on a log axis
  check();
}

TRAINSCOPE_TEST_MAIN(TstRunHistory)
}  // namespace tst_run_history_suite
#include "tst_run_history.moc"

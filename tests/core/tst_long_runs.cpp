// Runs of any length in bounded memory: the epoch thinning rule
// (core/run/epoch_thinning.h) against a brute-force count of what it must keep; a series
// restored mid-run, or read from an older full history, goes on exactly as the uninterrupted
// one; the loss doctor keeps at most kEpochCapacity + 1 epochs over 60,000, still reads slow
// healthy learning, a plateau and overfitting as such, and a doctor restarted from the thinned
// history reads exactly as its uninterrupted twin.
#include <QtTest/QtTest>
#include <cmath>
#include <set>

#include "core/run/epoch_thinning.h"
#include "core/train/monitors/loss_doctor.h"

using namespace trainscope;

namespace {

int64_t self(int64_t e) { return e; }

/// The epochs a series reaching `latest` must hold, by brute force: the smallest power of two
/// s such that counting the epochs e in [1, latest] with (e - 1) % s == 0 gives <= capacity;
/// those epochs and `latest`.
std::set<int64_t> expectedKept(int64_t latest, size_t capacity) {
  for (int64_t s = 1;; s *= 2) {
    std::set<int64_t> kept;
    for (int64_t e = 1; e <= latest; ++e)
      if ((e - 1) % s == 0) kept.insert(e);
    if (kept.size() <= capacity) {
      kept.insert(latest);
      return kept;
    }
  }
}

EpochRecord epochOf(int64_t n, double train, double val) {
  EpochRecord r;
  r.epoch = n;
  r.step = 10 * n;
  r.train_loss = train;
  r.val_loss = val;
  return r;
}

/// The three long runs whose reading is known: a slow healthy learner (1/sqrt(n), still
/// falling 14% from one third of the run to the next), a plateau (0.6 with noise from epoch
/// 100 on, the initial loss 1), overfitting (validation 0.5 until epoch 15,000, then rising to
/// twice that while training keeps falling); the gradient norm growing step after step
/// (accumulating: a missing zero_grad), read over the whole run only if the resumed doctor
/// gets the checkpoint's gradient norms.
EpochRecord longRunEpoch(const std::string& kind, int64_t n) {
  const double x = static_cast<double>(n), wobble = std::sin(0.7 * x);
  if (kind == "healthy") {
    const double t = (1 / std::sqrt(x)) * (1 + 0.05 * wobble);
    return epochOf(n, t, 1.1 * t);
  }
  if (kind == "plateau") {
    const double t = n < 100 ? 1 - 0.004 * x : 0.6 + 0.01 * wobble;
    return epochOf(n, t, 0.65 + 0.01 * std::cos(0.9 * x));
  }
  if (kind == "accumulating") {  // the loss stays at its start (1): accumulated steps overshoot
    const double t = 1 + 0.05 * wobble;
    return epochOf(n, t, t + 0.01);
  }
  const double t = (1 / std::sqrt(x)) * (1 + 0.05 * wobble);
  const double v = 0.5 * (1 + std::max(0.0, (x - 15000) / 15000)) + 0.005 * std::cos(0.9 * x);
  return epochOf(n, t, v);
}

void feedSteps(LossDoctor& d) {
  for (int i = 0; i < 10; ++i) d.onStep(1.0, true, 1.0);  // the initial loss 1
}

QString text(const Diagnosis& d) {
  QStringList out{QString::fromStdString(d.kind), QString::fromStdString(d.summary)};
  for (const auto& f : d.evidence) {
    out << QString::fromStdString(f.code);
    for (double v : f.values) out << QString::number(v, 'g', 17);
  }
  return out.join(" | ");
}

}  // namespace

class TstLongRuns : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void thinningKeepsWhatTheRuleSays();
  void restoredSeriesGoOnAsTheUninterrupted();
  void doctorReadsLongRunsInBoundedMemory_data();
  void doctorReadsLongRunsInBoundedMemory();
};

void TstLongRuns::thinningKeepsWhatTheRuleSays() {
  for (size_t capacity : {size_t{1}, size_t{7}, size_t{100}}) {
    std::vector<int64_t> series;
    for (int64_t latest = 1; latest <= 3000; ++latest) {
      appendThinned(series, latest, self, capacity);
      QVERIFY(series.size() <= capacity + 1);
      if (latest % 97 == 0 || latest <= 300 || latest == 3000) {
        const std::set<int64_t> want = expectedKept(latest, capacity);
        QCOMPARE(std::set<int64_t>(series.begin(), series.end()), want);
        QVERIFY(std::is_sorted(series.begin(), series.end()));
        for (int64_t e = 1; e <= latest; ++e)
          QCOMPARE(epochKept(e, latest, capacity), want.count(e) == 1);
      }
    }
  }
  // The default capacity: every epoch up to 10,000, then at most 10,001 records, epoch 1 and
  // the latest always among them.
  QCOMPARE(epochStride(10000), int64_t{1});
  QCOMPARE(epochStride(10001), int64_t{2});
  std::vector<int64_t> series;
  for (int64_t latest = 1; latest <= 100000; ++latest) {
    appendThinned(series, latest, self);
    if (series.size() > kEpochCapacity + 1) QFAIL(qPrintable(QString::number(latest)));
  }
  QCOMPARE(series.front(), int64_t{1});
  QCOMPARE(series.back(), int64_t{100000});
  QCOMPARE(series.size(), expectedKept(100000, kEpochCapacity).size());
}

void TstLongRuns::restoredSeriesGoOnAsTheUninterrupted() {
  const size_t capacity = 50;
  std::vector<int64_t> whole;
  for (int64_t latest = 1; latest <= 777; ++latest) appendThinned(whole, latest, self, capacity);
  for (int64_t stop : {int64_t{49}, int64_t{50}, int64_t{51}, int64_t{203}, int64_t{512}}) {
    std::vector<int64_t> resumed;  // a checkpoint's history at `stop`, then the run goes on
    for (int64_t e = 1; e <= stop; ++e) appendThinned(resumed, e, self, capacity);
    std::vector<int64_t> legacy;  // an older TrainScope's full history at `stop`
    for (int64_t e = 1; e <= stop; ++e) legacy.push_back(e);
    thinToRule(legacy, self, capacity);
    QCOMPARE(legacy, resumed);
    for (int64_t e = stop + 1; e <= 777; ++e) {
      appendThinned(resumed, e, self, capacity);
      appendThinned(legacy, e, self, capacity);
    }
    QCOMPARE(resumed, whole);
    QCOMPARE(legacy, whole);
  }
  // A full history appended to without thinning first is brought to the rule at once.
  std::vector<int64_t> full;
  for (int64_t e = 1; e <= 600; ++e) full.push_back(e);
  appendThinned(full, int64_t{601}, self, capacity);
  const std::set<int64_t> want = expectedKept(601, capacity);
  QCOMPARE(std::set<int64_t>(full.begin(), full.end()), want);
}

void TstLongRuns::doctorReadsLongRunsInBoundedMemory_data() {
  QTest::addColumn<QString>("kind");
  QTest::newRow("healthy") << "healthy";
  QTest::newRow("plateau") << "plateau";
  QTest::newRow("overfitting") << "overfitting";
  QTest::newRow("accumulating") << "accumulating";
}

void TstLongRuns::doctorReadsLongRunsInBoundedMemory() {
  QFETCH(QString, kind);
  const std::string k = kind.toStdString();
  const int64_t total = 60000, restart_at = 23457;  // off the stride (4 there)
  LossDoctor whole;
  feedSteps(whole);
  std::vector<EpochRecord> history;  // as TrainState keeps it for the checkpoint
  std::optional<LossDoctor> resumed;
  int compared = 0;
  for (int64_t n = 1; n <= total; ++n) {
    const EpochRecord r = longRunEpoch(k, n);
    // one step an epoch; its gradient norm grows 10x over the run when accumulating
    const double grad = k == "accumulating" ? 1 + static_cast<double>(n) / 6000
                                            : 1 + 0.1 * std::sin(1.3 * static_cast<double>(n));
    whole.onStep(r.train_loss, true, grad);
    if (resumed) resumed->onStep(r.train_loss, true, grad);
    whole.onEpoch(r);
    appendThinned(history, r, [](const EpochRecord& e) { return e.epoch; });
    if (whole.epochsKept() > kEpochCapacity + 1) QFAIL(qPrintable(QString::number(n)));
    if (resumed) resumed->onEpoch(r);
    if (n == restart_at) {  // the checkpoint's history read back into a new doctor
      resumed.emplace();
      resumed->restart(10 * n, std::vector<double>(10, 1.0), false, &whole.grads());
      for (const EpochRecord& h : history) resumed->onEpoch(h);
      QCOMPARE(resumed->epochsKept(), whole.epochsKept());
      resumed->diagnose();  // the resumed run's reading at once (Trainer::startWatch)
    }
    if (whole.readingDue()) {
      const Diagnosis d = whole.diagnose();
      if (resumed) {
        QCOMPARE(text(resumed->diagnose()), text(d));
        ++compared;
      }
    }
  }
  QVERIFY(compared > 100);
  const Diagnosis d = whole.diagnose();
  QCOMPARE(d.epoch, total);
  QVERIFY2(d.kind == k, qPrintable(text(d)));
  QVERIFY(whole.epochsKept() <= kEpochCapacity + 1);
  QVERIFY(history.size() <= kEpochCapacity + 1);
}

QTEST_GUILESS_MAIN(TstLongRuns)
#include "tst_long_runs.moc"

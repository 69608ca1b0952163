// Reading a run back after a roll-back (issue 19): the run files stay append-only, the
// superseded rows are recognisable (a rolled_back event with their range) and the run reader
// returns each step once, the retrained one; a resume from such a run starts with those rows;
// events come in the order they happened. Expected values come from the observer's records
// (what the engine reported live), not from the files the reader reads.
#include <QtTest/QtTest>
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

#include "core/config/config_json.h"
#include "core/io/checkpoint.h"
#include "core/io/run_reader.h"
#include "core/train/trainer.h"
#include "test_util.h"

using namespace trainscope;

namespace {

struct Recorder : TrainerObserver {
  std::mutex mutex;
  std::vector<StepRecord> steps;
  std::vector<Event> events;
  std::atomic<int64_t> non_finite_step{0};
  std::atomic<int> paused{0};
  void onStep(const StepRecord& r) override {
    std::lock_guard<std::mutex> l(mutex);
    steps.push_back(r);
  }
  void onEvent(const Event& e) override {
    std::lock_guard<std::mutex> l(mutex);
    events.push_back(e);
    if (e.kind == EventKind::NonFinite && non_finite_step == 0) non_finite_step = e.step;
    if (e.kind == EventKind::Paused) ++paused;
  }
};

/// Full-batch linear regression by SGD at lr 50 (one step per epoch, 40 training samples): the
/// loss grows ~1e4x per step until it overflows (as tst_gradient_watch's explodingLinear).
TrainConfig explodingLinear() {
  TrainConfig c = resolveConfig("overfit-sine", {}, {});
  c.name = "linear";
  c.data.n_samples = 50;
  c.data.val_fraction = 0.2;
  c.model.hidden = {};
  c.optimizer.name = "sgd";
  c.optimizer.lr = 50;
  c.training.batch_size = 64;
  c.training.epochs = 40;
  c.training.seed = 5;
  c.training.num_threads = 1;
  c.training.non_finite = "pause";
  c.training.snapshot_every = 4;
  return c;
}

bool near(double a, double b) {
  return a == b || std::fabs(a - b) <= 1e-6 * std::max(std::fabs(a), std::fabs(b));
}

}  // namespace

class TstRunReader : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void currentRowsKeepTheLatest();
  void readerAfterRollBack();
};

void TstRunReader::currentRowsKeepTheLatest() {
  using V = std::vector<size_t>;
  // Steps 1-4, roll-back to 0, 1-5 again: the second attempt counts.
  QCOMPARE(currentRows({1, 2, 3, 4, 1, 2, 3, 4, 5}), (V{4, 5, 6, 7, 8}));
  // 1-10, roll-back to 4, 5-8, and the run ended: 9 and 10 were superseded too.
  QCOMPARE(currentRows({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 5, 6, 7, 8}),
           (V{0, 1, 2, 3, 10, 11, 12, 13}));
  // Two roll-backs, the second to an older snapshot.
  QCOMPARE(currentRows({1, 2, 3, 4, 5, 6, 3, 4, 5, 2, 3}), (V{0, 9, 10}));
  QCOMPARE(currentRows({}), V{});
  QCOMPARE(currentRows({7, 8, 9}), (V{0, 1, 2}));  // a resumed run's rows start later
}

void TstRunReader::readerAfterRollBack() {
  TrainConfig c = explodingLinear();
  QTemporaryDir tmp;
  const std::filesystem::path root = tmp.path().toStdString();
  TrainerOptions o;
  o.run_dir = root / "run";
  Trainer trainer(c, o);
  Recorder rec;
  trainer.addObserver(&rec);
  RunSummary s;
  std::thread worker([&] { s = trainer.run(); });
  // Resume every pause (the divergence check pauses first) until the non-finite one.
  int handled = 0;
  bool at_non_finite = false;
  for (int i = 0; i < 100 && !at_non_finite; ++i) {
    if (!QTest::qWaitFor([&] { return rec.paused > handled; }, 20000)) break;
    handled = rec.paused;
    at_non_finite = rec.non_finite_step > 0;
    if (!at_non_finite) trainer.resume();
  }
  if (!at_non_finite) {
    trainer.stop();
    worker.join();
    QFAIL("no non-finite pause");
  }
  const int64_t bad = rec.non_finite_step;
  trainer.rollBack(bad, 1e-3, /*enable_clipping=*/true);  // lr 50 -> 0.05
  worker.join();
  COMPARE_REASON(s.stop_reason, StopReason::Completed);
  const int64_t total = c.training.epochs;  // one step per epoch
  QCOMPARE(s.global_step, total);

  std::vector<Event> events;
  std::vector<StepRecord> live;
  {
    std::lock_guard<std::mutex> l(rec.mutex);
    events = rec.events;
    live = rec.steps;
  }
  int rolled_at = -1, resumed_at = -1;
  for (int i = 0; i < static_cast<int>(events.size()); ++i) {
    if (events[i].kind == EventKind::RolledBack) rolled_at = i;
    if (events[i].kind == EventKind::Resumed) resumed_at = i;
  }
  QVERIFY(rolled_at >= 0 && resumed_at >= 0);
  const int64_t snap = static_cast<int64_t>(*events[rolled_at].value);
  QVERIFY(snap < bad);
  // In the order it happened: rolled back, then resumed from the snapshot's step.
  QVERIFY2(rolled_at < resumed_at, events[resumed_at].message.c_str());
  QCOMPARE(events[resumed_at].step, snap);
  QCOMPARE(events[rolled_at].step, bad);  // it happened after step `bad`

  // events.jsonl: the same order, and the superseded range.
  const QStringList lines = testfiles::readLines(testfiles::qpath(o.run_dir / "events.jsonl"));
  int file_rolled = -1, file_resumed = -1;
  for (int i = 0; i < lines.size(); ++i) {
    const QJsonObject e = QJsonDocument::fromJson(lines[i].toUtf8()).object();
    if (e.value("kind").toString() == "rolled_back") {
      file_rolled = i;
      QCOMPARE(e.value("superseded_steps").toArray().at(0).toInteger(), snap + 1);
      QCOMPARE(e.value("superseded_steps").toArray().at(1).toInteger(), bad);
    }
    if (e.value("kind").toString() == "resumed") file_resumed = i;
  }
  QVERIFY(file_rolled >= 0 && file_rolled < file_resumed);

  // steps.csv is append-only: steps 1..bad, then snap+1..total again.
  const auto raw = testfiles::readCsv(o.run_dir / "steps.csv");
  QVERIFY(raw);
  QCOMPARE(static_cast<int64_t>(raw->rows.size()), bad + (total - snap));
  QCOMPARE(static_cast<int64_t>(live.size()), bad + (total - snap));

  // The reader: steps 1..total once each, the values that count (the live records: before the
  // snapshot the first attempt's, after it the retrained ones at lr 0.05).
  const std::vector<StepRecord> steps = readRunSteps(o.run_dir);
  QCOMPARE(static_cast<int64_t>(steps.size()), total);
  for (int64_t i = 0; i < total; ++i) {
    const StepRecord& r = steps[i];
    QCOMPARE(r.step, i + 1);
    const StepRecord& want = r.step <= snap ? live[i] : live[bad + (r.step - snap) - 1];
    QCOMPARE(want.step, r.step);
    QVERIFY2(near(r.loss, want.loss) || (std::isnan(r.loss) && std::isnan(want.loss)),
             qPrintable(QString("step %1: %2 vs %3").arg(r.step).arg(r.loss).arg(want.loss)));
    QVERIFY(near(r.lr, want.lr));
    QVERIFY(near(r.lr, r.step <= snap ? 50.0 : 50 * 1e-3));
  }

  // A resume from this run starts with each step once, as the reader gives them.
  TrainerOptions ro;
  ro.run_dir = root / "resumed";
  ro.resume_from = o.run_dir / "checkpoints" / "last.pt";
  TrainConfig more = checkpointConfig(inspectCheckpoint(ro.resume_from));  // as --resume does
  more.training.epochs = total + 3;
  more.training.non_finite = "stop";
  Trainer resumed(more, ro);
  const RunSummary rs = resumed.run();
  COMPARE_REASON(rs.stop_reason, StopReason::Completed);
  const auto again = testfiles::readCsv(ro.run_dir / "steps.csv");
  QVERIFY(again);
  QCOMPARE(static_cast<int64_t>(again->rows.size()), total + 3);
  for (int64_t i = 0; i < total; ++i) {
    QCOMPARE(again->rows[i].value(0).toLongLong(), i + 1);
    QVERIFY(near(again->number(i, "loss"), steps[i].loss) || std::isnan(steps[i].loss));
  }
}

QTEST_GUILESS_MAIN(TstRunReader)
#include "tst_run_reader.moc"

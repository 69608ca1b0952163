// Pacing (the dashboard's speed control): a paced run writes the same numbers as a full-speed
// run, and a pace change takes effect before the next step.
#include <QtTest/QtTest>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "core/config/train_config.h"
#include "core/train/trainer.h"
#include "run_files.h"

using namespace trainscope;
using Clock = std::chrono::steady_clock;

namespace {

TrainConfig paceConfig() {
  TrainConfig c = presetConfig("moons");
  c.name = "pace";
  c.data.n_samples = 200;  // 160 training samples, batch 32: 5 steps per epoch
  c.training.epochs = 4;
  c.training.batch_size = 32;
  c.training.seed = 7;
  c.training.num_threads = 1;
  return c;
}

struct StepTimes : TrainerObserver {
  std::vector<Clock::time_point> at;
  std::atomic<int> count{0};
  void onStep(const StepRecord&) override {
    at.push_back(Clock::now());
    ++count;
  }
};

/// A CSV without the given wall-clock columns, as rows of cells.
QList<QStringList> withoutColumns(const std::filesystem::path& path, const QStringList& drop) {
  auto csv = testfiles::readCsv(path);
  if (!csv) qFatal("cannot read %s", path.c_str());
  QList<int> keep;
  for (int i = 0; i < csv->header.size(); ++i)
    if (!drop.contains(csv->header[i])) keep << i;
  QList<QStringList> out;
  for (const QStringList& row : csv->rows) {
    QStringList cells;
    for (int i : keep) cells << row.value(i);
    out << cells;
  }
  return out;
}

}  // namespace

class TstPace : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void pacedRunWritesTheSameNumbers();
  void paceChangeTakesEffectBeforeTheNextStep();
  void pauseAfterEpochStopsExactlyThere();
};

void TstPace::pacedRunWritesTheSameNumbers() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const std::filesystem::path root = dir.path().toStdString();
  {
    TrainerOptions o;
    o.run_dir = root / "full";
    Trainer t(paceConfig(), o);
    t.run();
  }
  StepTimes times;
  {
    TrainerOptions o;
    o.run_dir = root / "paced";
    Trainer t(paceConfig(), o);
    t.addObserver(&times);
    t.setPace(40);  // 20 steps at 40 steps/s: at least 19 intervals of 25 ms
    t.run();
  }
  QCOMPARE(times.count.load(), 20);
  const double seconds = std::chrono::duration<double>(times.at.back() - times.at.front()).count();
  QVERIFY2(seconds >= 19 * 0.025 * 0.95, qPrintable(QString::number(seconds)));
  // Identical files, wall-clock columns aside.
  const QStringList wall = testfiles::wallClockColumns();
  QCOMPARE(withoutColumns(root / "paced" / "steps.csv", wall),
           withoutColumns(root / "full" / "steps.csv", wall));
  QCOMPARE(withoutColumns(root / "paced" / "metrics.csv", wall),
           withoutColumns(root / "full" / "metrics.csv", wall));
  // The waiting is not training time: throughput is not 40 steps/s * 32 samples.
  auto metrics = testfiles::readCsv(root / "paced" / "metrics.csv");
  QVERIFY(metrics);
  const int col = metrics->header.indexOf(QStringLiteral("samples_per_second"));
  QVERIFY(metrics->rows.first().value(col).toDouble() > 40 * 32 * 2);
}

void TstPace::paceChangeTakesEffectBeforeTheNextStep() {
  TrainConfig c = paceConfig();
  c.training.epochs = 100;
  Trainer t(c, TrainerOptions{});
  StepTimes times;
  t.addObserver(&times);
  t.setPace(0.5);  // one step every 2 s
  std::thread worker([&t] { t.run(); });
  QTRY_VERIFY_WITH_TIMEOUT(times.count.load() >= 1, 10000);
  const auto changed = Clock::now();
  t.setPace(0);  // full speed: the next step must not wait out the 2 s
  QTRY_VERIFY_WITH_TIMEOUT(times.count.load() >= 2, 10000);
  const double waited = std::chrono::duration<double>(times.at[1] - changed).count();
  t.stop();
  worker.join();
  QVERIFY2(waited < 0.5, qPrintable(QString::number(waited)));
}

void TstPace::pauseAfterEpochStopsExactlyThere() {
  // Epochs of 5 steps that take microseconds: a front end reacting to epoch records would be
  // late; the engine must stop at the end of epoch 7 itself.
  struct Watch : TrainerObserver {
    std::atomic<int> epochs{0}, steps{0};
    std::atomic<bool> paused{false};
    std::atomic<int> other_commands{0};  // the command must not act as any other one
    void onStep(const StepRecord&) override { ++steps; }
    void onEpoch(const EpochRecord&) override { ++epochs; }
    void onEvent(const Event& e) override {
      if (e.kind == EventKind::Paused) paused = true;
      if (e.kind == EventKind::CheckpointFailed || e.kind == EventKind::CheckpointSaved)
        ++other_commands;
    }
  } watch;
  TrainConfig c = paceConfig();
  c.training.epochs = 1000;
  Trainer t(c, TrainerOptions{});
  t.addObserver(&watch);
  t.pauseAfterEpoch(7);
  std::thread worker([&t] { t.run(); });
  QTRY_VERIFY_WITH_TIMEOUT(watch.paused.load(), 20000);
  QTest::qWait(200);  // nothing runs on while paused
  QCOMPARE(watch.epochs.load(), 7);
  QCOMPARE(watch.steps.load(), 7 * 5);
  QCOMPARE(watch.other_commands.load(), 0);
  t.stop();
  worker.join();
}

QTEST_GUILESS_MAIN(TstPace)
#include "tst_pace.moc"

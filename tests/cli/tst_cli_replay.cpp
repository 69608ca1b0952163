// `train --replay RUN_DIR`: a run changed live through the trainer's command queue (the API the
// dashboard uses: learning rate, clipping, AMP) and stopped by hand is rerun by the CLI as it
// happened, bit for bit; a run without changes replays as its config.json does; bad run
// folders are refused naming them.
#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_test_util.h"
#include "core/config/train_config.h"
#include "core/train/trainer.h"

using namespace clitest;

namespace {

/// The rows of two CSV files agree, wall-clock columns aside.
/// "step what value" of every config_changed event of a run.
QStringList configChanges(const QString& run_dir) {
  QStringList out;
  for (const QString& line : readLines(run_dir + "/events.jsonl")) {
    const QJsonObject e = QJsonDocument::fromJson(line.toUtf8()).object();
    if (e["kind"].toString() == "config_changed")
      out << QString("%1 %2 %3")
                 .arg(e["step"].toInteger())
                 .arg(e["what"].toString())
                 .arg(e["value"].toDouble(), 0, 'g', 17);
  }
  return out;
}

/// Changes settings at chosen steps the way the dashboard does (commands posted while the run
/// goes on, applied at the next step boundary), and stops the run at `stop_at`.
class LiveUser : public trainscope::TrainerObserver {
 public:
  LiveUser(trainscope::Trainer& t, int64_t stop_at) : trainer_(t), stop_at_(stop_at) {}
  void onStep(const trainscope::StepRecord& r) override {
    if (r.step == 30) trainer_.setLearningRate(0.02);
    if (r.step == 41) trainer_.setClipping(true, 0.25);
    if (r.step == 50) trainer_.setAmp(true);
    if (r.step == 58) trainer_.setAmp(false);
    if (r.step == 66) trainer_.setClipping(false, 0.25);
    if (r.step == 75) trainer_.setLearningRate(0.002);  // the last step of epoch 3
    if (r.step == stop_at_) trainer_.stop();
  }

 private:
  trainscope::Trainer& trainer_;
  int64_t stop_at_;
};

/// Rolls back once at step 37 (to the snapshot before step 35, 10x lower lr, clipping on), as
/// the dashboard's non-finite panel does, and stops at step 60 of the second pass.
class RollBackUser : public trainscope::TrainerObserver {
 public:
  explicit RollBackUser(trainscope::Trainer& t) : trainer_(t) {}
  void onStep(const trainscope::StepRecord& r) override {
    if (r.step == 37 && !rolled_back_) {
      rolled_back_ = true;
      trainer_.rollBack(35, 0.1, true);
    }
    if (r.step == 60) trainer_.stop();
  }

 private:
  trainscope::Trainer& trainer_;
  bool rolled_back_ = false;
};

/// Under policy "skip" from the start, switches training.non_finite to "stop" after step 6 (as
/// the dashboard's "When NaN/Inf" row does while the run goes on).
class PolicyUser : public trainscope::TrainerObserver {
 public:
  explicit PolicyUser(trainscope::Trainer& t) : trainer_(t) {}
  void onStep(const trainscope::StepRecord& r) override {
    if (r.step == 6) trainer_.setNonFinitePolicy("stop");
  }

 private:
  trainscope::Trainer& trainer_;
};

}  // namespace

class TstCliReplay : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void liveChangesReplayBitForBit();
  void rollBackReplays();
  void nonFinitePolicyChangeReplays();
  void runWithoutChangesReplaysAsItsConfig();
  void badRunFoldersAreRefused();

 private:
  QTemporaryDir tmp_;
};

void TstCliReplay::liveChangesReplayBitForBit() {
  // moons: 800 training samples / 32 = 25 steps per epoch; planned 10 epochs, stopped at step
  // 90 (mid-epoch 4).
  trainscope::TrainConfig config = trainscope::presetConfig("moons");
  config.training.epochs = 10;
  config.training.num_threads = 1;
  config.optimizer.lr = 0.05;
  config.training.non_finite = "pause";  // the dashboard's default: replayed as "skip"
  const QString orig = tmp_.filePath("live");
  trainscope::TrainerOptions options;
  options.run_dir = orig.toStdString();
  options.front_end = "gui";
  trainscope::Trainer trainer(config, options);
  LiveUser user(trainer, 90);
  trainer.addObserver(&user);
  const trainscope::RunSummary s = trainer.run();
  QVERIFY(trainscope::toString(s.stop_reason) == "stopped");
  QCOMPARE(s.global_step, int64_t(90));

  // The changes took effect at the step after the one they were asked at.
  const auto steps = readCsv(orig + "/steps.csv");
  QVERIFY(steps);
  QCOMPARE(steps->rows.size(), 90);
  QCOMPARE(steps->number(29, "lr"), 0.05);   // step 30
  QCOMPARE(steps->number(30, "lr"), 0.02);   // step 31
  QCOMPARE(steps->number(75, "lr"), 0.002);  // step 76, the first of epoch 4
  for (int i = 41; i < 66; ++i)              // steps 42..66 clipped at 0.25
    QVERIFY(steps->number(i, "grad_norm_clipped") <= 0.25 * (1 + 1e-6));
  const auto changes = configChanges(orig);
  QCOMPARE(changes.size(), 6);

  const QString replay = tmp_.filePath("replay");
  CliResult r = runCli({"train", "--replay", orig, "--out", replay});
  QVERIFY2(r.exit_code == 0, describe(r));
  QVERIFY2(r.err.contains("6 recorded live changes"), describe(r));
  COMPARE_RUN_CSV(orig + "/steps.csv", replay + "/steps.csv");
  COMPARE_RUN_CSV(orig + "/metrics.csv", replay + "/metrics.csv");
  QCOMPARE(configChanges(replay), changes);
  const QJsonObject summary = readJsonObject(replay + "/summary.json");
  QCOMPARE(summary["global_step"].toInteger(), qint64(90));
  QCOMPARE(summary["epochs_completed"].toInteger(), qint64(3));
  // config.json still holds the starting settings: alone it reproduces a different run.
  QCOMPARE(at(readJsonObject(orig + "/config.json"), "optimizer.lr").toDouble(), 0.05);
  const QString from_config = tmp_.filePath("from_config");
  r = runCli({"train", "--config", orig + "/config.json", "--out", from_config});
  QVERIFY2(r.exit_code == 0, describe(r));
  QCOMPARE(readCsv(from_config + "/steps.csv")->rows.size(), 250);
  QCOMPARE(readCsv(from_config + "/steps.csv")->number(30, "lr"), 0.05);
}

void TstCliReplay::rollBackReplays() {
  trainscope::TrainConfig config = trainscope::presetConfig("moons");
  config.training.epochs = 10;
  config.training.num_threads = 1;
  config.training.snapshot_every = 10;
  config.optimizer.lr = 0.05;
  const QString orig = tmp_.filePath("rolled");
  trainscope::TrainerOptions options;
  options.run_dir = orig.toStdString();
  options.front_end = "gui";
  trainscope::Trainer trainer(config, options);
  RollBackUser user(trainer);
  trainer.addObserver(&user);
  QCOMPARE(trainer.run().global_step, int64_t(60));
  // Steps 1..37, then 31..60 again from the snapshot at step 30 with lr 0.05 x 0.1.
  const auto steps = readCsv(orig + "/steps.csv");
  QVERIFY(steps);
  QCOMPARE(steps->rows.size(), 37 + 30);
  QCOMPARE(steps->number(37, "step"), 31.0);
  QCOMPARE(steps->number(37, "lr"), 0.05 * 0.1);

  const QString replay = tmp_.filePath("rolled_replay");
  CliResult r = runCli({"train", "--replay", orig, "--out", replay});
  QVERIFY2(r.exit_code == 0, describe(r));
  QVERIFY2(r.err.contains("1 recorded live change "), describe(r));
  COMPARE_RUN_CSV(orig + "/steps.csv", replay + "/steps.csv");
  COMPARE_RUN_CSV(orig + "/metrics.csv", replay + "/metrics.csv");
  QCOMPARE(configChanges(replay), configChanges(orig));
}

void TstCliReplay::nonFinitePolicyChangeReplays() {
  // exploding: 5 steps per epoch, the gradient norm is inf from step 4 on. Skipped steps 4-6
  // under "skip"; "stop" from step 7 ends the run at its non-finite step 7.
  trainscope::TrainConfig config = trainscope::presetConfig("exploding");
  config.training.epochs = 3;
  config.training.num_threads = 1;
  config.training.non_finite = "skip";
  const QString orig = tmp_.filePath("policy");
  trainscope::TrainerOptions options;
  options.run_dir = orig.toStdString();
  options.front_end = "gui";
  trainscope::Trainer trainer(config, options);
  PolicyUser user(trainer);
  trainer.addObserver(&user);
  const trainscope::RunSummary s = trainer.run();
  QCOMPARE(QString::fromStdString(trainscope::toString(s.stop_reason)), QString("non_finite"));
  QCOMPARE(s.global_step, int64_t(7));
  QStringList policy_events;
  for (const QString& line : readLines(orig + "/events.jsonl")) {
    const QJsonObject e = QJsonDocument::fromJson(line.toUtf8()).object();
    if (e["what"].toString() == "training.non_finite")
      policy_events << QString("%1 %2").arg(e["step"].toInteger()).arg(e["message"].toString());
  }
  QCOMPARE(policy_events, QStringList{"6 non-finite policy stop from step 7"});

  const QString replay = tmp_.filePath("policy_replay");
  CliResult r = runCli({"train", "--replay", orig, "--out", replay});
  QVERIFY2(r.exit_code == 3, describe(r));  // stopped on a non-finite value
  QVERIFY2(r.err.contains("1 recorded live change "), describe(r));
  COMPARE_RUN_CSV(orig + "/steps.csv", replay + "/steps.csv");
  const QJsonObject summary = readJsonObject(replay + "/summary.json");
  QCOMPARE(summary["stop_reason"].toString(), QString("non_finite"));
  QCOMPARE(summary["global_step"].toInteger(), qint64(7));
}

void TstCliReplay::runWithoutChangesReplaysAsItsConfig() {
  const QString a = tmp_.filePath("plain"), b = tmp_.filePath("plain_replay"),
                c = tmp_.filePath("plain_config");
  CliResult r = runCli({"train", "--preset", "moons", "--epochs", "3", "--set",
                        "training.num_threads=1", "--out", a});
  QVERIFY2(r.exit_code == 0, describe(r));
  r = runCli({"train", "--replay", a, "--out", b});
  QVERIFY2(r.exit_code == 0, describe(r));
  QVERIFY2(r.err.contains("0 recorded live changes"), describe(r));
  r = runCli({"train", "--config", a + "/config.json", "--out", c});
  QVERIFY2(r.exit_code == 0, describe(r));
  for (const char* file : {"/steps.csv", "/metrics.csv"}) {
    COMPARE_RUN_CSV(c + file, b + file);
    COMPARE_RUN_CSV(a + file, b + file);
  }
  QCOMPARE(readCsv(b + "/metrics.csv")->rows.size(), 3);
  // A replay never writes into the run it replays.
  r = runCli({"train", "--replay", a, "--out", a, "--overwrite"});
  QCOMPARE(r.exit_code, 2);
  QVERIFY(QFileInfo::exists(a + "/steps.csv"));
  // --replay takes everything from the run directory.
  r = runCli({"train", "--replay", a, "--set", "optimizer.lr=1"});
  QCOMPARE(r.exit_code, 2);
  QVERIFY2(r.err.contains("--replay takes everything from the run directory"), describe(r));
}

void TstCliReplay::badRunFoldersAreRefused() {
  const QString missing = tmp_.filePath("missing"), file = tmp_.filePath("a_file"),
                empty = tmp_.filePath("no_events");
  QFile f(file);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write("x\n");
  f.close();
  QVERIFY(QDir().mkpath(empty));
  QFile cfg(empty + "/config.json");
  QVERIFY(cfg.open(QIODevice::WriteOnly));
  cfg.write("{}\n");
  cfg.close();
  struct Case {
    QString dir;
    QByteArray says;
  };
  for (const Case& c :
       {Case{missing, "no such run directory"}, Case{file, "a file, not a run directory"},
        Case{empty, "it has no events.jsonl"}}) {
    const QString out = tmp_.filePath("never");
    CliResult r = runCli({"train", "--replay", c.dir, "--out", out});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains(c.dir.toUtf8()), describe(r));
    QVERIFY2(r.err.contains(c.says), describe(r));
    QVERIFY(!QFileInfo::exists(out));
  }
}

QTEST_GUILESS_MAIN(TstCliReplay)
#include "tst_cli_replay.moc"

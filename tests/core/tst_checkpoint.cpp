// Checkpoints (ARCHITECTURE §5): bitwise round trip, exact resume (epoch end and mid-epoch, for
// SGD with momentum, Adam and AdamW, dropout and shuffling on), the restored learning rate,
// automatic checkpoints, the save-now command, atomic writes and every kind of bad file.
// The expected values come from an uninterrupted run of the same config: a resumed run must
// reproduce its files and its final tensors exactly.
#include <ATen/CPUGeneratorImpl.h>
#include <torch/serialize.h>
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <atomic>
#include <fstream>
#include <limits>
#include <random>
#include <thread>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/train/state/checkpoint.h"
#include "core/io/checkpoint_file.h"
#include "core/model/model.h"
#include "core/optim/optimizer_factory.h"
#include "core/train/state/train_state_io.h"
#include "core/train/trainer.h"
#include "ivalue_compare.h"
#include "recording_observer.h"
#include "test_util.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_checkpoint_suite {

using namespace trainscope;
namespace fs = std::filesystem;
using c10::IValue;
using c10::impl::GenericDict;
using c10::impl::GenericList;

namespace {

/// moons, 300 samples: 240 training samples in batches of 32 = 8 steps per epoch.
constexpr int64_t kBatchesPerEpoch = 8;

TrainConfig smallConfig(const std::string& optimizer) {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.name = "ckpt";
  c.data.n_samples = 300;
  c.model.hidden = {16, 16};
  c.model.dropout = 0.2;  // dropout draws from the global generator: must be restored too
  c.training.epochs = 4;
  c.training.batch_size = 32;
  c.training.seed = 7;
  c.training.num_threads = 1;
  c.optimizer.name = optimizer;
  if (optimizer == "sgd") {
    c.optimizer.lr = 0.05;
    c.optimizer.momentum = 0.9;
  } else {
    c.optimizer.lr = 0.01;
    c.optimizer.weight_decay = optimizer == "adamw" ? 0.01 : 0.0;
  }
  return c;
}

std::vector<char> readBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeBytes(const fs::path& file, const std::vector<char>& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

GenericDict loadDict(const fs::path& file) {
  return torch::pickle_load(readBytes(file)).toGenericDict();
}


/// The keys whose values must survive any save/load exactly.
const std::vector<std::string> kStateKeys = {"model_state_dict",
                                             "optimizer_state_dict",
                                             "epoch",
                                             "global_step",
                                             "batch_in_epoch",
                                             "best_loss",
                                             "best_epoch",
                                             "train_loss_meter",
                                             "rng_state",
                                             "seed",
                                             "format_version"};

using Events = testrun::RecordingObserver;
using testrun::runTo;
using testrun::StopAt;

void expectCheckpointError(const std::function<void()>& fn, const fs::path& file,
                           const std::string& phrase) {
  try {
    fn();
    QFAIL(qPrintable("no error for " + testfiles::qpath(file)));
  } catch (const Error& e) {
    QVERIFY2(e.code() == ErrorCode::Checkpoint, e.what());
    const std::string msg = e.what();
    QVERIFY2(msg.find(file.string()) != std::string::npos, e.what());
    QVERIFY2(msg.find(phrase) != std::string::npos, e.what());
  }
}

}  // namespace

class TstCheckpoint : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void pythonLayout();
  void roundTripIsBitwise_data();
  void roundTripIsBitwise();
  void resumeIsExact_data();
  void resumeIsExact();
  void resumeWithoutSourceRunDir();
  void restoresLearningRateFromTheFile();
  void automaticCheckpoints();
  void saveNowCommand();
  void failedSaveKeepsPreviousFile();
  void badFiles();
  void failedRestoreLeavesStateUntouched();
  void saveTime();
  void longHistoriesLoadBack();

 private:
  QTemporaryDir tmp_;
  fs::path root() const { return tmp_.path().toStdString(); }
};

void TstCheckpoint::pythonLayout() {
  // The dict keys and types Python's torch.optim.Adam.state_dict() has in torch 1.13 (checked
  // with /usr/bin/python3): state[i] = {step: float32 scalar tensor, exp_avg, exp_avg_sq},
  // param_groups[0] = {lr, betas (tuple), eps, weight_decay, amsgrad, ..., params: [0..n-1]}.
  TrainConfig c = smallConfig("adam");
  c.training.epochs = 1;
  const fs::path dir = root() / "layout";
  COMPARE_REASON(runTo(c, dir).stop_reason, StopReason::Completed);
  const fs::path file = dir / "checkpoints" / "last.pt";
  GenericDict d = loadDict(file);
  QCOMPARE(QString::fromStdString(d.at("format").toStringRef()), QString(kCheckpointFormat));
  GenericDict model = d.at("model_state_dict").toGenericDict();
  QStringList names;
  for (const auto& e : model) names << QString::fromStdString(e.key().toStringRef());
  // Linear(2,16) Dropout is index... hidden [16,16] with dropout: 0 Linear, 1 ReLU, 2 Dropout,
  // 3 Linear, 4 ReLU, 5 Dropout, 6 Linear: nn.Sequential's names.
  QCOMPARE(names, QStringList({"0.weight", "0.bias", "3.weight", "3.bias", "6.weight", "6.bias"}));
  QCOMPARE(model.at("3.weight").toTensor().sizes().vec(), std::vector<int64_t>({16, 16}));
  GenericDict opt = d.at("optimizer_state_dict").toGenericDict();
  GenericDict state = opt.at("state").toGenericDict();
  QCOMPARE(state.size(), size_t{6});
  GenericDict s0 = state.at(int64_t{0}).toGenericDict();
  QVERIFY(s0.at("step").isTensor());
  QCOMPARE(s0.at("step").toTensor().scalar_type(), at::kFloat);
  QCOMPARE(s0.at("step").toTensor().dim(), int64_t{0});
  QCOMPARE(s0.at("step").toTensor().item<double>(), double(kBatchesPerEpoch));
  QVERIFY(s0.at("exp_avg").toTensor().sizes().equals({16, 2}));
  QVERIFY(s0.at("exp_avg_sq").toTensor().sizes().equals({16, 2}));
  GenericDict g = opt.at("param_groups").toListRef()[0].toGenericDict();
  QVERIFY(g.at("lr").isDouble());
  QCOMPARE(g.at("lr").toDouble(), 0.01);
  QVERIFY(g.at("betas").isTuple());
  QCOMPARE(g.at("betas").toTupleRef().elements()[1].toDouble(), 0.999);
  QCOMPARE(g.at("eps").toDouble(), 1e-8);
  QVERIFY(g.at("weight_decay").isDouble());
  QCOMPARE(g.at("amsgrad").toBool(), false);
  std::vector<int64_t> params;
  for (const auto& v : g.at("params").toListRef()) params.push_back(v.toInt());
  QCOMPARE(params, std::vector<int64_t>({0, 1, 2, 3, 4, 5}));
  QCOMPARE(d.at("epoch").toInt(), int64_t{1});
  QCOMPARE(d.at("global_step").toInt(), kBatchesPerEpoch);
  QCOMPARE(d.at("batch_in_epoch").toInt(), int64_t{0});
  // history as columns (format_version 2): one epoch
  QCOMPARE(d.at("history").toGenericDict().at("epoch").toTensor().sizes().vec(), std::vector<int64_t>{1});
  QCOMPARE(d.at("format_version").toInt(), int64_t{2});
  QVERIFY(d.at("rng_state").toGenericDict().at("torch_cpu").toTensor().scalar_type() == at::kByte);
  QCOMPARE(QString::fromStdString(d.at("source_run_dir").toStringRef()), testfiles::qpath(dir));

  // The torch-free description agrees.
  CheckpointInfo info = inspectCheckpoint(file);
  QCOMPARE(info.epoch, int64_t{1});
  QCOMPARE(info.global_step, kBatchesPerEpoch);
  QCOMPARE(info.optimizer, std::string("adam"));
  QVERIFY(info.best_loss.has_value());
  QCOMPARE(*info.best_loss, info.history.at(0).val_loss);
  QCOMPARE(info.history.at(0).step, kBatchesPerEpoch);
  QVERIFY(!info.saved_at.empty() && !info.torch_version.empty());
  QCOMPARE(checkpointConfig(info).optimizer.lr, 0.01);
  QCOMPARE(info.tensors.front().name, std::string("0.weight"));
  QCOMPARE(info.tensors.front().shape, std::vector<int64_t>({16, 2}));
  QCOMPARE(info.tensors.front().dtype, std::string("float32"));
}

void TstCheckpoint::roundTripIsBitwise_data() {
  QTest::addColumn<QString>("optimizer");
  QTest::addColumn<int64_t>("stopAt");
  QTest::newRow("sgd momentum, epoch end") << "sgd" << int64_t{0};
  QTest::newRow("adam, mid-epoch") << "adam" << kBatchesPerEpoch + 3;
  QTest::newRow("adamw, mid-epoch") << "adamw" << kBatchesPerEpoch + 5;
}

void TstCheckpoint::roundTripIsBitwise() {
  // Save (A), load into a fresh Trainer that is paused before its first step and save again
  // at once (B): every tensor, buffer, hyperparameter and counter of B equals A's.
  QFETCH(QString, optimizer);
  QFETCH(int64_t, stopAt);
  TrainConfig c = smallConfig(optimizer.toStdString());
  c.training.epochs = 2;
  const fs::path dir = root() / ("rt-" + optimizer.toStdString());
  runTo(c, dir, {}, stopAt);
  const fs::path a = dir / "checkpoints" / "last.pt";
  QCOMPARE(inspectCheckpoint(a).global_step, stopAt > 0 ? stopAt : 2 * kBatchesPerEpoch);

  CheckpointInfo info = inspectCheckpoint(a);
  TrainConfig rc = checkpointConfig(info);
  rc.training.epochs = 3;  // a completed run needs a larger total to resume
  TrainerOptions o;
  o.run_dir = dir.string() + "-loaded";
  o.resume_from = a;
  Trainer t(rc, o);
  Events ev;
  t.addObserver(&ev);
  const fs::path b = root() / ("rt-" + optimizer.toStdString() + "-again.pt");
  t.pause();
  t.saveCheckpoint(b);
  std::thread worker([&] { t.run(); });
  QTRY_VERIFY_WITH_TIMEOUT(!ev.eventsOf(EventKind::CheckpointSaved).empty(), 30000);
  t.stop();
  worker.join();
  QCOMPARE(ev.steps.size(), size_t{0});  // nothing trained in between
  GenericDict da = loadDict(a), db = loadDict(b);
  for (const std::string& key : kStateKeys) {
    std::string why;
    QVERIFY2(sameValue(da.at(key), db.at(key), key, why), why.c_str());
  }
  std::string why;
  QVERIFY2(sameValue(da.at("history"), db.at("history"), "history", why), why.c_str());
}

void TstCheckpoint::resumeIsExact_data() {
  QTest::addColumn<QString>("optimizer");
  QTest::addColumn<int64_t>("stopAt");  // 0: at the end of epoch 2
  for (const char* opt : {"sgd", "adam", "adamw"}) {
    QTest::newRow((std::string(opt) + ", epoch end").c_str()) << opt << int64_t{0};
    QTest::newRow((std::string(opt) + ", mid-epoch").c_str())
        << opt << int64_t{2 * kBatchesPerEpoch + 3};
  }
}

void TstCheckpoint::resumeIsExact() {
  // 4 epochs straight (A) vs 2 epochs or 2 epochs + 3 batches (B), then a new Trainer resumed
  // from B's last.pt to 4 epochs (C): C's files equal A's row for row, and its final tensors
  // (model and optimizer, in C's last.pt) equal A's bit for bit.
  QFETCH(QString, optimizer);
  QFETCH(int64_t, stopAt);
  const std::string tag =
      QString(QTest::currentDataTag()).replace(' ', '_').replace(',', "").toStdString();
  TrainConfig c = smallConfig(optimizer.toStdString());
  const fs::path a = root() / ("A-" + tag), b = root() / ("B-" + tag), cdir = root() / ("C-" + tag);
  COMPARE_REASON(runTo(c, a).stop_reason, StopReason::Completed);

  TrainConfig half = c;
  if (stopAt == 0) half.training.epochs = 2;
  RunSummary sb = runTo(half, b, {}, stopAt);
  QCOMPARE(sb.global_step, stopAt > 0 ? stopAt : 2 * kBatchesPerEpoch);
  const fs::path ckpt = b / "checkpoints" / "last.pt";
  CheckpointInfo info = inspectCheckpoint(ckpt);
  QCOMPARE(info.batch_in_epoch, stopAt > 0 ? int64_t{3} : int64_t{0});

  // Disturb the global generator: the resume must not depend on what this process did.
  torch::manual_seed(999);
  (void)torch::rand({100});
  TrainConfig rc = checkpointConfig(info);
  rc.training.epochs = 4;  // the run's total (B's config said 2 for the epoch-end case)
  RunSummary sc = runTo(rc, cdir, ckpt);
  COMPARE_REASON(sc.stop_reason, StopReason::Completed);
  QCOMPARE(sc.global_step, 4 * kBatchesPerEpoch);
  QCOMPARE(sc.epochs_completed, int64_t{4});

  COMPARE_RUN_CSV(a / "metrics.csv", cdir / "metrics.csv");
  COMPARE_RUN_CSV(a / "steps.csv", cdir / "steps.csv");
  GenericDict da = loadDict(a / "checkpoints" / "last.pt");
  GenericDict dc = loadDict(cdir / "checkpoints" / "last.pt");
  for (const std::string& key : kStateKeys) {
    std::string why;
    QVERIFY2(sameValue(da.at(key), dc.at(key), key, why), why.c_str());
  }
  for (const std::string key :
       {"overfitting_state_dict", "train_accuracy_meter", "loss_doctor_state_dict"}) {
    std::string why;  // the monitors' state (issues 10, 19) resumes exactly too
    QVERIFY2(sameValue(da.at(key), dc.at(key), key, why), why.c_str());
  }
  const QJsonObject run = testfiles::readJsonObject(testfiles::qpath(cdir / "run.json"));
  QCOMPARE(run["resumed_from"].toObject()["step"].toInteger(), sb.global_step);
  QVERIFY(run["resumed_from"].toObject()["file"].toString().endsWith("last.pt"));
  QVERIFY(testfiles::readText(cdir / "events.jsonl").find("\"kind\":\"checkpoint_loaded\"") !=
          std::string::npos);
}

void TstCheckpoint::resumeWithoutSourceRunDir() {
  // When the source run directory is gone, metrics.csv is rebuilt from the checkpoint's
  // history and steps.csv starts at the resumed step.
  TrainConfig c = smallConfig("adam");
  const fs::path a = root() / "nosrc-A", b = root() / "nosrc-B", cdir = root() / "nosrc-C";
  runTo(c, a);
  TrainConfig half = c;
  half.training.epochs = 2;
  runTo(half, b);
  const fs::path moved = root() / "nosrc.pt";
  fs::copy_file(b / "checkpoints" / "last.pt", moved);
  fs::remove_all(b);
  TrainConfig rc = checkpointConfig(inspectCheckpoint(moved));
  rc.training.epochs = 4;
  runTo(rc, cdir, moved);
  COMPARE_RUN_CSV(a / "metrics.csv", cdir / "metrics.csv");
  const auto sa = testfiles::readCsvValues(a / "steps.csv"),
             sc = testfiles::readCsvValues(cdir / "steps.csv");
  QVERIFY(sa && sc);
  QCOMPARE(sc->rows.size(), sa->rows.size() - 2 * kBatchesPerEpoch);
  QCOMPARE(sc->rows.front(), sa->rows[2 * kBatchesPerEpoch]);  // step 17 first
  QCOMPARE(sc->rows.back(), sa->rows.back());
}

void TstCheckpoint::restoresLearningRateFromTheFile() {
  // libtorch's torch::load(optimizer) keeps the new optimizer's lr; ours must take the file's.
  // Edit the checkpoint's param group lr to 0.123 (as a live lr change before saving would
  // leave it): the resumed run's first step uses 0.123, not the config's 0.01.
  TrainConfig c = smallConfig("adamw");
  c.training.epochs = 1;
  const fs::path dir = root() / "lr";
  runTo(c, dir);
  const fs::path file = dir / "checkpoints" / "last.pt";
  GenericDict d = loadDict(file);
  GenericDict opt = d.at("optimizer_state_dict").toGenericDict();
  opt.at("param_groups").toListRef()[0].toGenericDict().insert_or_assign("lr", 0.123);
  opt.at("param_groups").toListRef()[0].toGenericDict().insert_or_assign("eps", 1e-6);
  const fs::path edited = root() / "lr-edited.pt";
  writeBytes(edited, torch::pickle_save(IValue(d)));
  TrainConfig rc = checkpointConfig(inspectCheckpoint(edited));
  rc.training.epochs = 2;
  TrainerOptions o;
  o.resume_from = edited;
  o.run_dir = root() / "lr-resumed";
  Trainer t(rc, o);
  Events ev;
  t.addObserver(&ev);
  t.run();
  QVERIFY(!ev.steps.empty());
  QCOMPARE(ev.steps.front().step, kBatchesPerEpoch + 1);
  QCOMPARE(ev.steps.front().lr, 0.123);
  GenericDict after = loadDict(o.run_dir / "checkpoints" / "last.pt");
  GenericDict g = after.at("optimizer_state_dict")
                      .toGenericDict()
                      .at("param_groups")
                      .toListRef()[0]
                      .toGenericDict();
  QCOMPARE(g.at("lr").toDouble(), 0.123);
  QCOMPARE(g.at("eps").toDouble(), 1e-6);
  QCOMPARE(g.at("weight_decay").toDouble(), 0.01);
}

void TstCheckpoint::automaticCheckpoints() {
  TrainConfig c = smallConfig("adam");
  c.training.epochs = 5;
  c.checkpoint.every_epochs = 2;
  c.checkpoint.keep_last = 1;
  c.checkpoint.interval_seconds = 0;  // last.pt at every epoch end
  const fs::path dir = root() / "auto";
  TrainerOptions o;
  o.run_dir = dir;
  Trainer t(c, o);
  Events ev;
  t.addObserver(&ev);
  RunSummary s = t.run();
  QStringList files;
  for (const auto& e : fs::directory_iterator(dir / "checkpoints"))
    files << QString::fromStdString(e.path().filename().string());
  files.sort();
  // epoch-0002.pt was pruned by keep_last 1 when epoch-0004.pt was written; no temp files.
  QCOMPARE(files, QStringList({"best.pt", "epoch-0004.pt", "last.pt"}));
  QCOMPARE(inspectCheckpoint(dir / "checkpoints" / "best.pt").epoch, s.best_epoch);
  QCOMPARE(*inspectCheckpoint(dir / "checkpoints" / "best.pt").best_loss, *s.best_val_loss);
  QCOMPARE(inspectCheckpoint(dir / "checkpoints" / "epoch-0004.pt").epoch, int64_t{4});
  QCOMPARE(inspectCheckpoint(dir / "checkpoints" / "last.pt").epoch, int64_t{5});
  // last.pt every epoch (5) + epoch-NNNN (2) + best.pt once per improvement (>= 1), each a
  // checkpoint_saved line in events.jsonl; automatic saves are not sent to observers (a line
  // per epoch would interleave with the events front ends fold).
  const QStringList lines = testfiles::readLines(testfiles::qpath(dir / "events.jsonl"));
  QStringList saved;
  for (const QString& line : lines) {
    const QJsonObject e = QJsonDocument::fromJson(line.toUtf8()).object();
    if (e["kind"].toString() == "checkpoint_saved") {
      QCOMPARE(e["what"].toString(), QString("automatic"));
      saved << e["file"].toString();
    }
  }
  QVERIFY2(saved.size() >= 8, qPrintable(saved.join(' ')));
  QCOMPARE(saved.front(), testfiles::qpath(dir / "checkpoints" / "last.pt"));
  QVERIFY(ev.eventsOf(EventKind::CheckpointSaved).empty());

  // By the interval: an hour between automatic saves, so within this short run only
  // epoch-NNNN.pt (written regardless) and, at the end, last.pt and one best.pt holding the best
  // epoch's state however many epochs improved (the improvement was kept in memory).
  {
    TrainConfig timed = c;
    timed.checkpoint.interval_seconds = 3600;
    const fs::path tdir = root() / "auto-interval";
    const RunSummary ts = runTo(timed, tdir);
    QStringList written;
    QString best_message;
    for (const QString& line : testfiles::readLines(testfiles::qpath(tdir / "events.jsonl"))) {
      const QJsonObject e = QJsonDocument::fromJson(line.toUtf8()).object();
      if (e["kind"].toString() != "checkpoint_saved") continue;
      written << QString::fromStdString(fs::path(e["file"].toString().toStdString()).filename().string());
      if (written.back() == "best.pt") best_message = e["message"].toString();
    }
    // Its event says which epoch it holds when that is not the epoch it was written at.
    if (ts.best_epoch != 5)
      QVERIFY2(best_message.contains(QString("holds epoch %1, the best").arg(ts.best_epoch)),
               qPrintable(best_message));
    QCOMPARE(written, QStringList({"epoch-0002.pt", "epoch-0004.pt", "last.pt", "best.pt"}));
    QCOMPARE(inspectCheckpoint(tdir / "checkpoints" / "last.pt").epoch, int64_t{5});
    QCOMPARE(inspectCheckpoint(tdir / "checkpoints" / "best.pt").epoch, ts.best_epoch);
    QCOMPARE(*inspectCheckpoint(tdir / "checkpoints" / "best.pt").best_loss, *ts.best_val_loss);
    // The same state as the run that saved best.pt when it happened.
    QCOMPARE(ts.best_epoch, s.best_epoch);
    QCOMPARE(*ts.best_val_loss, *s.best_val_loss);

    // A pause writes what is pending: last.pt of the paused step and best.pt, while paused.
    const fs::path pdir = root() / "auto-pause";
    TrainerOptions o;
    o.run_dir = pdir;
    Trainer t(timed, o);
    Events pev;
    t.addObserver(&pev);
    t.pauseAfterEpoch(3);
    std::thread worker([&] { t.run(); });
    QTRY_VERIFY_WITH_TIMEOUT(!pev.eventsOf(EventKind::Paused).empty(), 30000);
    // last.pt, then best.pt (atomic renames: each file is whole once it exists)
    QTRY_VERIFY_WITH_TIMEOUT(fs::exists(pdir / "checkpoints" / "best.pt"), 10000);
    QCOMPARE(inspectCheckpoint(pdir / "checkpoints" / "last.pt").epoch, int64_t{3});
    QVERIFY(inspectCheckpoint(pdir / "checkpoints" / "best.pt").epoch <= 3);
    t.stop();
    worker.join();
  }

  // Off: nothing written.
  c.checkpoint.save_last = false;
  c.checkpoint.save_best = false;
  c.checkpoint.every_epochs = 0;
  c.training.epochs = 1;
  runTo(c, root() / "auto-off");
  QVERIFY(!fs::exists(root() / "auto-off" / "checkpoints" / "last.pt"));
}

void TstCheckpoint::saveNowCommand() {
  TrainConfig c = smallConfig("sgd");
  c.training.epochs = 100000;
  Trainer t(c);  // no run directory: only explicit saves
  Events ev;
  t.addObserver(&ev);
  std::thread worker([&] { t.run(); });
  QTRY_VERIFY_WITH_TIMEOUT(ev.step_count > 20, 30000);
  const fs::path file = root() / "now" / "saved.pt";
  t.saveCheckpoint(file);
  QTRY_VERIFY_WITH_TIMEOUT(!ev.eventsOf(EventKind::CheckpointSaved).empty(), 10000);
  const Event e = ev.eventsOf(EventKind::CheckpointSaved).front();
  QCOMPARE(QString::fromStdString(e.file), testfiles::qpath(file));
  CheckpointInfo info = inspectCheckpoint(file);
  QCOMPARE(info.global_step, e.step);  // taken at a step boundary
  QCOMPARE(info.batch_in_epoch, e.step % kBatchesPerEpoch);
  // A save that cannot be written is reported, and training goes on.
  t.saveCheckpoint("/proc/trainscope-no-such-dir/x.pt");
  QTRY_VERIFY_WITH_TIMEOUT(!ev.eventsOf(EventKind::CheckpointFailed).empty(), 10000);
  const int64_t at = ev.step_count;
  QTRY_VERIFY_WITH_TIMEOUT(ev.step_count > at + 5, 10000);
  t.stop();
  worker.join();
}

void TstCheckpoint::failedSaveKeepsPreviousFile() {
  TrainConfig c = smallConfig("adam");
  c.training.epochs = 1;
  const fs::path dir = root() / "atomic";
  runTo(c, dir);
  const fs::path last = dir / "checkpoints" / "last.pt";
  const std::vector<char> before = readBytes(last);
  GenericDict d = loadDict(last);
  d.insert_or_assign("global_step", int64_t{12345});
  setAtomicWriteFailureForTesting(static_cast<long long>(before.size() / 2));
  try {
    writeCheckpointDict(last, d);
    setAtomicWriteFailureForTesting(-1);
    QFAIL("the simulated failure did not fail");
  } catch (const Error& e) {
    setAtomicWriteFailureForTesting(-1);
    QCOMPARE(e.code(), ErrorCode::Io);
  }
  QVERIFY(readBytes(last) == before);  // the previous last.pt, whole
  QCOMPARE(inspectCheckpoint(last).global_step, kBatchesPerEpoch);
  auto temps = [&] {
    int n = 0;
    for (const auto& e : fs::directory_iterator(last.parent_path()))
      n += e.path().filename().string().rfind(".last.pt.tmp-", 0) == 0;
    return n;
  };
  QCOMPARE(temps(), 1);          // what a crash would leave
  writeCheckpointDict(last, d);  // the next save removes it
  QCOMPARE(temps(), 0);
  QCOMPARE(inspectCheckpoint(last).global_step, int64_t{12345});
}

void TstCheckpoint::badFiles() {
  TrainConfig c = smallConfig("adam");
  c.training.epochs = 1;
  const fs::path dir = root() / "bad";
  runTo(c, dir);
  const fs::path good = dir / "checkpoints" / "last.pt";
  const std::vector<char> bytes = readBytes(good);

  auto check = [&](const fs::path& file, const std::string& phrase, const TrainConfig& config) {
    expectCheckpointError([&] { inspectCheckpoint(file); }, file, phrase);
    // A Trainer resuming from it fails before writing anything.
    TrainerOptions o;
    o.run_dir = root() / "bad-run";
    o.resume_from = file;
    TrainConfig rc = config;
    rc.training.epochs = 3;
    Trainer t(rc, o);
    expectCheckpointError([&] { t.run(); }, file, phrase);
    QVERIFY(!fs::exists(o.run_dir));
  };

  const fs::path empty = root() / "empty.pt";
  writeBytes(empty, {});
  check(empty, "the file is empty", c);

  const fs::path truncated = root() / "truncated.pt";
  writeBytes(truncated, std::vector<char>(bytes.begin(), bytes.begin() + bytes.size() / 2));
  check(truncated, "truncated or corrupt", c);

  std::vector<char> noise(4096);
  std::mt19937 gen(1);
  for (char& ch : noise) ch = static_cast<char>(gen());
  noise[0] = 'X';
  const fs::path random = root() / "random.pt";
  writeBytes(random, noise);
  check(random, "not a PyTorch zip file", c);

  GenericDict other = makeStringDict();
  other.insert("weights", torch::ones({2, 2}));
  const fs::path foreign = root() / "foreign.pt";
  writeBytes(foreign, torch::pickle_save(IValue(other)));
  check(foreign, "not a TrainScope checkpoint", c);

  const fs::path tensor_file = root() / "tensor.pt";
  writeBytes(tensor_file, torch::pickle_save(IValue(torch::ones({3}))));
  check(tensor_file, "not a TrainScope checkpoint", c);

  GenericDict newer = loadDict(good);
  newer.insert_or_assign("format_version", kCheckpointFormatVersion + 1);
  const fs::path newer_file = root() / "newer.pt";
  writeBytes(newer_file, torch::pickle_save(IValue(newer)));
  check(newer_file, "is newer than this TrainScope reads", c);

  // Counters out of range (a huge epoch was refused without naming the file, and
  // global_step INT64_MAX continued at negative step numbers): refused naming the key.
  struct Counter {
    const char* key;
    int64_t value;
    const char* phrase;
  };
  for (const Counter& k :
       {Counter{"epoch", int64_t{1000000000000000},
                "'epoch' 1000000000000000 is outside 0..1000000"},
        Counter{"global_step", std::numeric_limits<int64_t>::max(),
                "'global_step' 9223372036854775807 is outside 0..9007199254740992"},
        Counter{"global_step", -5, "'global_step' -5 is outside"},
        Counter{"best_epoch", 2000000, "'best_epoch' 2000000 is outside 0..1000000"}}) {
    GenericDict d = loadDict(good);
    d.insert_or_assign(k.key, k.value);
    const fs::path f = root() / (std::string("counter-") + k.key + ".pt");
    writeBytes(f, torch::pickle_save(IValue(d)));
    check(f, k.phrase, c);
  }

  // Adam's per-parameter `step` stored as a vector (exit 1 "a Tensor with 5 elements cannot be
  // converted to Scalar" before): a checkpoint error naming the key.
  {
    GenericDict d = loadDict(good);
    GenericDict opt = d.at("optimizer_state_dict").toGenericDict();
    GenericDict state = opt.at("state").toGenericDict();
    GenericDict first = state.begin()->value().toGenericDict();
    first.insert_or_assign("step", torch::ones({5}));
    const fs::path f = root() / "step-vector.pt";
    writeBytes(f, torch::pickle_save(IValue(d)));
    TrainerOptions so;
    so.run_dir = root() / "bad-step-run";
    so.resume_from = f;
    TrainConfig rc = c;
    rc.training.epochs = 3;
    Trainer ts(rc, so);
    expectCheckpointError([&] { ts.run(); }, f, "step' is a tensor of [5], expected one number");
    QVERIFY(!fs::exists(so.run_dir));
  }

  // A different architecture: inspect reads it fine; a resume names each mismatch with both
  // shapes: hidden [16,16] in the file vs [8,16] in the model.
  TrainConfig wide = c;
  wide.model.hidden = {8, 16};
  TrainerOptions o;
  o.run_dir = root() / "bad-arch";
  o.resume_from = good;
  wide.training.epochs = 3;
  Trainer t(wide, o);
  try {
    t.run();
    QFAIL("no error for a different architecture");
  } catch (const Error& e) {
    QCOMPARE(e.code(), ErrorCode::Checkpoint);
    const std::string msg = e.what();
    QVERIFY2(msg.find(good.string()) != std::string::npos, e.what());
    QVERIFY2(msg.find("0.weight: file [16, 2], model [8, 2]") != std::string::npos, e.what());
    QVERIFY2(msg.find("3.weight: file [16, 16], model [16, 8]") != std::string::npos, e.what());
    QVERIFY2(msg.find("0.bias: file [16], model [8]") != std::string::npos, e.what());
  }
  QVERIFY(!fs::exists(o.run_dir));

  // Another optimizer than the file's.
  TrainConfig sgd = c;
  sgd.optimizer.name = "sgd";
  TrainerOptions o2;
  o2.resume_from = good;
  sgd.training.epochs = 3;
  Trainer t2(sgd, o2);
  expectCheckpointError([&] { t2.run(); }, good, "optimizer is 'adam'");
}

void TstCheckpoint::failedRestoreLeavesStateUntouched() {
  // A file that passes every check but the last (a bad RNG state) must not have changed the
  // model or the optimizer when restoreState throws.
  TrainConfig c = smallConfig("adam");
  c.training.epochs = 1;
  const fs::path dir = root() / "untouched";
  runTo(c, dir);
  GenericDict d = loadDict(dir / "checkpoints" / "last.pt");
  d.at("rng_state").toGenericDict().insert_or_assign("torch_cpu", torch::zeros({3}, at::kByte));

  TrainState s;
  torch::manual_seed(5);
  s.model = buildModel(c.model, 2, 2);
  s.params = s.model->parameters();
  s.optimizer = makeOptimizer(c.optimizer, s.params);
  s.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(1);
  s.epoch_start_shuffle_state = s.shuffle_gen.get_state();
  CheckpointContext ctx{configToJson(c).dump(), "adam", ""};
  GenericDict before = captureState(s, ctx);
  try {
    restoreState(s, d, "adam", dir / "checkpoints" / "last.pt");
    QFAIL("no error for a bad RNG state");
  } catch (const Error& e) {
    QCOMPARE(e.code(), ErrorCode::Checkpoint);
    QVERIFY2(std::string(e.what()).find("invalid RNG state") != std::string::npos, e.what());
  }
  GenericDict after = captureState(s, ctx);
  for (const std::string& key : kStateKeys) {
    if (key == "rng_state") continue;  // the global generator is shared with this process
    std::string why;
    QVERIFY2(sameValue(before.at(key), after.at(key), key, why), why.c_str());
  }
  // ... and a good restore does change it (the comparison above can fail).
  GenericDict good = loadDict(dir / "checkpoints" / "last.pt");
  restoreState(s, good, "adam", dir / "checkpoints" / "last.pt");
  std::string why;
  QVERIFY(!sameValue(before.at("model_state_dict"), captureState(s, ctx).at("model_state_dict"),
                     "model", why));
}

// Issue 44 item 1: a 60,000-epoch run's last.pt was refused by the pickle reader ("builds more
// objects than its bytes can hold"). The history as columns: 1,000,000 epochs (the most
// training.epochs allows) write and read back exactly, NaN and absent values told apart, in a
// file that grows by about 100 bytes an epoch; a history in the list-of-dicts form of older
// builds (200,000 epochs, 17 MB as the user's 201,933-epoch file) reads back too.
void TstCheckpoint::longHistoriesLoadBack() {
  TrainConfig c = smallConfig("adam");
  c.training.epochs = 1;
  const fs::path dir = root() / "long";
  COMPARE_REASON(runTo(c, dir).stop_reason, StopReason::Completed);
  GenericDict d = loadDict(dir / "checkpoints" / "last.pt");
  const size_t n = 1'000'000;
  std::vector<EpochRecord> history(n);
  for (size_t i = 0; i < n; ++i) {
    EpochRecord& r = history[i];
    r.epoch = static_cast<int64_t>(i) + 1;
    r.step = 3 * r.epoch;
    r.train_loss = 1.0 / static_cast<double>(r.epoch);
    r.val_loss = i % 1000 == 7 ? std::numeric_limits<double>::quiet_NaN() : std::sqrt(double(i));
    if (i % 3 != 0) r.val_accuracy = static_cast<double>(i % 101) / 100;
    if (i % 5 == 0) r.val_r2 = std::numeric_limits<double>::quiet_NaN();  // present, NaN
    r.lr = 1e-3 * static_cast<double>(i % 17);
    r.epoch_seconds = 0.002;
    r.samples_per_second = 1e5 + static_cast<double>(i);
  }
  d.insert_or_assign("history", historyColumns(history, n));
  const fs::path file = root() / "long-history.pt";
  writeCheckpointDict(file, d);
  QVERIFY2(fs::file_size(file) < 120 * n, qPrintable(QString::number(fs::file_size(file))));
  const std::vector<EpochRecord> back = inspectCheckpoint(file).history;
  QCOMPARE(back.size(), n);
  auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
  for (size_t i = 0; i < n; ++i) {
    const EpochRecord &a = history[i], &b = back[i];
    if (a.epoch != b.epoch || a.step != b.step || !same(a.train_loss, b.train_loss) ||
        !same(a.val_loss, b.val_loss) || a.val_accuracy.has_value() != b.val_accuracy.has_value() ||
        (a.val_accuracy && *a.val_accuracy != *b.val_accuracy) ||
        a.val_r2.has_value() != b.val_r2.has_value() || a.train_accuracy.has_value() ||
        b.train_accuracy.has_value() || a.lr != b.lr || a.samples_per_second != b.samples_per_second)
      QFAIL(qPrintable(QStringLiteral("epoch %1 differs").arg(i + 1)));
  }
  QVERIFY(back[5].val_r2 && std::isnan(*back[5].val_r2));  // a NaN value, not a missing one

  // The form older builds wrote: a list of one dict per epoch (format_version 1).
  const size_t old_n = 200'000;
  GenericList list(c10::AnyType::get());
  for (size_t i = 0; i < old_n; ++i) {
    GenericDict h(c10::StringType::get(), c10::AnyType::get());
    const EpochRecord& r = history[i];
    h.insert("epoch", r.epoch);
    h.insert("step", r.step);
    h.insert("train_loss", r.train_loss);
    h.insert("val_loss", r.val_loss);
    h.insert("val_accuracy", r.val_accuracy ? c10::IValue(*r.val_accuracy) : c10::IValue());
    h.insert("lr", r.lr);
    h.insert("epoch_seconds", r.epoch_seconds);
    h.insert("samples_per_second", r.samples_per_second);
    h.insert("train_accuracy", c10::IValue());
    list.push_back(h);
  }
  d.insert_or_assign("history", list);
  d.insert_or_assign("format_version", int64_t{1});
  const fs::path old_file = root() / "old-long-history.pt";
  writeCheckpointDict(old_file, d);
  QVERIFY(fs::file_size(old_file) > 15'000'000);
  const std::vector<EpochRecord> old_back = inspectCheckpoint(old_file).history;
  QCOMPARE(old_back.size(), old_n);
  QCOMPARE(old_back.back().epoch, int64_t(old_n));
  QCOMPARE(old_back[4].val_accuracy.has_value(), history[4].val_accuracy.has_value());
  fs::remove(file);
  fs::remove(old_file);
}

void TstCheckpoint::saveTime() {
  // The fashion-mnist-mlp state (784-256-128-10 MLP + Adam buffers, ~0.9 MB of float32 x 3):
  // median of 20 saves and loads, printed for the report. Loose bound: the file write itself.
  TrainConfig c = resolveConfig("fashion-mnist-mlp", {}, {});
  TrainState s;
  torch::manual_seed(1);
  s.model = buildModel(c.model, 784, 10);
  s.params = s.model->parameters();
  s.optimizer = makeOptimizer(c.optimizer, s.params);
  for (auto& p : s.params) p.mutable_grad() = torch::ones_like(p);
  s.optimizer->step();  // creates the Adam buffers
  s.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(1);
  s.epoch_start_shuffle_state = s.shuffle_gen.get_state();
  CheckpointContext ctx{configToJson(c).dump(), c.optimizer.name, ""};
  const fs::path file = root() / "fmnist" / "last.pt";
  std::vector<double> save_ms, load_ms;
  for (int i = 0; i < 20; ++i) {
    QElapsedTimer timer;
    timer.start();
    saveCheckpoint(s, ctx, file);
    save_ms.push_back(timer.nsecsElapsed() / 1e6);
    timer.restart();
    loadCheckpoint(s, c.optimizer.name, file);
    load_ms.push_back(timer.nsecsElapsed() / 1e6);
  }
  std::sort(save_ms.begin(), save_ms.end());
  std::sort(load_ms.begin(), load_ms.end());
  qInfo("fashion-mnist-mlp checkpoint: %lld bytes, save median %.1f ms, load median %.1f ms",
        static_cast<long long>(fs::file_size(file)), save_ms[10], load_ms[10]);
  QVERIFY2(save_ms[10] < 1000, "a save should take well under a second");
}

TRAINSCOPE_TEST_MAIN(TstCheckpoint)
}  // namespace tst_checkpoint_suite
#include "tst_checkpoint.moc"

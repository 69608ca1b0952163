// Reading a run back after a roll-back: the run files stay append-only, the
// superseded rows are recognisable (a rolled_back event with their range) and the run reader
// returns each step once, the retrained one; a resume from such a run starts with those rows;
// events come in the order they happened. readRun gives the whole run directory
// as one value: the same records the engine reported live. Expected values come from the
// observer's records (what the engine reported live), not from the files the reader reads.
#include <QtTest/QtTest>
#include <atomic>
#include <cmath>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/train/state/checkpoint.h"
#include "core/run/records_json.h"
#include "core/run/run_description.h"
#include "core/run/run_follower.h"
#include "core/run/run_reader.h"
#include "core/train/trainer.h"
#include "recording_observer.h"
#include "test_util.h"

using namespace trainscope;

namespace {

using Recorder = testrun::RecordingObserver;

/// explodingLinear (test_util.h) pausing at its non-finite step, with snapshots every 4 steps.
TrainConfig explodingLinearPausing() {
  TrainConfig c = explodingLinear();
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
  void runInfoRoundTrip();
  void readRunErrors();
  void lineTailKeepsPartialLines();
  void followerReadsAppendedRecords();
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
  TrainConfig c = explodingLinearPausing();
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
    if (!QTest::qWaitFor([&] { return rec.paused_events > handled; }, 20000)) break;
    handled = rec.paused_events;
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

  // The whole run as one value: the records of the attempts that count, as reported live.
  const RunRecord run = readRun(o.run_dir);
  QCOMPARE(run.dir, std::filesystem::absolute(o.run_dir));
  QCOMPARE(static_cast<int64_t>(run.steps.size()), total);
  for (int64_t i = 0; i < total; ++i) QCOMPARE(run.steps[i].step, steps[i].step);
  std::vector<EpochRecord> live_epochs;
  std::vector<LayerStatsRecord> live_layers;
  RunInfo live_info;
  {
    std::lock_guard<std::mutex> l(rec.mutex);
    live_epochs = rec.epochs;
    live_layers = rec.layers;
    live_info = rec.info;
  }
  // Epochs: one per step here; the retrained ones replace those after the snapshot.
  std::vector<EpochRecord> want_epochs;
  for (const EpochRecord& e : live_epochs) {
    while (!want_epochs.empty() && want_epochs.back().step >= e.step) want_epochs.pop_back();
    want_epochs.push_back(e);
  }
  QCOMPARE(run.epochs.size(), want_epochs.size());
  QCOMPARE(static_cast<int64_t>(run.epochs.size()), total);
  for (size_t i = 0; i < want_epochs.size(); ++i) {
    QCOMPARE(run.epochs[i].epoch, want_epochs[i].epoch);
    QCOMPARE(run.epochs[i].step, want_epochs[i].step);
    QVERIFY(near(run.epochs[i].train_loss, want_epochs[i].train_loss) ||
            (std::isnan(run.epochs[i].train_loss) && std::isnan(want_epochs[i].train_loss)));
    QVERIFY(near(run.epochs[i].val_loss, want_epochs[i].val_loss) ||
            !std::isfinite(want_epochs[i].val_loss));
    QCOMPARE(run.epochs[i].val_accuracy.has_value(), false);  // regression
  }
  // Layers: the rows that count, epochs filled in from the steps.
  std::vector<LayerStatsRecord> want_layers;
  for (const LayerStatsRecord& r : live_layers) {
    while (!want_layers.empty() && want_layers.back().step >= r.step) want_layers.pop_back();
    want_layers.push_back(r);
  }
  QVERIFY(!want_layers.empty());
  QCOMPARE(run.layers.size(), want_layers.size());
  for (size_t i = 0; i < want_layers.size(); ++i) {
    QCOMPARE(run.layers[i].step, want_layers[i].step);
    QCOMPARE(run.layers[i].epoch, want_layers[i].epoch);
    QCOMPARE(run.layers[i].names, want_layers[i].names);
    for (size_t k = 0; k < want_layers[i].grad_norm.size(); ++k)
      QVERIFY(near(run.layers[i].grad_norm[k], want_layers[i].grad_norm[k]) ||
              !std::isfinite(want_layers[i].grad_norm[k]));
  }
  // Events: every line of events.jsonl (read here with Qt's JSON), as they happened (a
  // roll-back does not undo what was said); the ones the observer got among them, in order
  // (automatic checkpoint_saved and diagnosis lines are written for the file only).
  QCOMPARE(run.events.size(), size_t(lines.size()));
  for (int i = 0; i < lines.size(); ++i) {
    const QJsonObject e = QJsonDocument::fromJson(lines[i].toUtf8()).object();
    QCOMPARE(QString::fromStdString(toString(run.events[i].kind)), e.value("kind").toString());
    QCOMPARE(run.events[i].step, e.value("step").toInteger());
    QCOMPARE(QString::fromStdString(run.events[i].message), e.value("message").toString());
    QCOMPARE(QString::fromStdString(run.events[i].what), e.value("what").toString());
    QCOMPARE(run.events[i].value.has_value(), e.contains("value"));
  }
  size_t seen = 0;
  for (const Event& e : run.events)
    if (seen < events.size() && e.kind == events[seen].kind && e.step == events[seen].step &&
        e.message == events[seen].message)
      ++seen;
  QCOMPARE(seen, events.size());
  // Summary: what run() returned.
  QVERIFY(run.summary);
  COMPARE_REASON(run.summary->stop_reason, s.stop_reason);
  QCOMPARE(run.summary->global_step, s.global_step);
  QCOMPARE(run.summary->epochs_completed, s.epochs_completed);
  QCOMPARE(run.summary->best_epoch, s.best_epoch);
  QCOMPARE(run.summary->skipped_steps, s.skipped_steps);
  QCOMPARE(run.summary->seed, s.seed);
  QVERIFY(run.summary->final_metrics && s.final_metrics);
  QCOMPARE(run.summary->final_metrics->epoch, s.final_metrics->epoch);
  QVERIFY(near(run.summary->final_metrics->val_loss, s.final_metrics->val_loss));
  QVERIFY(run.summary->diagnosis && s.diagnosis);
  QCOMPARE(run.summary->diagnosis->kind, s.diagnosis->kind);
  QCOMPARE(run.summary->diagnosis->checks.size(), s.diagnosis->checks.size());
  // Run info: what onRunStarted sent.
  QCOMPARE(run.info.run_dir, std::filesystem::absolute(o.run_dir).string());
  QCOMPARE(run.info.seed, live_info.seed);
  QCOMPARE(run.info.device, live_info.device);
  QCOMPARE(run.info.num_threads, live_info.num_threads);
  QCOMPARE(describeThreads(run.info.thread_choice), describeThreads(live_info.thread_choice));
  QCOMPARE(run.info.torch_version, live_info.torch_version);
  QCOMPARE(run.info.start_time, live_info.start_time);
  QCOMPARE(run.info.host, live_info.host);
  QCOMPARE(run.info.front_end, live_info.front_end);
  QCOMPARE(run.info.epochs, total);
  QCOMPARE(run.info.batch_size, int64_t{64});
  QCOMPARE(run.info.effective_batch_size, live_info.effective_batch_size);
  QCOMPARE(run.info.data.n_train, int64_t{40});
  QCOMPARE(run.info.data.n_train, live_info.data.n_train);
  QCOMPARE(run.info.model.description, live_info.model.description);
  QCOMPARE(run.info.model.parameter_count, int64_t{2});  // Linear(1->1)
  QCOMPARE(run.config, nlohmann::json::parse(live_info.config_json));

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
  // run.json of the resumed run names the checkpoint (absolute) and its step.
  const RunRecord resumed_run = readRun(ro.run_dir);
  QCOMPARE(resumed_run.info.resumed_from, std::filesystem::absolute(ro.resume_from).string());
  QCOMPARE(resumed_run.info.start_step, total);
  QCOMPARE(static_cast<int64_t>(resumed_run.steps.size()), total + 3);
  QCOMPARE(static_cast<int64_t>(resumed_run.epochs.size()), total + 3);
}

void TstRunReader::runInfoRoundTrip() {
  RunInfo i;
  i.seed = 17;
  i.device = "cpu";
  i.num_threads = 2;
  i.thread_choice = {2, true, 2, true, {{1, 1000.5}, {2, 1900}}};
  describeMachine(i);
  QVERIFY(!i.torch_version.empty() && !i.start_time.empty());
  i.front_end = "test";
  i.command_line = "tst --x";
  i.world_size = 2;
  i.backend = "gloo";
  i.hosts = {"a", "b"};
  i.data.source = "moons";
  i.data.task = "classification";
  i.data.n_train = 700;
  i.data.n_val = 150;
  i.data.n_test = 150;
  i.data.n_features = 2;
  i.data.input_shape = {2};
  i.data.x_dtype = "float32";
  i.data.n_classes = 2;
  i.data.outputs = 2;
  i.data.class_names = {"0", "1"};
  i.data.preprocessing.standardize = "per_feature";
  i.data.preprocessing.mean = {0.5, -0.25};
  i.data.preprocessing.std = {0.875, 0.5};
  i.model = {"Linear(2->8) Tanh Linear(8->2)", 42};
  i.resumed_from = "/tmp/x/last.pt";
  i.start_step = 120;
  i.init_weights = "/tmp/w.pt";
  i.init_weights_form = "state_dict";
  i.init_weights_tensors = 4;
  const nlohmann::json config = {
      {"training", {{"epochs", 30}, {"batch_size", 32}, {"grad_accum_steps", 2}, {"amp", true}}}};
  // Through the file's text, as readRun reads it.
  const RunInfo r = runInfoFromJson(nlohmann::json::parse(toJson(i).dump()), config);
  QCOMPARE(r.seed, i.seed);
  QCOMPARE(r.device, i.device);
  QCOMPARE(r.num_threads, i.num_threads);
  QCOMPARE(r.thread_choice.automatic, true);
  QCOMPARE(r.thread_choice.limited_by_omp, true);
  QCOMPARE(r.thread_choice.rates.size(), size_t{2});
  QCOMPARE(r.thread_choice.rates[0].samples_per_second, 1000.5);
  QCOMPARE(describeThreads(r.thread_choice), describeThreads(i.thread_choice));
  QCOMPARE(r.trainscope_version, i.trainscope_version);
  QCOMPARE(r.cpu, i.cpu);
  QCOMPARE(r.blas_library, i.blas_library);
  QCOMPARE(r.cuda_available, i.cuda_available);
  QCOMPARE(r.command_line, i.command_line);
  QCOMPARE(r.hosts, i.hosts);
  QCOMPARE(r.backend, i.backend);
  QCOMPARE(r.data.n_val, int64_t{150});
  QCOMPARE(r.data.task, std::string("classification"));
  // The data's shape, task and preprocessing come back as written.
  QCOMPARE(r.data.input_shape, i.data.input_shape);
  QVERIFY(r.data.image_shape.empty());
  QCOMPARE(r.data.x_dtype, i.data.x_dtype);
  QCOMPARE(r.data.outputs, int64_t{2});
  QCOMPARE(r.data.class_names, i.data.class_names);
  QCOMPARE(r.data.preprocessing.standardize, std::string("per_feature"));
  QCOMPARE(r.data.preprocessing.mean, i.data.preprocessing.mean);
  QCOMPARE(r.data.preprocessing.std, i.data.preprocessing.std);
  QCOMPARE(r.data.preprocessing.pixel_scale, 1.0);
  QCOMPARE(r.model.parameter_count, int64_t{42});
  QCOMPARE(r.resumed_from, i.resumed_from);
  QCOMPARE(r.start_step, int64_t{120});
  QCOMPARE(r.init_weights_tensors, int64_t{4});
  QCOMPARE(r.init_weights_form, i.init_weights_form);
  QCOMPARE(r.epochs, int64_t{30});
  QCOMPARE(r.amp, true);
  QCOMPARE(r.effective_batch_size, int64_t{32 * 2 * 2});
  // A single-process run writes no `distributed` and reads back as one rank.
  RunInfo single = i;
  single.world_size = 1;
  QVERIFY(!toJson(single).contains("distributed"));
  QCOMPARE(runInfoFromJson(toJson(single), config).world_size, 1);
}

void TstRunReader::readRunErrors() {
  QTemporaryDir tmp;
  const std::filesystem::path root = tmp.path().toStdString();
  auto message = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  auto write = [](const std::filesystem::path& file, const std::string& text) {
    std::ofstream(file) << text;
  };
  // Not a run directory: missing, a file, a folder without run.json.
  QVERIFY(message([&] { readRun(root / "missing"); }).find("does not exist") != std::string::npos);
  write(root / "file.txt", "x");
  QVERIFY(message([&] { readRun(root / "file.txt"); }).find("not a run directory") !=
          std::string::npos);
  std::filesystem::create_directories(root / "empty");
  QVERIFY(message([&] { readRun(root / "empty"); }).find("not a run directory") !=
          std::string::npos);
  // A run killed before its first row: config and run info, nothing else.
  const auto run = root / "killed";
  std::filesystem::create_directories(run);
  write(run / "config.json", R"({"training": {"epochs": 3, "batch_size": 8}})");
  write(run / "run.json", R"({"seed": 4, "device": "cpu", "num_threads": 1})");
  const RunRecord killed = readRun(run);
  QCOMPARE(killed.info.seed, int64_t{4});
  QCOMPARE(killed.info.epochs, int64_t{3});
  QVERIFY(killed.steps.empty() && killed.epochs.empty() && killed.events.empty());
  QVERIFY(!killed.summary);
  // A metrics.csv row that does not parse: the file and its line.
  write(run / "metrics.csv", std::string(metricsCsvHeader()) + "\n1,5,0.5,0.6,,0.01,1,100,\n" +
                                 "2,10,oops,0.6,,0.01,1,100,\n");
  std::string m = message([&] { readRun(run); });
  QVERIFY2(m.find("metrics.csv, line 3") != std::string::npos, m.c_str());
  write(run / "metrics.csv", std::string(metricsCsvHeader()) + "\n1,5,0.5,nan,,0.01,1,100,\n");
  const RunRecord one = readRun(run);
  QCOMPARE(one.epochs.size(), size_t{1});
  QVERIFY(std::isnan(one.epochs[0].val_loss));
  QVERIFY(!one.epochs[0].val_accuracy && !one.epochs[0].train_accuracy);
  // summary.json with a key of the wrong type, and one that is not JSON.
  write(run / "summary.json", R"({"stop_reason": "completed", "epochs_completed": "three",
                                  "global_step": 5})");
  m = message([&] { readRun(run); });
  QVERIFY2(m.find("summary.json: not a summary.json") != std::string::npos, m.c_str());
  write(run / "summary.json", "{");
  m = message([&] { readRun(run); });
  QVERIFY2(m.find("summary.json: not JSON") != std::string::npos, m.c_str());
  std::filesystem::remove(run / "summary.json");
  // An events.jsonl line that is not an event names its line; an unknown kind is skipped.
  write(run / "events.jsonl",
        R"({"step": 0, "epoch": 0, "kind": "from_the_future", "message": "?"})"
        "\n"
        R"({"step": 1, "epoch": 1, "kind": "paused", "message": "paused"})"
        "\n");
  QCOMPARE(readRun(run).events.size(), size_t{1});
  write(run / "events.jsonl", "{\"step\": 1}\n");
  m = message([&] { readRun(run); });
  QVERIFY2(m.find("events.jsonl, line 1: not an event") != std::string::npos, m.c_str());
  // The runs table's filtered read (only anomaly kinds): the same events as the full read
  // filtered afterwards; lines of other kinds are skipped by their written kind; a line whose
  // kind cannot be read without parsing is parsed and still named when it is no event.
  write(run / "events.jsonl",
        R"({"epoch":1,"file":"checkpoints/last.pt","kind":"checkpoint_saved","message":"saved","step":5})"
        "\n"
        R"({"epoch":2,"kind":"non_finite","message":"loss is nan","step":7,"value":"nan"})"
        "\n"
        R"({"step": 8, "epoch": 2, "kind": "paused", "message": "paused"})"
        "\n"
        R"({"epoch":3,"kind":"non_finite","message":"loss is inf","step":9,"value":"inf"})"
        "\n");
  const auto isNonFinite = [](EventKind k) { return k == EventKind::NonFinite; };
  const auto all = readEventsJsonl(run / "events.jsonl");
  const auto some = readEventsJsonl(run / "events.jsonl", isNonFinite);
  QCOMPARE(all.size(), size_t{4});
  QCOMPARE(some.size(), size_t{2});
  QCOMPARE(some[0].step, int64_t{7});
  QCOMPARE(some[1].step, int64_t{9});
  QVERIFY(some[1].value && std::isinf(*some[1].value));
  write(run / "events.jsonl", "{\"step\": 1, \"kind\" : 3}\n");
  m = message([&] { readEventsJsonl(run / "events.jsonl", isNonFinite); });
  QVERIFY2(m.find("events.jsonl, line 1: not an event") != std::string::npos, m.c_str());
  // A last line without its newline is a row the writer had not finished (a run killed
  // mid-write): left out of every file, never read as a row with a cut-off value ("0.0821"
  // for "0.08219...", an lr of "0." for 0.01).
  write(run / "events.jsonl",
        R"({"step": 1, "epoch": 1, "kind": "paused", "message": "paused"})"
        "\n"
        R"({"step": 2, "epoch": 1, "kind": "resu)");
  write(run / "metrics.csv", std::string(metricsCsvHeader()) + "\n1,5,0.5,0.6,,0.01,1,100,\n" +
                                 "2,10,0.4,0.0");
  write(run / "steps.csv", "step,epoch,batch,loss,grad_norm,grad_norm_clipped,lr\n"
                           "1,1,1,0.9,1.5,1.5,0.01\n2,1,2,0.8,1.4,1.4,0.");
  const RunRecord cut = readRun(run);
  QCOMPARE(cut.epochs.size(), size_t{1});
  QCOMPARE(cut.epochs[0].val_loss, 0.6);
  QCOMPARE(cut.steps.size(), size_t{1});
  QCOMPARE(cut.steps[0].lr, 0.01);
  QCOMPARE(cut.events.size(), size_t{1});
  // A header not yet finished: the file counts as empty.
  write(run / "metrics.csv", "epoch,st");
  m = message([&] { readRun(run); });
  QVERIFY2(m.find("metrics.csv is empty") != std::string::npos, m.c_str());
}

// A writer's lines as a follower meets them: a line without its newline is held back; a
// truncated or replaced file starts over from line 1; a missing file is no lines.
void TstRunReader::lineTailKeepsPartialLines() {
  QTemporaryDir tmp;
  const std::filesystem::path file = std::filesystem::path(tmp.path().toStdString()) / "a.csv";
  LineTail tail(file);
  QVERIFY(tail.poll().lines.empty());  // not there yet
  auto append = [&](const std::string& text) {
    std::ofstream(file, std::ios::app | std::ios::binary) << text;
  };
  append("h1,h2\n1,");
  auto p = tail.poll();
  QCOMPARE(p.lines, std::vector<std::string>{"h1,h2"});
  QCOMPARE(p.first_line, int64_t{1});
  QVERIFY(tail.poll().lines.empty());  // "1," is unfinished
  append("2\n3,4\n5");
  p = tail.poll();
  QCOMPARE(p.lines, (std::vector<std::string>{"1,2", "3,4"}));
  QCOMPARE(p.first_line, int64_t{2});
  QVERIFY(!p.reset);
  // truncated (shorter than what was read): from the top again
  std::ofstream(file, std::ios::trunc | std::ios::binary) << "x\n";
  p = tail.poll();
  QVERIFY(p.reset);
  QCOMPARE(p.lines, std::vector<std::string>{"x"});
  QCOMPARE(p.first_line, int64_t{1});
  // replaced by another file of a greater size (a new run's file): a new inode
  const auto other = file.parent_path() / "b.csv";
  std::ofstream(other, std::ios::binary) << "y1\ny2\ny3\n";
  std::filesystem::rename(other, file);
  p = tail.poll();
  QVERIFY(p.reset);
  QCOMPARE(p.lines, (std::vector<std::string>{"y1", "y2", "y3"}));
}

// A run written by the trainer and followed while it is written: the follower's records are
// readRun's, each once, and it ends with the summary and the final status.
void TstRunReader::followerReadsAppendedRecords() {
  TrainConfig c = presetConfig("overfit-sine");
  c.training.epochs = 12;
  c.data.n_samples = 80;
  QTemporaryDir tmp;
  const std::filesystem::path dir = std::filesystem::path(tmp.path().toStdString()) / "run";
  RunFollower follower(dir, 60);
  QVERIFY(follower.poll().status.state == FollowState::Waiting);
  std::vector<StepRecord> steps;
  std::vector<EpochRecord> epochs;
  std::optional<RunSummary> summary;
  bool info = false;
  std::thread writer([&] {
    TrainerOptions o;
    o.run_dir = dir;
    Trainer trainer(c, o);
    trainer.run();
  });
  for (int i = 0; i < 6000 && !summary; ++i) {
    auto u = follower.poll();
    QVERIFY(!u.reset);
    info = info || u.info.has_value();
    steps.insert(steps.end(), u.steps.begin(), u.steps.end());
    epochs.insert(epochs.end(), u.epochs.begin(), u.epochs.end());
    if (u.summary) {
      summary = u.summary;
      QVERIFY(u.status.state == FollowState::Finished);
      QCOMPARE(QString::fromStdString(u.status.run_status), QString("completed"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  writer.join();
  QVERIFY(summary.has_value());
  QVERIFY(info);
  const RunRecord whole = readRun(dir);
  QCOMPARE(steps.size(), whole.steps.size());
  QCOMPARE(epochs.size(), whole.epochs.size());
  QCOMPARE(epochs.size(), size_t{12});
  for (size_t i = 0; i < steps.size(); ++i) {
    QCOMPARE(steps[i].step, whole.steps[i].step);
    QCOMPARE(steps[i].loss, whole.steps[i].loss);
  }
  QCOMPARE(epochs.back().val_loss, whole.epochs.back().val_loss);
  QCOMPARE(summary->global_step, whole.summary->global_step);
  // a folder no process holds and without summary.json: crashed
  std::filesystem::remove(dir / "summary.json");
  RunFollower late(dir, 60);
  QVERIFY(late.poll().status.state == FollowState::Crashed);
}

QTEST_GUILESS_MAIN(TstRunReader)
#include "tst_run_reader.moc"

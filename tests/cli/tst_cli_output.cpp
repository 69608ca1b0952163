// Unit tests of trainscope_cli_lib's pure functions: exit codes, JSON numbers, the --json epoch
// line, durations, the summary line and command-line quoting.
#include <QtCore/QElapsedTimer>
#include <QtTest/QtTest>
#include <cmath>
#include <cstdio>
#include <limits>

#include "cli/cli_app.h"
#include "cli/progress.h"
#include "core/system/child_process.h"
#include "core/system/number_format.h"
#include "core/run/records_json.h"

using namespace trainscope;
using namespace trainscope::cli;

namespace {

/// A ProgressPrinter's stdout/stderr captured in temporary files.
struct Captured {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  ~Captured() {
    if (out) std::fclose(out);
    if (err) std::fclose(err);
  }
  bool ok() const { return out && err; }
  ProgressOptions options(ProgressStyle style, bool json) const {
    ProgressOptions o;
    o.style = style;
    o.json = json;
    o.out = out;
    o.err = err;
    return o;
  }
  /// Everything written to `f` from byte `from` on.
  static QString text(std::FILE* f, long from = 0) {
    std::fflush(f);
    std::fseek(f, from, SEEK_SET);
    std::string all;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) all.append(buf, n);
    return QString::fromStdString(all);
  }
};

}  // namespace

class TstCliOutput : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void exitCodes();
  void jsonNumbers();
  void epochJsonLine();
  void durations_data();
  void durations();
  void summaryLineNamesEverything();
  void commandLineQuoting();
  void linesStyleWritesOneLinePerEpoch();
  void barRedrawsAreThrottled();
  void epochLinesAreThinnedButJsonIsNot();
  void jsonEndsWithTheSummary();
};

void TstCliOutput::exitCodes() {
  // ARCHITECTURE §6: 0 completed/early stop, 3 non-finite, 130 interrupted, 1 anything else.
  QCOMPARE(exitCodeFor(StopReason::Completed), 0);
  QCOMPARE(exitCodeFor(StopReason::EarlyStop), 0);
  QCOMPARE(exitCodeFor(StopReason::NonFinite), 3);
  QCOMPARE(exitCodeFor(StopReason::Interrupted), 130);
  QCOMPARE(exitCodeFor(StopReason::Error), 1);
  QCOMPARE(exitCodeFor(StopReason::Stopped), 1);
  // 2 for bad input (config, data, checkpoint), 1 for the rest.
  QCOMPARE(exitCodeFor(Error(ErrorCode::Config, "training.epochs", "x")), 2);
  QCOMPARE(exitCodeFor(Error(ErrorCode::Data, "/f", "x")), 2);
  QCOMPARE(exitCodeFor(Error(ErrorCode::Checkpoint, "/f", "x")), 2);
  QCOMPARE(exitCodeFor(Error(ErrorCode::Io, "/f", "x")), 1);
  QCOMPARE(exitCodeFor(Error(ErrorCode::Internal, "", "x")), 1);
  // The message names the subject once.
  QCOMPARE(errorMessage(Error(ErrorCode::Config, "training.epochs", "must be > 0")),
           std::string("must be > 0 (training.epochs)"));
  QCOMPARE(errorMessage(Error(ErrorCode::Config, "training.epochs", "training.epochs bad")),
           std::string("training.epochs bad"));
}

void TstCliOutput::jsonNumbers() {
  const double inf = std::numeric_limits<double>::infinity();
  QCOMPARE(jsonNumber(std::nan("")).dump(), std::string("\"nan\""));
  QCOMPARE(jsonNumber(inf).dump(), std::string("\"inf\""));
  QCOMPARE(jsonNumber(-inf).dump(), std::string("\"-inf\""));
  QCOMPARE(jsonNumber(0.25).get<double>(), 0.25);
  // Finite values round-trip exactly through the JSON text.
  const double third = 1.0 / 3.0;
  QCOMPARE(nlohmann::json::parse(jsonNumber(third).dump()).get<double>(), third);
}

void TstCliOutput::epochJsonLine() {
  EpochRecord r;
  r.epoch = 2;
  r.step = 8;
  r.train_loss = 0.5;
  r.val_loss = std::nan("");
  r.lr = 1e-3;
  r.epoch_seconds = 1.5;
  r.samples_per_second = 20;
  nlohmann::ordered_json j = epochToJson(r);
  // Keys in metrics.csv column order.
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  const std::vector<std::string> expected{
      "epoch", "step",          "train_loss",         "val_loss",       "val_accuracy",
      "lr",    "epoch_seconds", "samples_per_second", "train_accuracy", "val_r2",
      "val_mae", "val_rmse"};
  QCOMPARE(keys, expected);
  QCOMPARE(j["val_loss"].get<std::string>(), std::string("nan"));
  QVERIFY(j["val_accuracy"].is_null());
  r.val_accuracy = 0.75;
  QCOMPARE(epochToJson(r)["val_accuracy"].get<double>(), 0.75);
  // One line, no newline inside.
  QVERIFY(epochToJson(r).dump().find('\n') == std::string::npos);
}

void TstCliOutput::durations_data() {
  QTest::addColumn<double>("seconds");
  QTest::addColumn<QString>("text");
  QTest::newRow("zero") << 0.0 << "0:00";
  QTest::newRow("59.4 s rounds down") << 59.4 << "0:59";
  QTest::newRow("59.6 s rounds up") << 59.6 << "1:00";
  QTest::newRow("1 h 1 min 5 s") << 3665.0 << "1:01:05";  // 3600 + 60 + 5
  QTest::newRow("negative") << -1.0 << "--:--";
  QTest::newRow("nan") << std::nan("") << "--:--";
}

void TstCliOutput::durations() {
  QFETCH(double, seconds);
  QFETCH(QString, text);
  QCOMPARE(QString::fromStdString(formatDuration(seconds)), text);
}

void TstCliOutput::summaryLineNamesEverything() {
  RunSummary s;
  s.stop_reason = StopReason::Completed;
  s.epochs_completed = 2;
  s.global_step = 750;
  s.best_epoch = 2;
  s.best_val_loss = 0.375;
  EpochRecord last;
  last.val_loss = 0.375;
  last.val_accuracy = 0.875;
  s.final_metrics = last;
  s.test_loss = 0.5;
  s.test_accuracy = 0.8125;
  s.wall_seconds = 12.25;
  s.seed = 42;
  const QString line = QString::fromStdString(summaryLine(s, "runs/x"));
  for (const char* part :
       {"completed", "2 epochs", "750 steps", "best epoch 2", "0.375", "val_accuracy 0.875",
        "test_loss 0.5", "test_accuracy 0.8125", "12.2 s", "seed 42", "runs/x"})
    QVERIFY2(line.contains(part), qPrintable(part + QString(" in ") + line));
  QVERIFY(!line.contains('\n'));
  s.stop_reason = StopReason::Error;
  s.error = "boom";
  QVERIFY(QString::fromStdString(summaryLine(s, "")).contains("boom"));
}

void TstCliOutput::commandLineQuoting() {
  QCOMPARE(joinCommandLine({"trainscope-cli", "train", "--set", "training.seed=null"}),
           std::string("trainscope-cli train --set training.seed=null"));
  QCOMPARE(joinCommandLine({"a b", "it's", "[1,2]", ""}),
           std::string("'a b' 'it'\\''s' '[1,2]' ''"));
}

void TstCliOutput::epochLinesAreThinnedButJsonIsNot() {
  // 6 epochs arriving at once with a 1-hour minimum gap: the stderr lines are epoch 1 and
  // epoch 6 (first and last always print); stdout still gets all 6 JSON lines.
  Captured io;
  QVERIFY(io.ok());
  ProgressOptions o = io.options(ProgressStyle::Lines, /*json=*/true);
  o.min_epoch_line_seconds = 3600;
  ProgressPrinter p(o);
  RunInfo info;
  info.epochs = 6;
  info.batches_per_epoch = 1;
  p.onRunStarted(info);
  for (int epoch = 1; epoch <= 6; ++epoch) {
    EpochRecord e;
    e.epoch = epoch;
    e.step = epoch;
    p.onEpoch(e);
  }
  const QStringList epoch_lines =
      Captured::text(io.err).split('\n').filter(QRegularExpression("^epoch "));
  QCOMPARE(epoch_lines.size(), 2);
  QVERIFY(epoch_lines[0].startsWith("epoch 1/6"));
  QVERIFY(epoch_lines[1].startsWith("epoch 6/6"));
  QCOMPARE(Captured::text(io.out).split('\n').filter(QRegularExpression("^\\{")).size(), 6);
}

void TstCliOutput::linesStyleWritesOneLinePerEpoch() {
  // Lines style with --json: steps print nothing; each epoch prints one stderr line and one
  // stdout JSON line.
  Captured io;
  QVERIFY(io.ok());
  ProgressPrinter p(io.options(ProgressStyle::Lines, /*json=*/true));
  RunInfo info;
  info.epochs = 2;
  info.batches_per_epoch = 3;
  p.onRunStarted(info);
  const long header_end = std::ftell(io.err);
  StepRecord s;
  for (int i = 1; i <= 3; ++i) {
    s.step = i;
    s.epoch = 1;
    s.batch = i;
    p.onStep(s);
  }
  QCOMPARE(std::ftell(io.err), header_end);  // no per-step output without a terminal
  EpochRecord e;
  e.epoch = 1;
  e.step = 3;
  p.onEpoch(e);
  const QString out_text = Captured::text(io.out);
  QCOMPARE(out_text.count('\n'), 1);
  QVERIFY(out_text.startsWith("{\"epoch\":1,\"step\":3,"));
  const QStringList err_lines = Captured::text(io.err).split('\n', Qt::SkipEmptyParts);
  QVERIFY(err_lines.last().startsWith("epoch 1/2  step 3"));
}

void TstCliOutput::barRedrawsAreThrottled() {
  Captured io;
  QVERIFY(io.ok());
  ProgressOptions o = io.options(ProgressStyle::Bar, /*json=*/false);
  o.min_redraw_seconds = 0.1;
  ProgressPrinter p(o);
  RunInfo info;
  info.epochs = 2;
  info.batches_per_epoch = 5000;
  p.onRunStarted(info);
  const long header_end = std::ftell(io.err);
  QElapsedTimer timer;
  timer.start();
  StepRecord s;
  s.batches_per_epoch = 5000;
  s.batch_samples = 10;
  for (int i = 1; i <= 5000; ++i) {
    s.step = i;
    s.epoch = 1;
    s.batch = i;
    s.loss = 0.5;
    s.elapsed_seconds = i * 1e-3;
    p.onStep(s);
  }
  const qint64 ms = timer.elapsed();
  p.clearBar();
  const std::string text = Captured::text(io.err, header_end).toStdString();
  // Each redraw starts with "\r" and ends with the erase-line sequence; clearBar adds one more
  // "\r". At most one redraw per 100 ms of wall time, plus the first one.
  const qsizetype redraws = QString::fromStdString(text).count("ETA");
  QVERIFY2(redraws >= 1 && redraws <= 1 + ms / 100 + 1,
           qPrintable(QString("%1 redraws in %2 ms").arg(redraws).arg(ms)));
  // The first redraw shows step 1 of 2 * 5000, the epoch, the loss and the ETA.
  QVERIFY2(text.find("epoch 1/2") != std::string::npos, text.c_str());
  QVERIFY2(text.find("step 1/10000") != std::string::npos, text.c_str());
  QVERIFY2(text.find("loss 0.5") != std::string::npos, text.c_str());
  QVERIFY(text.find('\n') == std::string::npos);  // a bar never scrolls the terminal
}

void TstCliOutput::jsonEndsWithTheSummary() {
  // --json: the epoch lines unchanged, then one line with summary.json's facts and
  // "type": "summary"; without --json nothing on stdout.
  Captured io;
  QVERIFY(io.ok());
  ProgressPrinter p(io.options(ProgressStyle::Lines, /*json=*/true));
  RunInfo info;
  info.epochs = 2;
  info.batches_per_epoch = 1;
  p.onRunStarted(info);
  EpochRecord e;
  e.epoch = 1;
  e.step = 1;
  e.val_loss = 0.5;
  p.onEpoch(e);
  e.epoch = 2;
  e.step = 2;
  e.val_loss = 0.25;
  p.onEpoch(e);
  RunSummary s;
  s.stop_reason = StopReason::EarlyStop;
  s.epochs_completed = 2;
  s.global_step = 2;
  s.best_epoch = 2;
  s.best_val_loss = 0.25;
  s.final_metrics = e;
  s.wall_seconds = 1.5;
  s.seed = 7;
  p.onRunFinished(s);
  const QStringList lines = Captured::text(io.out).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 3);
  QVERIFY(lines[0].startsWith("{\"epoch\":1,\"step\":1,"));  // the epoch objects as before
  QVERIFY(!lines[0].contains("\"type\""));
  const nlohmann::json last = nlohmann::json::parse(lines[2].toStdString());
  QCOMPARE(last.at("type").get<std::string>(), std::string("summary"));
  QCOMPARE(last.at("stop_reason").get<std::string>(), std::string("early_stop"));
  QCOMPARE(last.at("epochs_completed").get<int64_t>(), int64_t{2});
  QCOMPARE(last.at("global_step").get<int64_t>(), int64_t{2});
  QCOMPARE(last.at("best_epoch").get<int64_t>(), int64_t{2});
  QCOMPARE(last.at("best_val_loss").get<double>(), 0.25);
  QCOMPARE(last.at("final_metrics").at("epoch").get<int64_t>(), int64_t{2});
  QCOMPARE(last.at("wall_seconds").get<double>(), 1.5);
  QCOMPARE(last.at("seed").get<int64_t>(), int64_t{7});
  nlohmann::json without_type = last;
  without_type.erase("type");
  QCOMPARE(without_type, toJson(s));  // summary.json's object (RunWriter writes toJson)

  Captured quiet;
  QVERIFY(quiet.ok());
  ProgressPrinter q(quiet.options(ProgressStyle::Lines, /*json=*/false));
  q.onRunStarted(info);
  q.onRunFinished(s);
  QVERIFY(Captured::text(quiet.out).isEmpty());
}

QTEST_GUILESS_MAIN(TstCliOutput)
#include "tst_cli_output.moc"

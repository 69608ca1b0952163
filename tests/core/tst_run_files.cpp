// Run directory: naming, atomic writes, number formatting, and the meanings of ARCHITECTURE §4
// checked against values recomputed from the files themselves.
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <cmath>
#include <cstring>
#include <fstream>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/run/records_json.h"
#include "core/run/run_dir.h"
#include "core/io/tfevents_writer.h"
#include "core/train/trainer.h"
#include "test_util.h"

using namespace trainscope;
using json = nlohmann::json;

class TstRunFiles : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void uniqueRunDirNames();
  void onlyAnEmptyRunDirIsRemoved();
  void atomicWriteLeavesNoTemp();
  void numbersRoundTrip();
  void kindsAndReasonsRoundTrip();
  void filesHaveTheirMeanings();
  void tensorboardRecordFraming();
};

void TstRunFiles::uniqueRunDirNames() {
  QTemporaryDir tmp;
  std::filesystem::path root = tmp.path().toStdString();
  auto a = createUniqueRunDir(root / "runs", "demo");
  auto b = createUniqueRunDir(root / "runs", "demo");
  QVERIFY(a != b);
  QVERIFY(std::filesystem::is_directory(a) && std::filesystem::is_directory(b));
  QRegularExpression re("^demo-\\d{8}-\\d{6}(-\\d+)?$");
  QVERIFY(re.match(QString::fromStdString(a.filename().string())).hasMatch());
  QVERIFY(re.match(QString::fromStdString(b.filename().string())).hasMatch());
  QVERIFY(!isNonEmptyDirectory(a));
  std::ofstream(a / "x") << "1";
  QVERIFY(isNonEmptyDirectory(a));
}

// What a dashboard run whose data failed to load leaves: its folder goes only while empty. A
// folder holding a user's file, a file and a missing path are left as they are.
void TstRunFiles::onlyAnEmptyRunDirIsRemoved() {
  QTemporaryDir tmp;
  namespace fs = std::filesystem;
  const fs::path root = tmp.path().toStdString();
  const fs::path empty = createUniqueRunDir(root, "failed");
  QVERIFY(removeEmptyRunDir(empty));
  QVERIFY(!fs::exists(empty));
  const fs::path used = createUniqueRunDir(root, "failed");
  std::ofstream(used / "notes.txt") << "mine";
  QVERIFY(!removeEmptyRunDir(used));
  QVERIFY(fs::exists(used / "notes.txt"));
  QVERIFY(!removeEmptyRunDir(used / "notes.txt"));  // a file
  QVERIFY(fs::exists(used / "notes.txt"));
  QVERIFY(!removeEmptyRunDir(root / "missing"));
  QVERIFY(fs::exists(root));
}

void TstRunFiles::atomicWriteLeavesNoTemp() {
  QTemporaryDir tmp;
  std::filesystem::path f = std::filesystem::path(tmp.path().toStdString()) / "summary.json";
  writeFileAtomic(f, "first");
  writeFileAtomic(f, "second version");
  QCOMPARE(QString::fromStdString(testfiles::readText(f)), QString("second version"));
  int entries = 0;
  for (auto& e : std::filesystem::directory_iterator(tmp.path().toStdString())) {
    (void)e;
    ++entries;
  }
  QCOMPARE(entries, 1);  // no temp file left behind
  QVERIFY_THROWS_EXCEPTION(trainscope::Error, writeFileAtomic("/nonexistent-dir/x.json", "y"));
}

void TstRunFiles::numbersRoundTrip() {
  for (double v : {0.1, 1.0 / 3.0, 6.02214076e23, -2.5e-300, 0.0, 123456789.0}) {
    std::string s = formatNumber(v);
    QCOMPARE(std::strtod(s.c_str(), nullptr), v);
  }
  QCOMPARE(QString::fromStdString(formatNumber(std::nan(""))), QString("nan"));
  QCOMPARE(QString::fromStdString(formatNumber(INFINITY)), QString("inf"));
  QCOMPARE(QString::fromStdString(formatNumber(-INFINITY)), QString("-inf"));
  QCOMPARE(jsonNumber(std::nan("")), json("nan"));
  QCOMPARE(jsonNumber(2.5), json(2.5));
}

void TstRunFiles::kindsAndReasonsRoundTrip() {
  // The events.jsonl `kind` strings and summary.json `stop_reason` strings of ARCHITECTURE §4,
  // written out here independently of records.cpp.
  const char* kinds[] = {"run_started",       "paused",         "resumed",     "stopped",
                         "non_finite",        "early_stop",     "overfitting", "checkpoint_saved",
                         "checkpoint_loaded", "config_changed", "slowdown",    "finished",
                         "error"};
  for (const char* k : kinds) {
    const std::optional<EventKind> kind = eventKindFromString(k);
    QVERIFY2(kind.has_value(), k);
    QCOMPARE(QString::fromStdString(toString(*kind)), QString(k));
  }
  QVERIFY(!eventKindFromString("Paused"));
  QVERIFY(!eventKindFromString(""));
  const char* reasons[] = {"completed",   "stopped", "non_finite", "early_stop",
                           "interrupted", "error",   "diverged"};
  for (const char* r : reasons) {
    const std::optional<StopReason> reason = stopReasonFromString(r);
    QVERIFY2(reason.has_value(), r);
    QCOMPARE(QString::fromStdString(toString(*reason)), QString(r));
  }
  QVERIFY(!stopReasonFromString("Diverged"));
}

void TstRunFiles::filesHaveTheirMeanings() {
  QTemporaryDir tmp;
  TrainConfig c = resolveConfig(
      "moons", {}, {"training.epochs=3", "data.n_samples=230", "training.batch_size=50"});
  TrainerOptions o;
  o.run_dir = std::filesystem::path(tmp.path().toStdString()) / "run";
  o.command_line = "tst_run_files";
  Trainer t(c, o);
  RunSummary s = t.run();
  for (const char* f :
       {"config.json", "run.json", "metrics.csv", "steps.csv", "events.jsonl", "summary.json"})
    QVERIFY2(std::filesystem::exists(o.run_dir / f), f);

  // n = 230, val = round(46) = 46, train = 184 -> batches of 50, 50, 50, 34 (no drop_last).
  const int64_t n_train = 184, batches = 4;
  const auto steps = testfiles::readCsv(o.run_dir / "steps.csv");
  const auto metrics = testfiles::readCsv(o.run_dir / "metrics.csv");
  QVERIFY(steps && metrics);
  for (const char* col :
       {"step", "epoch", "loss", "grad_norm", "grad_norm_clipped", "lr", "loss_scale"})
    QVERIFY2(steps->column(col) >= 0, col);
  for (const char* col : {"epoch", "step", "train_loss", "val_loss", "val_accuracy", "lr",
                          "epoch_seconds", "samples_per_second"})
    QVERIFY2(metrics->column(col) >= 0, col);
  QCOMPARE(steps->rows.size(), 3 * batches);
  QCOMPARE(metrics->rows.size(), 3);
  for (int e = 1; e <= 3; ++e) {
    const int row = e - 1;
    QCOMPARE(metrics->cell(row, "epoch").toLongLong(), int64_t{e});
    QCOMPARE(metrics->cell(row, "step").toLongLong(), e * batches);
    // train_loss = sample-weighted mean of that epoch's step losses (recomputed from steps.csv)
    double sum = 0;
    for (int b = 0; b < batches; ++b) {
      const int srow = static_cast<int>((e - 1) * batches + b);
      QCOMPARE(steps->cell(srow, "step").toLongLong(), (e - 1) * batches + b + 1);
      QCOMPARE(steps->cell(srow, "epoch").toLongLong(), int64_t{e});
      QCOMPARE(steps->cell(srow, "loss_scale"), QString());  // no AMP
      QCOMPARE(steps->cell(srow, "grad_norm"), steps->cell(srow, "grad_norm_clipped"));
      int64_t size = b < 3 ? 50 : n_train - 150;
      sum += steps->number(srow, "loss") * size;
    }
    double train_loss = metrics->number(row, "train_loss");
    QVERIFY(std::abs(train_loss - sum / n_train) <= 1e-12 * std::abs(train_loss));
    double acc = metrics->number(row, "val_accuracy");
    // accuracy is a count over the 46 validation samples
    QVERIFY(std::abs(acc * 46 - std::round(acc * 46)) < 1e-9);
    QCOMPARE(metrics->cell(row, "lr"), QString("0.01"));
  }

  json summary = json::parse(testfiles::readText(o.run_dir / "summary.json"));
  QCOMPARE(summary["stop_reason"], json("completed"));
  QCOMPARE(summary["epochs_completed"], json(3));
  QCOMPARE(summary["global_step"], json(3 * batches));
  QCOMPARE(summary["seed"], json(42));
  // best epoch = argmin of val_loss in metrics.csv
  int best = 1;
  double best_loss = INFINITY;
  for (int e = 1; e <= 3; ++e) {
    double v = metrics->number(e - 1, "val_loss");
    if (v < best_loss) best_loss = v, best = e;
  }
  QCOMPARE(summary["best_epoch"], json(best));
  QCOMPARE(summary["best_val_loss"].get<double>(), best_loss);
  QVERIFY(summary["test_loss"].is_null());  // moons has no test set

  json config = json::parse(testfiles::readText(o.run_dir / "config.json"));
  QCOMPARE(config["training"]["epochs"], json(3));
  QCOMPARE(config["training"]["non_finite"], json("stop"));  // the policy actually used
  QCOMPARE(config["training"]["num_threads"], json(1));      // moons runs on one thread
  json run = json::parse(testfiles::readText(o.run_dir / "run.json"));
  QCOMPARE(run["command_line"], json("tst_run_files"));
  QVERIFY(run["torch_version"].get<std::string>().rfind("1.", 0) == 0 ||
          run["torch_version"].get<std::string>().rfind("2.", 0) == 0);

  std::ifstream events(o.run_dir / "events.jsonl");
  std::vector<std::string> kinds;
  for (std::string line; std::getline(events, line);) kinds.push_back(json::parse(line)["kind"]);
  QCOMPARE(kinds.front(), std::string("run_started"));
  QCOMPARE(kinds.back(), std::string("finished"));
}


// CRC-32C check values from RFC 3720 B.4 and the standard "123456789"; the first record of a
// TensorBoard file framed as TFRecord (length, masked CRC of the length, data, masked CRC).
void TstRunFiles::tensorboardRecordFraming() {
  QCOMPARE(crc32c("123456789"), 0xE3069283u);
  QCOMPARE(crc32c(std::string(32, '\0')), 0x8A9136AAu);
  QCOMPARE(crc32c(std::string(32, '\xff')), 0x62A8AB43u);
  const uint32_t c = crc32c("abc");
  QCOMPARE(maskedCrc32c("abc"), ((c >> 15) | (c << 17)) + 0xa282ead8u);
  QTemporaryDir tmp;
  std::filesystem::path file;
  {
    TensorBoardWriter tb(tmp.path().toStdString());
    file = tb.path();
    QVERIFY(file.filename().string().rfind("events.out.tfevents.", 0) == 0);
    TensorBoardWriter second(tmp.path().toStdString());  // same second: a different file
    QVERIFY(second.path() != file);
  }
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  QVERIFY(bytes.size() > 16);
  uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);
  QCOMPARE(bytes.size(), static_cast<size_t>(16 + n));
  uint32_t len_crc = 0, data_crc = 0;
  std::memcpy(&len_crc, bytes.data() + 8, 4);
  std::memcpy(&data_crc, bytes.data() + 12 + n, 4);
  QCOMPARE(len_crc, maskedCrc32c(bytes.substr(0, 8)));
  QCOMPARE(data_crc, maskedCrc32c(bytes.substr(12, n)));
  QVERIFY(bytes.substr(12, n).find("brain.Event:2") != std::string::npos);
  // TrainScope's own files: a folder holding one is still a run folder (--overwrite works)
  std::ofstream(tmp.filePath("config.json").toStdString()) << "{}";
  std::ofstream(tmp.filePath("run.json").toStdString()) << R"({"trainscope_version": "0"})";
  QCOMPARE(QString::fromStdString(whyNotRunDirectory(tmp.path().toStdString())), QString());
}

QTEST_GUILESS_MAIN(TstRunFiles)
#include "tst_run_files.moc"

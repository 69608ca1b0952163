// Memory (label "memory"): resident memory stays flat over 20,000 steps with validation every
// 500 steps; the /proc parsers and the CPU memory estimate by formula; the warning event.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/system/device_info.h"
#include "core/system/memory.h"
#include "core/system/process_stats.h"
#include "core/train/loop/system_csv.h"

#include <dirent.h>
#include <sys/resource.h>

#include <atomic>
#include <fstream>
#include <thread>
#include "core/train/loop/memory_estimate.h"
#include "core/train/loop/memory_check.h"
#include "core/train/trainer.h"
#include "test_util.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_memory_suite {

using namespace trainscope;

class TstMemory : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void residentMemoryIsPlausible();
  void parsesMemAvailable();
  void parsesBf16Flags();
  void estimateByFormula();
  void warningOnlyWhenTooBig();
  void rssFlatOver20000Steps();
  void parsesProcStatAndThreads();
  void processSampleAgreesWithOtherCounters();
  void blasKernelVerdict();
  void systemCsvRowsEverySecond();
};

void TstMemory::residentMemoryIsPlausible() {
  const auto before = residentMemoryBytes();
  QVERIFY(before.has_value());
  QVERIFY(*before > 1'000'000);          // libtorch alone is more than 1 MB
  std::vector<char> block(64 << 20, 1);  // touch 64 MiB
  const auto after = residentMemoryBytes();
  QVERIFY2(*after - *before >= (60 << 20), qPrintable(QString::number(*after - *before)));
  QVERIFY(block[12345] == 1);
  QVERIFY(availableMemoryBytes().value_or(0) > 0);
}

void TstMemory::parsesMemAvailable() {
  const std::string text =
      "MemTotal:       16318412 kB\nMemFree:         1234567 kB\nMemAvailable:    8000000 kB\n";
  QCOMPARE(*memAvailableIn(text), int64_t{8000000} * 1024);
  QVERIFY(!memAvailableIn("MemTotal: 1 kB\n").has_value());
}

void TstMemory::parsesBf16Flags() {
  QCOMPARE(QString::fromStdString(bf16FlagsIn("processor\t: 0\nflags\t\t: fpu avx2 avx512f\n")),
           QString(""));
  QCOMPARE(QString::fromStdString(
               bf16FlagsIn("flags\t\t: fpu amx_bf16 avx512_bf16 amx_tile\nflags : other\n")),
           QString("avx512_bf16 amx_bf16"));
  QCOMPARE(QString::fromStdString(bf16FlagsIn("flags\t\t: avx512_bf16x\n")), QString(""));
  const DeviceInfo info = probeDevices();
  QCOMPARE(info.bf16_native, !info.bf16_flags.empty());
  QVERIFY(QString::fromStdString(info.amp_support).startsWith("CPU: bf16 autocast ("));
}

void TstMemory::estimateByFormula() {
  // 784-256-128-10, batch 128, Adam: params = 784*256+256 + 256*128+128 + 128*10+10 = 235146.
  const MemoryEstimate e = estimateMemory({784, 256, 128, 10}, 128, "adam", 0, 1000);
  QCOMPARE(e.parameters, int64_t{235146} * 4);
  QCOMPARE(e.gradients, int64_t{235146} * 4);
  QCOMPARE(e.optimizer_state, int64_t{235146} * 8);
  QCOMPARE(e.activations, (int64_t{4} * 128 * (256 + 128 + 10) + 128 * 784) * 4);
  QCOMPARE(e.data, int64_t{1000});
  QCOMPARE(e.total(), e.parameters * 4 + e.activations + 1000);
  QCOMPARE(estimateMemory({2, 3}, 1, "sgd", 0, 0).optimizer_state, int64_t{0});
  QCOMPARE(estimateMemory({2, 3}, 1, "sgd", 0.9, 0).optimizer_state, int64_t{9} * 4);
}

void TstMemory::warningOnlyWhenTooBig() {
  const MemoryEstimate e = estimateMemory({784, 4096, 4096, 10}, 1 << 20, "adam", 0, 0);
  QVERIFY(memoryWarning(e, e.total()).empty());
  const std::string w = memoryWarning(e, e.total() - 1);
  QVERIFY(w.find("activations") != std::string::npos);
  QVERIFY(w.find("grad_accum_steps") != std::string::npos);
  // The run's check: an MLP 2-65536-65536-2 in batches of 2^24 needs far more than any RAM
  // here (params alone 17 GB x 4); the default moons config fits.
  PreparedData d;
  d.train.x = torch::zeros({10, 2});
  d.train.y = torch::zeros({10}, torch::kLong);
  d.summary.n_features = 2;
  d.summary.input_shape = {2};
  d.summary.n_classes = 2;
  d.summary.outputs = 2;
  d.classification = true;
  TrainConfig c = resolveConfig("moons", {}, {});
  int64_t bytes = 0;
  QVERIFY(!checkRunMemory(c, d, bytes).has_value());
  QVERIFY(bytes > 0);
  // Beyond all of this machine's memory (RAM + swap) the run is refused before allocating,
  // naming the part that dominates: here the batch's activations (2^24 x 4 x 65536 floats).
  auto refusal = [&](const char* key) {
    try {
      checkRunMemory(c, d, bytes);
    } catch (const Error& e) {
      QCOMPARE(e.code(), ErrorCode::Config);
      QCOMPARE(QString::fromStdString(e.subject()), QString(key));
      QVERIFY2(std::string(e.what()).find("more than this machine's memory") != std::string::npos,
               e.what());
      return;
    }
    QFAIL("not refused");
  };
  c.model.hidden = {65536, 65536};
  c.training.batch_size = 1 << 24;
  refusal("training.batch_size");
  QVERIFY(bytes > int64_t{68} * 1000 * 1000 * 1000);
  // 8 x 65536 wide, batch 32: ~3e10 parameters, x16 bytes with Adam: the model dominates.
  c.model.hidden = std::vector<int64_t>(8, 65536);
  c.training.batch_size = 32;
  refusal("model.hidden");
  QVERIFY(bytes > int64_t{16} * 7 * 65536 * 65536);
}

void TstMemory::rssFlatOver20000Steps() {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.data.n_samples = 2500;  // 2000 training samples in batches of 4: 500 steps per epoch
  c.model.hidden = {8};
  c.training.batch_size = 4;
  c.training.epochs = 40;  // 20,000 steps, validation every 500
  c.training.seed = 1;
  c.training.num_threads = 1;
  c.checkpoint.save_last = false;
  c.checkpoint.save_best = false;
  struct Obs : TrainerObserver {
    std::vector<int64_t> rss;
    int64_t steps = 0;
    void onStep(const StepRecord&) override { ++steps; }
    void onEpoch(const EpochRecord&) override { rss.push_back(residentMemoryBytes().value_or(0)); }
  } obs;
  Trainer t(c);
  t.addObserver(&obs);
  COMPARE_REASON(t.run().stop_reason, StopReason::Completed);
  QCOMPARE(obs.steps, int64_t{20000});
  QCOMPARE(obs.rss.size(), size_t{40});
  const int64_t warm = obs.rss[3];  // after 2,000 steps
  int64_t peak = 0;
  for (size_t i = 3; i < obs.rss.size(); ++i) peak = std::max(peak, obs.rss[i]);
  const double growth = static_cast<double>(peak - warm) / warm;
  qInfo("RSS after warm-up %.1f MB, peak %.1f MB, growth %.2f%%", warm / 1e6, peak / 1e6,
        growth * 100);
  QVERIFY2(growth < 0.05, qPrintable(QString::number(growth)));
}

void TstMemory::parsesProcStatAndThreads() {
  // /proc/stat: "cpu" (the sum) skipped; busy = total - idle - iowait over the first 8 fields
  const std::string stat =
      "cpu  10 0 10 80 0 0 0 0 0 0\ncpu0 5 1 4 88 2 0 0 0 7 0\ncpu1 30 0 20 50 0 0 0 0 0 0\n"
      "intr 1 2 3\n";
  const auto j = coreJiffies(stat);
  QCOMPARE(j.size(), std::size_t{2});
  QCOMPARE(j[0], (std::pair<uint64_t, uint64_t>{10, 100}));
  QCOMPARE(j[1], (std::pair<uint64_t, uint64_t>{50, 100}));
  // num_threads is field 20, counted after the command name, which may hold ") "
  QCOMPARE(threadsInStat("4242 (a) b (c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 7 0 9"), 7);
  QCOMPARE(threadsInStat("garbage"), 0);
}

void TstMemory::processSampleAgreesWithOtherCounters() {
  ProcessSampler sampler;
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const auto t0 = std::chrono::steady_clock::now();
  // Two threads: one spins for 0.4 s, one sleeps until released (an extra OS thread to count).
  std::atomic<bool> release{false};
  std::thread sleeper([&] {
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  std::thread spinner([] {
    volatile double x = 0;
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(400);
    while (std::chrono::steady_clock::now() < end) x = x + 1;
  });
  spinner.join();
  // A second method for each figure: getrusage for the CPU time, /proc/self/task for the
  // threads, /proc/self/status VmRSS for the resident set.
  const ProcessSample s = sampler.sample();
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  const double cpu = seconds(after.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_utime) -
                     seconds(before.ru_stime);
  const double expected = 100.0 * cpu / (wall * usableCores());
  qInfo("cpu_percent %.1f, getrusage %.1f (%d cores)", s.cpu_percent, expected, usableCores());
  QVERIFY2(std::abs(s.cpu_percent - expected) < 5.0,
           qPrintable(QStringLiteral("%1 vs %2").arg(s.cpu_percent).arg(expected)));
  QVERIFY(s.cpu_percent > 0 && s.cpu_percent <= 100.5);
  int tasks = 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (const dirent* e = readdir(d))
      if (e->d_name[0] != '.') ++tasks;
    closedir(d);
  }
  const ProcessSample again = sampler.sample();
  QCOMPARE(again.os_threads, tasks);
  release = true;
  sleeper.join();
  std::ifstream status("/proc/self/status");
  int64_t vmrss_kb = 0;
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) vmrss_kb = std::atoll(line.c_str() + 6);
  QVERIFY2(std::abs(again.rss_bytes - vmrss_kb * 1024) < (4 << 20),
           qPrintable(QStringLiteral("%1 vs %2").arg(again.rss_bytes).arg(vmrss_kb * 1024)));
  QVERIFY(again.available_bytes > 0);
  // This test process counts itself by its command name (core_tests); a made-up one, none.
  QVERIFY(countProcesses("core_tests") >= 1);
  QCOMPARE(countProcesses("no-such-process-name"), 0);
  QCOMPARE(static_cast<int>(again.core_percent.size()) >= usableCores(), true);
  for (double c : again.core_percent) QVERIFY(std::isnan(c) || (c >= 0 && c <= 100));
}

void TstMemory::blasKernelVerdict() {
  BlasKernel k;
  k.core_type = "Prescott";
  k.cpu_avx2 = true;
  BlasKernel j = judgeBlasKernel(k);
  QVERIFY(j.generic_fallback);
  QCOMPARE(j.suggestion, std::string("OPENBLAS_CORETYPE=Haswell"));
  k.cpu_avx512 = true;
  QCOMPARE(judgeBlasKernel(k).suggestion, std::string("OPENBLAS_CORETYPE=SkylakeX"));
  k.core_type = "Haswell";
  QVERIFY(!judgeBlasKernel(k).generic_fallback);
  k.core_type = "Prescott";
  k.cpu_avx2 = k.cpu_avx512 = false;  // an old CPU: the generic kernel is the right one
  QVERIFY(!judgeBlasKernel(k).generic_fallback);
  // This process: OpenBLAS is what Debian's libtorch loads; its kernel family has a name.
  const BlasKernel here = blasKernel("OpenBLAS");
  qInfo("BLAS core type here: %s (avx2 %d, avx512 %d)", here.core_type.c_str(), here.cpu_avx2,
        here.cpu_avx512);
  QVERIFY(!here.core_type.empty());
}

void TstMemory::systemCsvRowsEverySecond() {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.data.n_samples = 2000;
  c.training.batch_size = 8;
  c.training.epochs = 400;
  c.training.num_threads = 1;
  c.checkpoint.save_last = false;
  c.checkpoint.save_best = false;
  QTemporaryDir dir;
  TrainerOptions o;
  o.run_dir = std::filesystem::path(dir.path().toStdString()) / "run";
  struct Obs : TrainerObserver {
    Trainer* t = nullptr;
    std::optional<std::chrono::steady_clock::time_point> start;
    int64_t samples = 0;
    void onStep(const StepRecord& r) override {
      if (!start) start = std::chrono::steady_clock::now();
      samples += r.batch_samples;
      if (std::chrono::steady_clock::now() - *start > std::chrono::milliseconds(3300)) t->stop();
    }
  } obs;
  Trainer t(c, o);
  obs.t = &t;
  t.addObserver(&obs);
  t.run();
  std::ifstream in(o.run_dir / "system.csv");
  std::string line;
  std::getline(in, line);
  QCOMPARE(line, std::string(SystemCsvPart::header()));
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> v;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) v.push_back(std::stod(cell));
    QCOMPARE(v.size(), std::size_t{7});
    rows.push_back(v);
  }
  // about one row a second over the 3.3 s run (the last row at the stop)
  QVERIFY2(rows.size() >= 3 && rows.size() <= 6, qPrintable(QString::number(rows.size())));
  double counted = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (i > 0) {
      const double dt = r[0] - rows[i - 1][0];
      // a second apart; the last row is written when the run stops, part of a second later
      QVERIFY2(dt < 1.5 && (dt > 0.9 || (i + 1 == rows.size() && dt > 0.04)), qPrintable(QString::number(dt)));
      counted += r[5] * dt;  // samples/s x the row's second: the samples of its steps
    }
    QVERIFY(r[1] >= 0 && r[1] <= 100.5);
    QVERIFY(r[2] > 1e6);
    QVERIFY(r[3] > 0);
    QCOMPARE(r[4], 1.0);  // training.num_threads
    QVERIFY(r[6] >= 0 && r[6] <= 1);
  }
  // The rows' samples (after the first row) are the run's samples less those before it, to
  // within a row's rounding of samples/s (0.05 x the interval) and the steps after the last row.
  QVERIFY2(counted <= obs.samples && counted > 0.5 * obs.samples,
           qPrintable(QStringLiteral("%1 of %2").arg(counted).arg(obs.samples)));
}

TRAINSCOPE_TEST_MAIN(TstMemory)
}  // namespace tst_memory_suite
#include "tst_memory.moc"

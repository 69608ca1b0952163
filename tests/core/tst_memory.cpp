// Memory (label "memory"): resident memory stays flat over 20,000 steps with validation every
// 500 steps; the /proc parsers and the CPU memory estimate by formula; the warning event.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/system/device_info.h"
#include "core/system/memory.h"
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

TRAINSCOPE_TEST_MAIN(TstMemory)
}  // namespace tst_memory_suite
#include "tst_memory.moc"

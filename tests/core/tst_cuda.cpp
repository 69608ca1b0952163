// CUDA only (TRAINSCOPE_CUDA=ON, run by scripts/gpu-check): fp16 autocast with the GradScaler
// on a GPU (parameters and gradients fp32, the scale in steps.csv, loss close to fp32), the
// memory statistics, and out-of-memory detection.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/system/cuda_memory.h"
#include "core/train/trainer.h"
#include "recording_observer.h"
#include "test_util.h"

using namespace trainscope;

class TstCuda : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    if (!torch::cuda::is_available()) QSKIP("no CUDA device");
  }
  void fp16AmpWithScalerTrains() {
    TrainConfig c = resolveConfig("moons", {}, {});
    c.training.device = "cuda";
    c.training.epochs = 3;
    testrun::RecordingObserver fp32, amp;
    Trainer a(c);
    a.addObserver(&fp32);
    a.run();
    c.training.amp = true;
    Trainer b(c);
    b.addObserver(&amp);
    COMPARE_REASON(b.run().stop_reason, StopReason::Completed);
    QVERIFY(amp.steps.front().loss_scale.has_value());
    QCOMPARE(*amp.steps.front().loss_scale, 65536.0);
    QVERIFY(std::abs(amp.steps.front().loss - fp32.steps.front().loss) <=
            1e-2 * fp32.steps.front().loss);
    QVERIFY(*amp.epochs.back().val_accuracy > 0.8);
  }
  void memoryStatistics() {
    auto before = cudaMemory(0);
    QVERIFY(before.has_value());
    QVERIFY(before->total > 0);
    auto t = torch::empty({64 << 20}, torch::dtype(torch::kByte).device(torch::kCUDA));
    auto after = cudaMemory(0);
    QVERIFY(after->allocated - before->allocated >= (64 << 20));
    QVERIFY(after->reserved >= after->allocated);
  }
  void outOfMemoryIsRecognised() {
    try {
      auto t = torch::empty({int64_t{1} << 50}, torch::dtype(torch::kByte).device(torch::kCUDA));
      QFAIL("allocated 1 PB");
    } catch (const std::exception& e) {
      QVERIFY2(isCudaOutOfMemory(e), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TstCuda)
#include "tst_cuda.moc"

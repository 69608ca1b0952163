// bench_evaluation: what the evaluation view's numbers cost the engine (issue 49 §1 figure:
// 10,000 validation samples x 10 classes, matrix, table and curves computed <= 100 ms after
// the validation pass). Feeds ValidationDetailCollector the outputs of a 10,000 x 784
// validation split in chunks of 512 (as the validation pass hands them over) and finishes it:
// confusion matrix, worst samples, each cell's samples with their raw values, per-class
// reports with PR and ROC curves (core/run/class_metrics.h) and the threshold counts. Prints
// collect_ms (all add() calls), finish_ms, total_ms: medians of 7 rounds. Then the system
// panel's and system.csv's reading (issue 49 §5: cost < 1% of a core): ProcessSampler::sample()
// 200 times, its mean time and the share of one core it takes at one reading a second. Then
// the embedding's PCA (issue 49 §2 figure: 5,000 x 128 <= 1 s on 2 cores): pca_ms, median of 5.
//   bench_evaluation [SAMPLES] [CLASSES]
#include <ATen/ATen.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/data/dataset.h"
#include "core/system/process_stats.h"
#include "core/train/monitors/validation_detail.h"
#include "core/train/probes/embedding.h"
#include "core/train/probes/tsne.h"
#include "core/train/step/distributions.h"

using namespace trainscope;

namespace {

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atol(argv[1]) : 10'000;
  const int64_t k = argc > 2 ? std::atol(argv[2]) : 10;
  at::manual_seed(0);
  PreparedData data;
  data.classification = true;
  data.summary.n_classes = k;
  data.summary.outputs = k;
  data.summary.input_shape = {784};
  data.summary.preprocessing.standardize = "none";
  data.val.x = at::rand({n, 784});
  data.val.y = at::randint(0, k, {n}, at::kLong);
  // outputs with some signal: the true class's logit raised
  at::Tensor logits = at::randn({n, k}) + 2.0 * at::one_hot(data.val.y, k).to(at::kFloat);
  std::vector<double> collect, finish, total;
  int64_t curve_points = 0;
  for (int round = 0; round < 7; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    ValidationDetailCollector c(data, 1);
    for (int64_t s = 0; s < n; s += 512) {
      const int64_t len = std::min<int64_t>(512, n - s);
      c.add(s, logits.narrow(0, s, len), data.val.y.narrow(0, s, len));
    }
    const double a = msSince(t0);
    const auto t1 = std::chrono::steady_clock::now();
    const ValidationDetail d = c.finish();
    finish.push_back(msSince(t1));
    collect.push_back(a);
    total.push_back(msSince(t0));
    curve_points = 0;
    for (const ClassReport& r : d.classes)
      curve_points += static_cast<int64_t>(r.pr.precision.size() + r.roc.fpr.size());
  }
  std::printf("samples=%lld classes=%lld curve_points=%lld\n", static_cast<long long>(n),
              static_cast<long long>(k), static_cast<long long>(curve_points));
  std::printf("collect_ms=%.1f finish_ms=%.1f total_ms=%.1f (target total <= 100 ms)\n",
              median(collect), median(finish), median(total));
  ProcessSampler sampler;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 200; ++i) sampler.sample();
  const double per = msSince(t0) / 200;
  std::printf("system sample_ms=%.3f core_share_at_1hz=%.4f%% (target < 1%%)\n", per,
              per / 1000 * 100);
  const at::Tensor features = at::randn({5000, 128});
  std::vector<double> pca_ms;
  for (int i = 0; i < 5; ++i) {
    const auto t = std::chrono::steady_clock::now();
    pca(features, 2);
    pca_ms.push_back(msSince(t));
  }
  std::printf("embedding pca 5000x128 pca_ms=%.1f (target <= 1000 ms)\n", median(pca_ms));
  // t-SNE of 2,000 points on 50 principal components (twice the dashboard's largest), once,
  // and a distributions reading of fashion-mnist-cnn's largest tensor (64 x 32 x 3 x 3 is
  // small; the head's 3136 x 10 weights and a 256-sample ReLU output of 32 x 28 x 28).
  {
    const Pca p = pca(at::randn({2000, 128}) + at::randint(0, 10, {2000, 1}).to(at::kFloat) * 3, 50);
    const std::vector<float> x(p.projected.begin(), p.projected.end());
    const auto t = std::chrono::steady_clock::now();
    const TsneResult r = tsne(x, 2000, p.k, tsnePcaInit(x, 2000, p.k), TsneOptions{});
    std::printf("tsne 2000x50 tsne_ms=%.0f iterations=%d ms_per_iteration=%.2f\n", msSince(t),
                r.iterations, msSince(t) / r.iterations);
  }
  for (const auto& [what, shape] : std::vector<std::pair<const char*, std::vector<int64_t>>>{
           {"weights 3136x10", {10, 3136}}, {"activations 256x32x28x28", {256, 32, 28, 28}}}) {
    const at::Tensor v = at::randn(shape);
    std::vector<double> ms;
    for (int i = 0; i < 5; ++i) {
      const auto t = std::chrono::steady_clock::now();
      describeValues(v, "x");
      ms.push_back(msSince(t));
    }
    std::printf("distributions %s describe_ms=%.2f\n", what, median(ms));
  }
  return 0;
}

#include "core/train/probes/lr_finder.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/nn/functional/loss.h>
#include <torch/utils.h>

#include <cmath>
#include <mutex>

#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/model/model.h"
#include "core/optim/optimizer_factory.h"
#include "core/system/seed.h"
#include "core/train/loop/epoch_end.h"
#include "core/train/probes/lr_finder_impl.h"

namespace trainscope {

double suggestLearningRate(const std::vector<LrFinderPoint>& points, bool stopped_early) {
  size_t n = points.size();
  if (stopped_early && n > 2) --n;  // the point that diverged
  if (n < 2) return 0;
  // fastai v1's Recorder.plot(skip_start=10, skip_end=5): the first points (the EMA still
  // settling on a few noisy batches) and the last ones (the blow-up) are left out, while at
  // least 5 points remain.
  size_t first = 0;
  if (n >= kLrSuggestSkipStart + kLrSuggestSkipEnd + 5) {
    first = kLrSuggestSkipStart;
    n -= kLrSuggestSkipEnd;
  }
  // numpy.gradient of the smoothed loss over log(lr): central differences inside, one-sided at
  // the ends; the steepest descent is its minimum.
  double best = INFINITY;
  size_t at = first;
  for (size_t i = first; i < n; ++i) {
    const size_t a = i == first ? i : i - 1, b = i + 1 == n ? i : i + 1;
    const double g = (points[b].smoothed_loss - points[a].smoothed_loss) /
                     (std::log(points[b].lr) - std::log(points[a].lr));
    if (g < best) {
      best = g;
      at = i;
    }
  }
  return points[at].lr;
}

LrFinderResult runLrFinder(const Model& model, const OptimizerConfig& optimizer,
                           const TensorPair& train, bool classification, int64_t batch_size,
                           uint64_t seed, const LrFinderOptions& o) {
  namespace F = torch::nn::functional;
  // Saved first: Module::clone() re-initialises the copy (reset()) before copying the weights,
  // which draws from the global generator.
  at::Generator global = at::detail::getDefaultCPUGenerator();
  at::Tensor global_state;
  {
    std::lock_guard<std::mutex> lock(global.mutex());
    global_state = global.get_state();
  }
  const ModelPtr net = model.clone();
  net->train();
  auto params = net->parameters();
  auto opt = makeOptimizer(optimizer, params);
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed ^ 0x9E3779B97F4A7C15ULL);
  const int64_t n = train.size();
  const int64_t bs = std::min(batch_size, n);
  at::Tensor order = at::randperm(n, gen, at::TensorOptions().dtype(at::kLong));
  int64_t pos = 0;

  LrFinderResult r;
  double avg = 0, min_smoothed = INFINITY;
  const double ratio = o.end_lr / o.start_lr;
  try {
    for (int64_t i = 0; i < o.steps; ++i) {
      if (pos + bs > n) {  // a new pass over the data
        order = at::randperm(n, gen, at::TensorOptions().dtype(at::kLong));
        pos = 0;
      }
      const TensorPair batch = train.select(order.narrow(0, pos, bs).to(train.y.device()));
      pos += bs;
      LrFinderPoint p;
      p.lr = o.start_lr * std::pow(ratio, static_cast<double>(i) / (o.steps - 1));
      setLearningRate(*opt, p.lr);
      opt->zero_grad();
      at::Tensor out = net->forward(batch.x);
      at::Tensor loss = classification ? F::cross_entropy(out, batch.y) : F::mse_loss(out, batch.y);
      loss.backward();
      p.loss = loss.item<double>();
      avg = o.beta * avg + (1 - o.beta) * p.loss;
      p.smoothed_loss = avg / (1 - std::pow(o.beta, static_cast<double>(i + 1)));
      r.points.push_back(p);
      if (!std::isfinite(p.smoothed_loss) ||
          (i > 0 && p.smoothed_loss > o.diverge_factor * min_smoothed)) {
        r.stopped_early = true;
        break;
      }
      min_smoothed = std::min(min_smoothed, p.smoothed_loss);
      opt->step();
    }
  } catch (...) {
    std::lock_guard<std::mutex> lock(global.mutex());
    global.set_state(global_state);
    throw;
  }
  {
    std::lock_guard<std::mutex> lock(global.mutex());
    global.set_state(global_state);
  }
  r.suggested_lr = suggestLearningRate(r.points, r.stopped_early);
  return r;
}

LrFinderResult findLearningRate(const TrainConfig& config, const LrFinderOptions& o) {
  validate(config);
  if (!(o.start_lr > 0) || !(o.end_lr > o.start_lr) || !std::isfinite(o.end_lr))
    throw Error(ErrorCode::Config, "--start-lr",
                "lr-find needs 0 < start lr < end lr, got " + std::to_string(o.start_lr) + " and " +
                    std::to_string(o.end_lr));
  if (o.steps < 2)
    throw Error(ErrorCode::Config, "--steps",
                "lr-find needs at least 2 steps, got " + std::to_string(o.steps));
  const PreparedData data = loadData(config.data);
  const int64_t seed = config.training.seed ? *config.training.seed : drawSeed();
  seedEverything(seed);
  auto model = buildModel(config.model, data.summary);
  return runLrFinder(*model, config.optimizer, data.train, data.classification,
                     config.training.batch_size, static_cast<uint64_t>(seed), o);
}

}  // namespace trainscope

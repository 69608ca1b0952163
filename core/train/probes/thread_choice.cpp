// training.num_threads "auto". Why measure: on a machine where another program keeps a core
// busy, OpenMP's barriers wait for a thread the scheduler has parked, and 2 threads ran 6x
// slower than 1; on an idle machine 2 can be faster. Only timing can tell.
#include "core/train/probes/thread_choice.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/nn/module.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "core/config/train_config.h"
#include "core/optim/optimizer_factory.h"
#include "core/system/clock.h"
#include "core/train/step/step.h"

namespace trainscope {
namespace {

constexpr int kRounds = 2;
constexpr int kMaxSteps = 16;          ///< timed steps per candidate and round
constexpr double kRoundBudget = 0.06;  ///< seconds per candidate and round (after 1 step)
constexpr int kDistinctBatches = 4;    ///< real batches cycled through
constexpr double kHopeless = 4.0;      ///< no second round for a candidate 4x behind the best

/// Restores the global CPU generator and the intra-op thread count on scope exit, also when a
/// step throws.
class RestoreGuard {
 public:
  RestoreGuard() : gen_(at::detail::getDefaultCPUGenerator()), threads_(at::get_num_threads()) {
    std::lock_guard<std::mutex> lock(gen_.mutex());
    state_ = gen_.get_state();
  }
  ~RestoreGuard() {
    {
      std::lock_guard<std::mutex> lock(gen_.mutex());
      gen_.set_state(state_);
    }
    at::set_num_threads(threads_);
  }
  RestoreGuard(const RestoreGuard&) = delete;
  RestoreGuard& operator=(const RestoreGuard&) = delete;

 private:
  at::Generator gen_;
  at::Tensor state_;
  int threads_;
};

}  // namespace

int autoThreadLimit(int available_cores, int reserved_cores, bool* from_omp) {
  if (from_omp) *from_omp = false;
  if (const char* env = std::getenv("OMP_NUM_THREADS")) {
    int n = std::atoi(env);  // leading integer ("4,2" -> 4); digits are locale-independent
    if (n > 0) {
      if (from_omp) *from_omp = true;
      return n;
    }
  }
  int cores = available_cores;
  if (cores <= 0) {
    unsigned hw = std::thread::hardware_concurrency();
    cores = hw > 0 ? static_cast<int>(hw) : 1;
  }
  return std::max(1, cores - std::max(0, reserved_cores));
}

std::vector<int> threadCandidates(int max_threads) {
  std::vector<int> out;
  for (int n = 1; n < max_threads; n *= 2) out.push_back(n);
  out.push_back(std::max(1, max_threads));
  return out;
}

int fastestThreads(const std::vector<ThreadRate>& rates) {
  int best = 1;
  double best_rate = -1;
  for (const ThreadRate& r : rates) {
    if (r.samples_per_second > best_rate ||
        (r.samples_per_second == best_rate && r.threads < best)) {
      best = r.threads;
      best_rate = r.samples_per_second;
    }
  }
  return best;
}

std::vector<ThreadRate> measureThreadRates(const TrainState& real, const TensorPair& train,
                                           int64_t batch_size, bool classification,
                                           const ClipConfig& clip, const OptimizerConfig& optimizer,
                                           const std::vector<int>& candidates) {
  std::vector<ThreadRate> rates;
  if (train.size() == 0 || candidates.empty()) return rates;
  RestoreGuard restore;

  // The throwaway copy: parameters and buffers deep-copied, a fresh optimizer of the same kind
  // (its first steps cost what later ones do, apart from allocation, which the warm-up takes).
  TrainState t;
  t.device = real.device;
  t.model = real.model->clone(real.device);
  t.params = t.model->parameters();
  t.grads = std::make_unique<FlatGradients>(t.params);
  t.optimizer = makeOptimizer(optimizer, t.params);
  t.model->train();

  // Real batches of the run's size, in storage order: drawing an order would use a generator.
  const int64_t b = std::min(batch_size, train.size());
  const int64_t n_batches =
      std::max<int64_t>(1, std::min<int64_t>(kDistinctBatches, train.size() / b));
  std::vector<TensorPair> batches;
  for (int64_t i = 0; i < n_batches; ++i) batches.push_back(train.rows(i * b, b));

  std::vector<double> seconds(candidates.size(), 0.0);
  std::vector<int64_t> samples(candidates.size(), 0);
  std::vector<std::vector<double>> round_rates(candidates.size());
  int64_t next = 0;
  auto rate = [&](size_t c) { return seconds[c] > 0 ? samples[c] / seconds[c] : 0.0; };
  for (int round = 0; round < kRounds; ++round) {
    double best = 0;
    for (size_t c = 0; c < candidates.size(); ++c) best = std::max(best, rate(c));
    for (size_t c = 0; c < candidates.size(); ++c) {
      // A candidate far behind after the first round is not timed again: under load its
      // steps can take 100x longer, and the run waits for every one of them.
      if (round > 0 && rate(c) * kHopeless < best) continue;
      at::set_num_threads(candidates[c]);
      // The warm-up step (allocations, waking OpenMP's threads) is timed too: when it alone
      // exceeds the budget the candidate is hopeless and its rate is that step's.
      const TensorPair& first = batches[next++ % n_batches];
      SteadyClock::time_point start = SteadyClock::now();
      trainStep(t, first, classification, clip, nullptr);
      double elapsed = secondsSince(start);
      if (elapsed > kRoundBudget) {
        seconds[c] += elapsed;
        samples[c] += first.size();
        round_rates[c].push_back(static_cast<double>(first.size()) / elapsed);
        continue;
      }
      start = SteadyClock::now();
      elapsed = 0;
      int64_t round_samples = 0;
      for (int s = 0; s < kMaxSteps && (s == 0 || elapsed < kRoundBudget); ++s) {
        const TensorPair& batch = batches[next++ % n_batches];
        trainStep(t, batch, classification, clip, nullptr);
        round_samples += batch.size();
        elapsed = secondsSince(start);
      }
      samples[c] += round_samples;
      seconds[c] += elapsed;
      if (elapsed > 0) round_rates[c].push_back(static_cast<double>(round_samples) / elapsed);
    }
  }
  for (size_t c = 0; c < candidates.size(); ++c)
    rates.push_back(
        {candidates[c], seconds[c] > 0 ? samples[c] / seconds[c] : 0.0, round_rates[c]});
  return rates;
}

ThreadChoice chooseThreadCount(TrainState& state, const TensorPair& train, bool classification,
                               TrainConfig& config, int available_cores, int reserved_cores) {
  TrainingConfig& t = config.training;
  ThreadChoice c;
  // A TorchScript model compiles its graphs during its first calls (the profiling executor
  // records a run, then optimises). Those steps run first, on a throwaway copy (whose methods
  // are the model's own, so the model is warm too): the candidates' rates, the first epoch's
  // rate and the slowdown watch's baseline then measure training, not compilation.
  const bool scripted = state.device.is_cpu() && state.model->kind() == "torchscript";
  if (scripted)
    (void)measureThreadRates(state, train, t.batch_size, classification, t.clip,
                             config.optimizer, {t.num_threads ? static_cast<int>(*t.num_threads) : 1});
  if (t.num_threads) {  // an explicit count (also a resumed run's recorded one)
    c.threads = static_cast<int>(*t.num_threads);
  } else {
    c.automatic = true;
    c.max_threads = autoThreadLimit(available_cores, reserved_cores, &c.limited_by_omp);
    const std::vector<int> candidates = threadCandidates(c.max_threads);
    if (candidates.size() == 1) {
      c.threads = candidates.front();
    } else if (!state.device.is_cpu()) {
      c.threads = c.max_threads;  // the GPU does the work; CPU threads only feed it
    } else {
      // Before the first recorded step, on a throwaway copy: the run's numbers are untouched.
      c.rates = measureThreadRates(state, train, t.batch_size, classification, t.clip,
                                   config.optimizer, candidates);
      c.threads = fastestThreads(c.rates);
    }
  }
  if (c.rates.empty() && scripted)  // the baseline of the slowdown watch at the given count
    c.rates = measureThreadRates(state, train, t.batch_size, classification, t.clip,
                                 config.optimizer, {c.threads});
  state.num_threads = c.threads;
  t.num_threads = c.threads;
  at::set_num_threads(c.threads);
  return c;
}

}  // namespace trainscope

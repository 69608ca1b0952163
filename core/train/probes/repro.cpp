// verifyRepro and compareAmp: two in-process runs of K steps each, compared (repro.h).
#include "core/train/probes/repro.h"

#include <ATen/Context.h>
#include <ATen/TensorOperators.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/errors.h"
#include "core/train/state/checkpoint.h"
#include "core/io/checkpoint_file.h"
#include "core/system/number_format.h"
#include "core/system/clock.h"
#include "core/system/device_info.h"
#include "core/system/seed.h"
#include "core/train/loop/trainer_hooks.h"
#include "core/train/trainer.h"

namespace trainscope {
namespace {

/// What one run of K steps produced.
struct StepsRun {
  std::vector<double> losses;
  std::vector<at::Tensor> params;  ///< final parameters (copies)
  int threads = 1;
  int64_t seed = 0;
  std::string device;
  double timed_seconds = 0;  ///< between steps, excluding steps after a validation
  int64_t timed_samples = 0, timed_steps = 0;
  /// The training time of each whole epoch after the first (EpochRecord::samples_per_second,
  /// validation excluded): what is timed when an epoch has a single step.
  double epoch_seconds = 0;
  int64_t epoch_samples = 0, epoch_steps = 0;
};

/// Counts steps, stops the run after K, records losses and step timings.
class StepLimit : public TrainerObserver {
 public:
  StepLimit(Trainer& trainer, StepsRun& out, const CompareRequest& request, int run)
      : trainer_(trainer), out_(out), request_(request), run_(run) {}
  void onRunStarted(const RunInfo& info) override {
    out_.threads = info.num_threads;
    out_.seed = info.seed;
    out_.device = info.device;
    start_step_ = info.start_step;
  }
  void onStep(const StepRecord& r) override {
    const auto now = SteadyClock::now();
    // The first step and each epoch's first step (after validation) are not timed.
    if (!out_.losses.empty() && r.step > start_step_ + 1 && !after_epoch_) {
      out_.timed_seconds += std::chrono::duration<double>(now - last_).count();
      out_.timed_samples += r.batch_samples;
      ++out_.timed_steps;
    }
    after_epoch_ = false;
    epoch_samples_ += r.batch_samples;
    ++epoch_steps_;
    last_ = now;
    out_.losses.push_back(r.loss);
    const int64_t done = static_cast<int64_t>(out_.losses.size());
    if (request_.progress) request_.progress(run_, done);
    const bool cancelled = request_.cancel && request_.cancel->load();
    if (done >= request_.steps || cancelled) trainer_.stop();
  }
  void onEpoch(const EpochRecord& r) override {
    after_epoch_ = true;
    if (epochs_seen_++ > 0 && r.samples_per_second > 0 && epoch_samples_ > 0) {
      out_.epoch_seconds += static_cast<double>(epoch_samples_) / r.samples_per_second;
      out_.epoch_samples += epoch_samples_;
      out_.epoch_steps += epoch_steps_;
    }
    epoch_samples_ = epoch_steps_ = 0;
  }

 private:
  Trainer& trainer_;
  StepsRun& out_;
  const CompareRequest& request_;
  int run_;
  int64_t start_step_ = 0;
  bool after_epoch_ = false;
  int64_t epochs_seen_ = 0, epoch_samples_ = 0, epoch_steps_ = 0;
  SteadyClock::time_point last_{};
};

/// Throws Error(Checkpoint, file) when the model weights of checkpoint `file` hold NaN or Inf:
/// two runs from them compare NaN with NaN, which says nothing about reproducibility.
void requireFiniteWeights(const std::filesystem::path& file) {
  const c10::impl::GenericDict dict = readCheckpointDict(file);
  auto it = dict.find("model_state_dict");
  if (it == dict.end() || !it->value().isGenericDict()) return;  // inspectCheckpoint refused it
  std::string bad;
  for (const auto& entry : it->value().toGenericDict()) {
    if (!entry.value().isTensor() || !entry.key().isString()) continue;
    const at::Tensor t = entry.value().toTensor();
    if (!t.is_floating_point()) continue;
    const int64_t n = t.numel() - t.isfinite().sum().item<int64_t>();
    if (n > 0)
      bad += (bad.empty() ? "" : ", ") + entry.key().toStringRef() + " " + std::to_string(n) +
             " of " + std::to_string(t.numel());
  }
  if (!bad.empty())
    throw Error(ErrorCode::Checkpoint, file.string(),
                "cannot verify reproducibility from " + file.string() +
                    ": its model weights are not finite (NaN or Inf values: " + bad +
                    "), so both runs would only compare NaN with NaN; verify from an earlier "
                    "checkpoint (best.pt, an epoch-NNNN.pt) or from the config");
}

/// The config both runs use: the request's, or the checkpoint's with enough epochs.
TrainConfig baseConfig(const CompareRequest& req) {
  if (req.steps < 1)
    throw Error(ErrorCode::Config, "steps",
                "--steps must be >= 1, got " + std::to_string(req.steps));
  TrainConfig c;
  if (req.checkpoint.empty()) {
    c = req.config;
    c.training.epochs = std::max(c.training.epochs, req.steps);  // every epoch has >= 1 step
  } else {
    const CheckpointInfo info = inspectCheckpoint(req.checkpoint);
    requireFiniteWeights(req.checkpoint);
    c = checkpointConfig(info);
    c.training.epochs = std::max(c.training.epochs, info.epoch + req.steps + 1);
  }
  // Nobody could resume a paused comparison run.
  if (c.training.non_finite && *c.training.non_finite == "pause") c.training.non_finite = "stop";
  validate(c);
  return c;
}

StepsRun runSteps(const TrainConfig& config, const CompareRequest& req, int run) {
  StepsRun out;
  TrainerOptions options;
  options.front_end = "test";
  options.resume_from = req.checkpoint;
  Trainer trainer(config, options);
  StepLimit limit(trainer, out, req, run);
  trainer.addObserver(&limit);
  TrainerHooks hooks;
  hooks.at_end = [&](const std::vector<at::Tensor>& params) {
    for (const auto& p : params) out.params.push_back(p.detach().to(at::kCPU).clone());
  };
  TrainerAccess::setHooks(trainer, hooks);
  const RunSummary s = trainer.run();  // throws Error for bad input
  if (s.stop_reason == StopReason::Error)
    throw Error(ErrorCode::Internal, "", "the run failed: " + s.error);
  return out;
}

/// max |a - b| over two equal-length lists; NaN in one and not the other counts as infinity.
double maxAbsDiff(const std::vector<double>& a, const std::vector<double>& b, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool same_nan = std::isnan(a[i]) && std::isnan(b[i]);
    if (same_nan) continue;
    const double d = std::fabs(a[i] - b[i]);
    m = std::max(m, std::isnan(d) ? INFINITY : d);
  }
  return m;
}

bool bitwiseEqual(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

}  // namespace

ReproReport verifyRepro(const CompareRequest& req) {
  TrainConfig config = baseConfig(req);
  ReproReport r;
  r.steps_requested = req.steps;
  r.seeded = config.training.seed.has_value() || !req.checkpoint.empty();
  r.amp = config.training.amp;
  r.deterministic = config.training.deterministic;
  StepsRun a = runSteps(config, req, 0);
  config.training.num_threads = a.threads;  // the same count as run A, not measured anew
  StepsRun b = runSteps(config, req, 1);
  r.threads = a.threads;
  r.seed_a = a.seed;
  r.seed_b = b.seed;
  r.device = a.device;
  r.losses_a = a.losses;
  r.losses_b = b.losses;
  const size_t n = std::min(a.losses.size(), b.losses.size());
  r.steps_compared = static_cast<int64_t>(n);
  r.max_loss_diff = maxAbsDiff(a.losses, b.losses, n);
  bool identical = a.losses.size() == b.losses.size() && a.params.size() == b.params.size();
  for (size_t i = 0; i < n; ++i) identical = identical && bitwiseEqual(a.losses[i], b.losses[i]);
  for (size_t i = 0; i < std::min(a.params.size(), b.params.size()); ++i) {
    const at::Tensor& x = a.params[i];
    const at::Tensor& y = b.params[i];
    if (!x.sizes().equals(y.sizes())) {
      identical = false;
      r.max_weight_diff = INFINITY;
      continue;
    }
    // NaN where both have NaN is no difference; NaN in one only is an infinite one.
    at::Tensor d = (x.to(at::kDouble) - y.to(at::kDouble)).abs();
    d = d.masked_fill(x.isnan().logical_and(y.isnan()), 0).nan_to_num(INFINITY);
    if (d.numel() > 0) r.max_weight_diff = std::max(r.max_weight_diff, d.max().item<double>());
    identical = identical && x.scalar_type() == y.scalar_type() && d.numel() == x.numel() &&
                (d.numel() == 0 || d.max().item<double>() == 0);
  }
  r.identical = identical;
  if (identical) {
    r.verdict = "bitwise identical";
    return r;
  }
  r.verdict = "differs by " + formatHuman(std::max(r.max_loss_diff, r.max_weight_diff)) +
              " (max |dloss| " + formatHuman(r.max_loss_diff) + ", max |dweight| " +
              formatHuman(r.max_weight_diff) + ")";
  auto cause = [&](const char* code, const std::string& text) {
    r.cause_codes.push_back(code);
    r.causes.push_back(text);
  };
  if (!r.seeded)
    cause("unseeded", "training.seed is null: each run drew its own seed (" +
                          std::to_string(a.seed) + " and " + std::to_string(b.seed) +
                          "), so initial weights, shuffling and dropout differ; set a seed");
  // Nondeterministic kernels (atomic adds in index_add, scatter, some convolutions) are a CUDA
  // matter: the CPU kernels this engine runs sum in a fixed order for a given thread count.
  const bool cuda = r.device.rfind("cuda", 0) == 0;
  if (!r.deterministic && cuda)
    cause("nondeterministic_kernels",
          "training.deterministic is off: some CUDA kernels (atomic adds in index_add, scatter) "
          "may sum in a different order each time; turn it on to use deterministic algorithms "
          "only");
  if (r.amp)
    cause("amp",
          "training.amp is on: reduced-precision kernels may pick different algorithms "
          "between runs; compare with AMP off");
  if (r.threads > 1)
    cause("threads", "both runs used " + std::to_string(r.threads) +
                         " intra-op threads: parallel float reductions can split work "
                         "differently; compare with training.num_threads=1");
  return r;
}

AmpCompareReport compareAmp(const CompareRequest& req) {
  if (req.rounds < 1 || req.rounds > CompareRequest::kMaxRounds)
    throw Error(ErrorCode::Config, "rounds",
                "--rounds must be 1.." + std::to_string(CompareRequest::kMaxRounds) + ", got " +
                    std::to_string(req.rounds));
  TrainConfig config = baseConfig(req);
  AmpCompareReport r;
  if (!config.training.seed && req.checkpoint.empty()) config.training.seed = drawSeed();
  // Samples/s over the timing that covers more steps: between steps within epochs, or whole
  // epochs' training time (runs of one step per epoch); {rate, steps timed}.
  auto rate = [](const StepsRun& s) {
    const bool epochs = s.epoch_steps > s.timed_steps;
    const double seconds = epochs ? s.epoch_seconds : s.timed_seconds;
    const auto samples = static_cast<double>(epochs ? s.epoch_samples : s.timed_samples);
    const int64_t steps = epochs ? s.epoch_steps : s.timed_steps;
    const bool enough =
        steps >= AmpCompareReport::kMinTimedSteps && seconds >= AmpCompareReport::kMinTimedSeconds;
    return std::make_pair(enough ? samples / seconds : 0.0, enough ? steps : int64_t{0});
  };
  StepsRun off, on;  // the first round's: its losses are compared
  std::vector<double> fp32_rates, amp_rates;
  int64_t timed = -1;
  const bool cancellable = req.cancel != nullptr;
  for (int round = 0; round < req.rounds; ++round) {
    if (round > 0 && cancellable && req.cancel->load()) break;  // the report covers the rounds done
    StepsRun pair[2];
    for (int j = 0; j < 2; ++j) {
      const int run = 2 * round + j;
      config.training.amp = compareAmpRunIsAmp(run);
      StepsRun s = runSteps(config, req, run);
      if (run == 0) config.training.num_threads = s.threads;  // every later run uses the same
      pair[config.training.amp ? 1 : 0] = std::move(s);
      if (cancellable && req.cancel->load()) break;
    }
    if (round > 0 && (pair[0].losses.size() < static_cast<size_t>(req.steps) ||
                      pair[1].losses.size() < static_cast<size_t>(req.steps)))
      break;  // a round cut short by a cancel is not timed
    const auto [fp32_rate, fp32_steps] = rate(pair[0]);
    const auto [amp_rate, amp_steps] = rate(pair[1]);
    const int64_t steps = std::min(fp32_steps, amp_steps);
    timed = timed < 0 ? steps : std::min(timed, steps);
    fp32_rates.push_back(steps > 0 ? fp32_rate : 0.0);
    amp_rates.push_back(steps > 0 ? amp_rate : 0.0);
    if (steps > 0) r.speedups.push_back(amp_rate / fp32_rate);
    ++r.rounds;
    if (round == 0) {
      off = std::move(pair[0]);
      on = std::move(pair[1]);
    }
  }
  const size_t n = std::min(off.losses.size(), on.losses.size());
  r.steps = static_cast<int64_t>(n);
  r.loss_fp32 = off.losses;
  r.loss_amp = on.losses;
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += std::fabs(off.losses[i] - on.losses[i]);
  r.max_loss_diff = maxAbsDiff(off.losses, on.losses, n);
  r.mean_loss_diff = n > 0 ? sum / n : 0;
  r.timed_steps = std::max<int64_t>(0, timed);
  if (r.timed_steps > 0) {
    r.samples_per_second_fp32 = rateSpread(fp32_rates).median;
    r.samples_per_second_amp = rateSpread(amp_rates).median;
    r.speedup_spread = rateSpread(r.speedups);
    r.speedup = r.speedup_spread.median;
  } else {
    r.speedups.clear();
  }
  r.device = off.device;
  r.threads = off.threads;
  r.seed = off.seed;
  const bool cuda = r.device.rfind("cuda", 0) == 0;
  r.amp_kind = cuda ? "fp16 autocast with loss scaling" : "bf16 autocast";
  const RateSpread& sp = r.speedup_spread;
  const std::string rounds = std::to_string(r.rounds) + (r.rounds == 1 ? " round" : " rounds");
  const std::string measured =
      sp.busy ? "Measured over " + rounds + " of " + std::to_string(r.timed_steps) +
                    " timed steps each: the speed-up varied from " +
                    formatNumber(roundTo(sp.low, 0.01)) + "x to " +
                    formatNumber(roundTo(sp.high, 0.01)) + "x (a spread of " +
                    std::to_string(static_cast<int>(std::lround(100 * sp.spread))) +
                    "%, over 20%): the machine was busy, so no single figure holds; close other "
                    "programs and compare again."
              : "Measured: " + formatRate(r.samples_per_second_fp32) + " in float32, " +
                    formatRate(r.samples_per_second_amp) + " with AMP, a speed-up of " +
                    formatNumber(roundTo(r.speedup, 0.01)) + "x (the median of " + rounds +
                    ", spread " + std::to_string(static_cast<int>(std::lround(100 * sp.spread))) +
                    "%) over " + std::to_string(r.timed_steps) + " timed steps each.";
  if (r.timed_steps == 0) {
    r.explanation =
        "The run is too small to time: fewer than " +
        std::to_string(AmpCompareReport::kMinTimedSteps) + " steps or " +
        formatNumber(AmpCompareReport::kMinTimedSeconds) +
        " s of training could be timed in a run (the first step of each epoch follows a "
        "validation and is not timed). Compare more steps (--steps) or a larger dataset; the "
        "loss difference above is still measured.";
  } else if (cuda) {
    r.explanation = measured +
                    " On CUDA, fp16 autocast runs matrix multiplies on tensor cores; small models "
                    "are limited by kernel launches rather than arithmetic and gain less.";
  } else {
    const DeviceInfo info = probeDevices();
    r.explanation =
        measured +
        " On the CPU, autocast runs matrix multiplies in bf16 and keeps weights, "
        "gradients and optimizer state in float32, so every step also converts weights and "
        "activations between float32 and bf16. " +
        std::string(info.bf16_native
                        ? "This CPU has native bf16 instructions (" + info.bf16_flags + ")"
                        : "This CPU has no native bf16 instructions (no avx512_bf16 or amx_bf16): "
                          "bf16 is emulated by converting to float32 around each "
                          "multiply-accumulate") +
        (at::hasMKLDNN()
             ? ", and libtorch's oneDNN kernels do the bf16 GEMMs"
             : ", and this libtorch has no oneDNN, so bf16 GEMMs use generic kernels "
               "while float32 GEMMs use the optimized BLAS (" +
                   (info.blas_name.empty() ? std::string("unknown") : info.blas_name) + ")") +
        ". The loss difference is bf16's rounding (8 bits of mantissa).";
  }
  return r;
}

}  // namespace trainscope

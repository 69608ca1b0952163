// verifyRepro and compareAmp: two in-process runs of K steps each, compared (repro.h).
#include "core/train/repro.h"

#include <ATen/Context.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/errors.h"
#include "core/io/checkpoint.h"
#include "core/io/number_format.h"
#include "core/system/clock.h"
#include "core/system/device_info.h"
#include "core/system/seed.h"
#include "core/train/trainer.h"
#include "core/train/trainer_hooks.h"

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
  int64_t timed_samples = 0;
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
    }
    after_epoch_ = false;
    last_ = now;
    out_.losses.push_back(r.loss);
    const int64_t done = static_cast<int64_t>(out_.losses.size());
    if (request_.progress) request_.progress(run_, done);
    const bool cancelled = request_.cancel && request_.cancel->load();
    if (done >= request_.steps || cancelled) trainer_.stop();
  }
  void onEpoch(const EpochRecord&) override { after_epoch_ = true; }

 private:
  Trainer& trainer_;
  StepsRun& out_;
  const CompareRequest& request_;
  int run_;
  int64_t start_step_ = 0;
  bool after_epoch_ = false;
  SteadyClock::time_point last_{};
};

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
    const at::Tensor d = (x.to(at::kDouble) - y.to(at::kDouble)).abs();
    if (d.numel() > 0) r.max_weight_diff = std::max(r.max_weight_diff, d.max().item<double>());
    identical = identical && at::equal(x, y);
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
  if (!r.deterministic)
    cause("nondeterministic_kernels",
          "training.deterministic is off: some kernels (atomics on CUDA, index_add, scatter) may "
          "sum in a different order each time; turn it on to use deterministic algorithms only");
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
  TrainConfig config = baseConfig(req);
  AmpCompareReport r;
  if (!config.training.seed && req.checkpoint.empty()) config.training.seed = drawSeed();
  config.training.amp = false;
  StepsRun off = runSteps(config, req, 0);
  config.training.num_threads = off.threads;
  config.training.amp = true;
  StepsRun on = runSteps(config, req, 1);
  const size_t n = std::min(off.losses.size(), on.losses.size());
  r.steps = static_cast<int64_t>(n);
  r.loss_fp32 = off.losses;
  r.loss_amp = on.losses;
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += std::fabs(off.losses[i] - on.losses[i]);
  r.max_loss_diff = maxAbsDiff(off.losses, on.losses, n);
  r.mean_loss_diff = n > 0 ? sum / n : 0;
  auto rate = [](const StepsRun& s) {
    return s.timed_seconds > 0 ? s.timed_samples / s.timed_seconds : 0.0;
  };
  r.samples_per_second_fp32 = rate(off);
  r.samples_per_second_amp = rate(on);
  r.speedup =
      r.samples_per_second_fp32 > 0 ? r.samples_per_second_amp / r.samples_per_second_fp32 : 0;
  r.device = off.device;
  r.threads = off.threads;
  r.seed = off.seed;
  const bool cuda = r.device.rfind("cuda", 0) == 0;
  r.amp_kind = cuda ? "fp16 autocast with loss scaling" : "bf16 autocast";
  const std::string measured = "Measured: " + formatRate(r.samples_per_second_fp32) +
                               " in float32, " + formatRate(r.samples_per_second_amp) +
                               " with AMP, a speed-up of " +
                               formatNumber(roundTo(r.speedup, 0.01)) + "x.";
  if (cuda) {
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

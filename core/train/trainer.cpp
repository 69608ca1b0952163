// The training loop (ARCHITECTURE §3): prepare, then per step zero_grad -> forward -> loss ->
// backward -> measure grad norm -> clip -> optimizer step; validation every epoch.
#include "core/train/trainer.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/cuda.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>
#include <torch/utils.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>

#include "core/config/config_json.h"
#include "core/data/dataset.h"
#include "core/errors.h"
#include "core/io/run_writer.h"
#include "core/model/model.h"
#include "core/system/device_info.h"
#include "core/system/seed.h"
#include "core/system/torch_compat.h"
#include "core/train/grad_norm.h"
#include "core/train/records_json.h"
#include "core/train/run_control.h"
#include "core/train/trainer_hooks.h"

namespace trainscope {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Wall-clock values are recorded to the microsecond (and rates to 1e-3): finer digits are noise.
double roundTo(double value, double unit) { return std::round(value / unit) / (1.0 / unit); }

std::string isoTimeNow() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &local);
  return buf;
}

std::string hostName() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

torch::Device resolveDevice(const std::string& spec) {
  bool cuda = torch::cuda::is_available();
  if (spec == "auto") return cuda ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
  if (spec == "cpu") return torch::Device(torch::kCPU);
  if (!cuda)
    throw Error(ErrorCode::Config, "training.device",
                "training.device is '" + spec +
                    "' but CUDA is not available: " + probeDevices().cuda_unavailable_reason);
  int index = spec == "cuda" ? 0 : std::stoi(spec.substr(5));
  if (index >= static_cast<int>(torch::cuda::device_count()))
    throw Error(ErrorCode::Config, "training.device",
                "training.device is '" + spec + "' but only " +
                    std::to_string(torch::cuda::device_count()) + " CUDA device(s) exist");
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
}

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerConfig& c,
                                                       const std::vector<torch::Tensor>& params) {
  if (c.name == "sgd") {
    return std::make_unique<torch::optim::SGD>(
        params, torch::optim::SGDOptions(c.lr).momentum(c.momentum).weight_decay(c.weight_decay));
  }
  if (c.name == "adam") {
    return std::make_unique<torch::optim::Adam>(params, torch::optim::AdamOptions(c.lr)
                                                            .betas({c.betas[0], c.betas[1]})
                                                            .weight_decay(c.weight_decay));
  }
  if (c.name == "adamw") {
    return std::make_unique<torch::optim::AdamW>(params, torch::optim::AdamWOptions(c.lr)
                                                             .betas({c.betas[0], c.betas[1]})
                                                             .weight_decay(c.weight_decay));
  }
  throw Error(ErrorCode::Config, "optimizer.name", "unknown optimizer.name '" + c.name + "'");
}

}  // namespace

struct Trainer::Impl {
  TrainConfig config;
  TrainerOptions options;
  std::vector<TrainerObserver*> observers;
  RunControl control;
  std::atomic<RunState> state{RunState::Idle};
  TrainerHooks hooks;

  // ---- run state (training thread only) ----
  torch::Device device{torch::kCPU};
  PreparedData data;
  torch::nn::Sequential model{nullptr};
  ModelSummary model_summary;  ///< described once, for RunInfo and run.json
  std::vector<torch::Tensor> params;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::unique_ptr<FlatGradients> grads;
  at::Generator shuffle_gen;
  std::unique_ptr<RunWriter> writer;
  std::string non_finite_policy;
  int64_t seed = 0;
  int num_threads = 1;
  int64_t global_step = 0;
  int64_t epochs_completed = 0;
  int64_t best_epoch = 0;
  std::optional<double> best_val_loss;
  std::optional<EpochRecord> last_epoch;
  Clock::time_point run_start;
  double paused_seconds = 0;        ///< time spent waiting while paused (excluded from timings)
  bool stop_on_non_finite = false;  ///< set by a step under policy "stop": end at once

  void prepare();
  RunSummary loop();
  bool trainStep(const TensorPair& batch, int64_t epoch, int64_t b, int64_t batches,
                 double& loss_sum, int64_t& loss_count);
  std::pair<double, std::optional<double>> evaluate(const TensorPair& split);
  double currentLr() const { return optimizer->param_groups().front().options().get_lr(); }
  double activeSeconds() const { return secondsSince(run_start) - paused_seconds; }

  void emit(const Event& e) {
    if (writer) writer->writeEvent(e);
    for (auto* o : observers) o->onEvent(e);
  }
  void emit(const std::string& kind, const std::string& message, int64_t epoch) {
    Event e;
    e.step = global_step;
    e.epoch = epoch;
    e.kind = kind;
    e.message = message;
    emit(e);
  }
};

Trainer::Trainer(TrainConfig config, TrainerOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  impl_->options = std::move(options);
}

Trainer::~Trainer() = default;

void Trainer::addObserver(TrainerObserver* observer) { impl_->observers.push_back(observer); }

void Trainer::pause() { impl_->control.post({CommandKind::Pause}); }
void Trainer::resume() { impl_->control.post({CommandKind::Resume}); }
void Trainer::stepBatch() { impl_->control.post({CommandKind::StepBatch}); }
void Trainer::stepEpoch() { impl_->control.post({CommandKind::StepEpoch}); }
void Trainer::stop(StopReason reason) { impl_->control.post({CommandKind::Stop, reason}); }
RunState Trainer::state() const { return impl_->state.load(); }

void TrainerAccess::setHooks(Trainer& trainer, TrainerHooks hooks) {
  trainer.impl_->hooks = std::move(hooks);
}

void Trainer::Impl::prepare() {
  TrainingConfig& t = config.training;
  non_finite_policy = t.non_finite.value_or(options.default_non_finite);
  t.non_finite = non_finite_policy;
  seed = t.seed ? *t.seed : drawSeed();
  t.seed = seed;  // recorded in config.json so the run can be repeated from it

  // Thread count and devices are thread-local settings: applied here, on the training thread.
  num_threads =
      t.num_threads ? static_cast<int>(*t.num_threads) : defaultThreadCount(options.reserved_cores);
  // Recorded like the seed: float sums depend on how work is split across threads, so a run is
  // bit-reproducible from config.json only with the same thread count.
  t.num_threads = num_threads;
  at::set_num_threads(num_threads);
  device = resolveDevice(t.device);

  data = loadData(config.data);
  if (device.is_cuda()) {
    for (TensorPair* p : {&data.train, &data.val, &data.test})
      if (p->size() > 0) *p = {p->x.to(device), p->y.to(device)};
  }

  seedEverything(seed);
  int64_t out_features = data.classification ? data.summary.n_classes : 1;
  model = buildModel(config.model, data.summary.n_features, out_features);
  model->to(device);
  params = model->parameters();
  model_summary = summarizeModel(model);
  grads = std::make_unique<FlatGradients>(params);
  optimizer = makeOptimizer(config.optimizer, params);
  // The shuffle generator is its own stream of the training seed: shuffling does not consume
  // the global generator that dropout draws from.
  shuffle_gen =
      at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(seed) ^ 0x5DEECE66DULL);
}

std::pair<double, std::optional<double>> Trainer::Impl::evaluate(const TensorPair& split) {
  model->eval();
  torch::NoGradGuard no_grad;
  double loss_sum = 0;
  int64_t correct = 0;
  const int64_t n = split.size();
  const int64_t chunk = std::max<int64_t>(config.training.batch_size, 1024);
  for (int64_t start = 0; start < n; start += chunk) {
    int64_t len = std::min(chunk, n - start);
    torch::Tensor x = split.x.narrow(0, start, len), y = split.y.narrow(0, start, len);
    torch::Tensor out = model->forward(x);
    if (data.classification) {
      loss_sum +=
          torch::nn::functional::cross_entropy(
              out, y, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
              .item<double>();
      correct += out.argmax(1).eq(y).sum().item<int64_t>();
    } else {
      loss_sum += torch::nn::functional::mse_loss(
                      out, y, torch::nn::functional::MSELossFuncOptions().reduction(torch::kSum))
                      .item<double>();
    }
  }
  std::optional<double> accuracy;
  if (data.classification) accuracy = n > 0 ? static_cast<double>(correct) / n : 0.0;
  return {n > 0 ? loss_sum / n : std::nan(""), accuracy};
}

bool Trainer::Impl::trainStep(const TensorPair& batch, int64_t epoch, int64_t b, int64_t batches,
                              double& loss_sum, int64_t& loss_count) {
  // zero_grad -> forward -> loss -> backward
  grads->zero();
  torch::Tensor out = model->forward(batch.x);
  torch::Tensor loss = data.classification ? torch::nn::functional::cross_entropy(out, batch.y)
                                           : torch::nn::functional::mse_loss(out, batch.y);
  loss.backward();
  if (hooks.after_backward) hooks.after_backward(params);

  // measure (the value clip_grad_norm_ returns), then clip
  StepRecord r;
  r.loss = loss.item<double>();
  r.grad_norm = grads->norm();
  r.grad_norm_clipped = r.grad_norm;
  bool finite = std::isfinite(r.loss) && std::isfinite(r.grad_norm);
  if (finite && config.training.clip.enabled) {
    double coef = clipCoefficient(r.grad_norm, config.training.clip.max_norm);
    if (coef < 1.0) {
      grads->scale(coef);
      r.grad_norm_clipped = r.grad_norm * coef;
    }
  }
  if (hooks.after_clip) hooks.after_clip(params);

  // optimizer step, skipped when a value is non-finite (it would poison the weights)
  r.lr = currentLr();
  if (finite) optimizer->step();
  ++global_step;

  r.step = global_step;
  r.epoch = epoch;
  r.batch = b + 1;
  r.batches_per_epoch = batches;
  r.batch_samples = batch.size();
  r.applied = finite;
  r.elapsed_seconds = roundTo(activeSeconds(), 1e-6);
  // Every batch counts, as in ARCHITECTURE §4 (and Lightning): a non-finite loss makes the
  // epoch's train_loss non-finite, which is what happened.
  loss_sum += r.loss * static_cast<double>(r.batch_samples);
  loss_count += r.batch_samples;
  if (writer) writer->writeStep(r);
  for (auto* o : observers) o->onStep(r);

  if (!finite) {
    Event e;
    e.step = global_step;
    e.epoch = epoch;
    e.kind = "non_finite";
    bool loss_bad = !std::isfinite(r.loss);
    e.what = loss_bad ? "loss" : "grad_norm";
    e.value = loss_bad ? r.loss : r.grad_norm;
    e.message = "non-finite " + e.what + " (" + formatNumber(*e.value) + ") at step " +
                std::to_string(global_step) + ", epoch " + std::to_string(epoch) +
                "; the optimizer step was skipped. Usual causes: learning rate too high, inputs "
                "not normalised, no gradient clipping. Policy: " +
                non_finite_policy;
    emit(e);
    if (non_finite_policy == "stop") {
      stop_on_non_finite = true;
    } else if (non_finite_policy == "pause") {
      control.pauseFromEngine();
    }
  }
  return finite;
}

RunSummary Trainer::Impl::loop() {
  const int64_t epochs = config.training.epochs;
  BatchIterator iter(data.train, config.training.batch_size, /*shuffle=*/true);
  const int64_t batches = iter.batchesPerEpoch();

  RunInfo info;
  info.run_dir = options.run_dir.string();
  info.seed = seed;
  info.device = device.str();
  info.num_threads = num_threads;
  info.torch_version = compat::torchVersion();
  info.epochs = epochs;
  info.batches_per_epoch = batches;
  info.batch_size = config.training.batch_size;
  info.data = data.summary;
  info.model = model_summary;
  info.config_json = configToJson(config).dump();
  for (auto* o : observers) o->onRunStarted(info);
  emit("run_started",
       "run started: " + config.name + ", seed " + std::to_string(seed) + ", " +
           std::to_string(data.summary.n_train) + " training samples, " + device.str() + ", " +
           std::to_string(num_threads) + (num_threads == 1 ? " thread" : " threads"),
       0);

  RunSummary summary;
  summary.stop_reason = StopReason::Completed;
  bool stopped = false;
  auto on_transition = [&](const RunControl::Transitions& t) {
    if (t.paused) {
      state = RunState::Paused;
      emit("paused", "paused at step " + std::to_string(global_step), epochs_completed + 1);
    }
    if (t.resumed) {
      state = RunState::Running;
      emit("resumed", "resumed at step " + std::to_string(global_step), epochs_completed + 1);
    }
  };

  for (int64_t epoch = 1; epoch <= epochs && !stopped; ++epoch) {
    iter.startEpoch(shuffle_gen);
    model->train();
    double loss_sum = 0;
    int64_t loss_count = 0;
    Clock::time_point epoch_start = Clock::now();
    double epoch_paused = 0;
    for (int64_t b = 0; b < batches; ++b) {
      Clock::time_point wait_start = Clock::now();
      RunControl::Decision d = control.beforeStep(on_transition);
      double waited = secondsSince(wait_start);
      epoch_paused += waited;
      paused_seconds += waited;
      if (d == RunControl::Decision::Stop) {
        stopped = true;
        break;
      }
      if (state == RunState::Paused && !control.paused()) state = RunState::Running;
      trainStep(iter.batch(b), epoch, b, batches, loss_sum, loss_count);
      if (stop_on_non_finite) {  // no validation, no epoch row after a non-finite stop
        stopped = true;
        break;
      }
    }
    if (stopped) break;
    double train_seconds = secondsSince(epoch_start) - epoch_paused;

    auto [val_loss, val_acc] = evaluate(data.val);
    EpochRecord r;
    r.epoch = epoch;
    r.step = global_step;
    r.train_loss = loss_count > 0 ? loss_sum / static_cast<double>(loss_count) : std::nan("");
    r.val_loss = val_loss;
    r.val_accuracy = val_acc;
    r.lr = currentLr();
    r.epoch_seconds = roundTo(secondsSince(epoch_start) - epoch_paused, 1e-6);
    r.samples_per_second = train_seconds > 0 ? roundTo(data.train.size() / train_seconds, 1e-3) : 0;
    epochs_completed = epoch;
    last_epoch = r;
    if (std::isfinite(val_loss) && (!best_val_loss || val_loss < *best_val_loss)) {
      best_val_loss = val_loss;
      best_epoch = epoch;
    }
    if (writer) writer->writeEpoch(r);
    for (auto* o : observers) o->onEpoch(r);
    control.afterEpoch();
  }

  if (stopped) {
    summary.stop_reason = stop_on_non_finite ? StopReason::NonFinite : control.stopReason();
    if (summary.stop_reason != StopReason::NonFinite) {
      emit("stopped",
           std::string(summary.stop_reason == StopReason::Interrupted ? "interrupted" : "stopped") +
               " at step " + std::to_string(global_step),
           epochs_completed + (global_step > epochs_completed * batches ? 1 : 0));
    }
  }
  return summary;
}

RunSummary Trainer::run() {
  Impl& m = *impl_;
  m.run_start = Clock::now();
  m.prepare();  // throws Error for bad config/data before anything is written

  nlohmann::json config_json = configToJson(m.config);
  if (!m.options.run_dir.empty()) {
    DeviceInfo dev = probeDevices();
    nlohmann::json run_json = {
        {"trainscope_version", trainscopeVersion()},
        {"torch_version", compat::torchVersion()},
        {"device", m.device.str()},
        {"cuda_available", dev.cuda_available},
        {"num_threads", m.num_threads},
        {"cpu", dev.cpu_name},
        {"blas_library", dev.blas_library},
        {"start_time", isoTimeNow()},
        {"host", hostName()},
        {"front_end", m.options.front_end},
        {"command_line", m.options.command_line},
        {"seed", m.seed},
        {"data",
         {{"source", m.data.summary.source},
          {"task", m.data.summary.task},
          {"n_train", m.data.summary.n_train},
          {"n_val", m.data.summary.n_val},
          {"n_test", m.data.summary.n_test},
          {"n_features", m.data.summary.n_features},
          {"n_classes", m.data.summary.n_classes}}},
        {"model",
         {{"description", m.model_summary.description},
          {"parameter_count", m.model_summary.parameter_count}}},
    };
    m.writer = std::make_unique<RunWriter>(m.options.run_dir, config_json, run_json);
  }

  m.state = RunState::Running;
  RunSummary summary;
  try {
    summary = m.loop();
    // The test set is evaluated once at the end, on the final model, when the run trained at
    // least one whole epoch and did not end on a non-finite value.
    if (m.data.test.size() > 0 && m.epochs_completed > 0 &&
        summary.stop_reason != StopReason::NonFinite) {
      auto [test_loss, test_acc] = m.evaluate(m.data.test);
      summary.test_loss = test_loss;
      summary.test_accuracy = test_acc;
    }
  } catch (const c10::Error& e) {
    summary.stop_reason = StopReason::Error;
    summary.error = e.what_without_backtrace();
  } catch (const std::exception& e) {
    summary.stop_reason = StopReason::Error;
    summary.error = e.what();
  }
  summary.epochs_completed = m.epochs_completed;
  summary.global_step = m.global_step;
  summary.best_epoch = m.best_epoch;
  summary.best_val_loss = m.best_val_loss;
  summary.final_metrics = m.last_epoch;
  summary.wall_seconds = roundTo(secondsSince(m.run_start), 1e-6);
  summary.seed = m.seed;

  std::string message = "finished: " + toString(summary.stop_reason) + " after " +
                        std::to_string(summary.epochs_completed) +
                        (summary.epochs_completed == 1 ? " epoch, " : " epochs, ") +
                        std::to_string(summary.global_step) + " steps";
  if (summary.test_accuracy) message += ", test accuracy " + formatNumber(*summary.test_accuracy);
  if (summary.test_loss) message += ", test loss " + formatNumber(*summary.test_loss);
  if (!summary.error.empty()) message += ": " + summary.error;
  try {
    Event e;
    e.step = m.global_step;
    e.epoch = m.epochs_completed;
    e.kind = summary.stop_reason == StopReason::Error ? "error" : "finished";
    e.message = message;
    e.value = summary.test_accuracy;
    if (e.value) e.what = "test_accuracy";
    m.emit(e);
    if (m.writer) m.writer->writeSummary(summary);
  } catch (const std::exception& e) {
    if (summary.stop_reason != StopReason::Error) {
      summary.stop_reason = StopReason::Error;
      summary.error = e.what();
    }
  }
  m.writer.reset();  // close files before anyone reads them
  m.state = RunState::Finished;
  for (auto* o : m.observers) o->onRunFinished(summary);
  return summary;
}

}  // namespace trainscope

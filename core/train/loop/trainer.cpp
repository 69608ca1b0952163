// The Trainer orchestrates a run (ARCHITECTURE §3). This file: set-up (data, model, optimizer
// into a TrainState, a resumed checkpoint), the run directory, the thread-safe commands and the
// end of the run. The epoch loop is in trainer_loop.cpp, the private state in trainer_impl.h;
// the parts live in their own files: step phases (step.*), the loss meter (meters.h), timers
// (system/clock.h), the optimizer factory (optim/), device resolution (system/device.*),
// run.json (io/run_description.*), checkpoints (checkpointing.*, train_state_io.*).
#include "core/train/trainer.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <ATen/Parallel.h>

#include <cmath>
#include <exception>
#include <thread>

#include "core/config/config_json.h"
#include "core/data/augment/transforms.h"
#include "core/data/batches.h"
#include "core/data/class_balance.h"
#include "core/data/data_fingerprint.h"
#include "core/data/dataset.h"
#include "core/data/sources.h"
#include "core/data/split_record.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/train/state/checkpoint.h"
#include "core/model/model.h"
#include "core/optim/optimizer_factory.h"
#include "core/run/epoch_thinning.h"
#include "core/run/records_json.h"
#include "core/run/run_description.h"
#include "core/run/run_dir.h"
#include "core/train/loop/data_warnings.h"
#include "core/model/torchscript.h"
#include "core/run/run_lock.h"
#include "core/run/run_resume.h"
#include "core/system/clock.h"
#include "core/system/device.h"
#include "core/system/device_info.h"
#include "core/system/seed.h"
#include "core/train/loop/epoch_end.h"
#include "core/train/loop/memory_check.h"
#include "core/train/loop/meters.h"
#include "core/train/loop/run_control.h"
#include "core/train/loop/distributions_part.h"
#include "core/train/loop/system_csv.h"
#include "core/train/loop/trainer_hooks.h"
#include "core/train/teaching/mistakes.h"
#include "core/data/file_rows.h"
#include "core/io/row_file.h"
#include "core/train/loop/trainer_impl.h"

#include "core/data/chance.h"
#include "core/train/probes/shapes.h"
#include "core/train/probes/thread_choice.h"
#include "core/train/state/checkpointing.h"
#include "core/train/state/train_state.h"
#include "core/train/state/train_state_io.h"
#include "core/train/state/weights_import.h"
#include "core/train/step/step.h"

namespace trainscope {

Trainer::Trainer(TrainConfig config, TrainerOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  impl_->options = std::move(options);
}

Trainer::~Trainer() = default;

void Trainer::addObserver(TrainerObserver* observer) { impl_->observers.push_back(observer); }

void Trainer::pause() { impl_->control.post(command::Pause{}); }
void Trainer::resume() { impl_->control.post(command::Resume{}); }
void Trainer::stepBatch() { impl_->control.post(command::StepBatch{}); }
void Trainer::stepEpoch() { impl_->control.post(command::StepEpoch{}); }
void Trainer::stop(StopReason reason, const std::string& why) {
  impl_->control.post(command::Stop{reason, why});
}
void Trainer::pauseAfterEpoch(int64_t epoch) {
  impl_->control.post(command::PauseAfterEpoch{epoch});
}
void Trainer::setPace(double steps_per_second) {
  impl_->control.post(command::SetPace{steps_per_second});
}
void Trainer::saveCheckpoint(const std::filesystem::path& file) {
  impl_->control.post(command::SaveCheckpoint{file.string()});
}

void Trainer::setLearningRate(double lr) {
  if (lr > 0) impl_->control.post(command::SetLearningRate{lr});
}

void Trainer::setAmp(bool enabled) { impl_->control.post(command::SetAmp{enabled}); }

void TrainerAccess::setHooks(Trainer& trainer, TrainerHooks hooks) {
  trainer.impl_->hooks = std::move(hooks);
}

void Trainer::Impl::prepare(bool check_only) {
  if (!options.init_weights.empty() && !options.resume_from.empty())
    throw Error(ErrorCode::Config, "init_weights",
                "init_weights cannot be combined with resume_from: a resumed run continues "
                "with the checkpoint's weights");
  TrainingConfig& t = config.training;
  t.non_finite = t.non_finite.value_or(options.default_non_finite);
  state.mistakes = parseMistakes(config.teaching.mistakes);
  if (state.mistakes.any() && options.distributed)
    throw Error(ErrorCode::Config, "teaching.mistakes",
                "teaching.mistakes are for single-process runs (a classroom demonstration); "
                "remove them for a distributed run");
  if (options.distributed) dist = DistContext::join(*options.distributed, config.distributed);
  // Before the seed is drawn: an unseeded run (null everywhere) agrees, different seeds do not.
  if (dist) checkConfigsAgree(*dist, configToJson(config).dump());
  state.seed = t.seed ? *t.seed : drawSeed();
  if (dist) state.seed = broadcastSeed(*dist, state.seed);  // an unseeded run: rank 0's draw
  t.seed = state.seed;  // recorded in config.json so the run can be repeated from it

  // Data and model are prepared on one intra-op thread whatever the run's count, so that they
  // are the same for every count (a float reduction's order depends on the count) and an
  // "auto" run equals a rerun with the count it chose. Thread count and devices are
  // thread-local settings: applied here, on the training thread.
  at::set_num_threads(1);
  state.device = resolveDevice(t.device);
  setDeterministic(t.deterministic, state.device.is_cuda());

  config.data = withAbsolutePaths(config.data);  // config.json names the files wherever it is read
  if (config.model.torchscript.path && !config.model.torchscript.path->empty())
    config.model.torchscript.path =
        std::filesystem::absolute(*config.model.torchscript.path).lexically_normal().string();
  data = loadData(config.data);
  // What the data report warns about (leakage, duplicates ...) is said by the run too, before
  // the first step: events.jsonl, the dashboard's events, the report, the runs table.
  for (Event& e : dataWarningEvents(data)) start_events.push_back(std::move(e));
  if (config.data.augment.any()) {  // refused here, before the first step (--dry-run too)
    augmentation =
        std::make_shared<const augment::Augmentation>(config.data.augment, data.summary.image_shape);
    augment::requirePixels(data.train.x);
    data.summary.augmentation = augmentation->describe();
    data.summary.augmented_splits = {"train"};
    if (state.mistakes.augment_validation) data.summary.augmented_splits.push_back("val");
    const std::vector<double>& jitter = config.data.augment.color_jitter;
    if (data.summary.image_shape.at(0) == 1 && jitter.size() == 4 && (jitter[2] > 0 || jitter[3] > 0))
      start_events.push_back({0, 0, EventKind::DataWarning,
                              "data: data.augment.color_jitter's saturation and hue leave "
                              "one-channel (grayscale) images unchanged, as torchvision does",
                              std::nullopt, "note", ""});
  }
  // The files the run reads are those its source run read: a resumed run compares
  // with its checkpoint's record, a replay with the recorded run's. A changed file is refused
  // (Error(Data)) unless allowed, then said as a warning of this run.
  {
    std::vector<DataFile> expected = options.expected_data;
    std::string from = options.expected_data_from.empty() ? "the recorded run"
                                                          : options.expected_data_from;
    if (!options.resume_from.empty()) {
      expected = inspectCheckpoint(options.resume_from).data_files;
      from = "the checkpoint's run (" + options.resume_from.string() + ")";
    }
    for (const std::string& change :
         checkDataUnchanged(expected, data.summary.files, from, options.allow_changed_data)) {
      Event e;
      e.kind = EventKind::DataWarning;
      e.what = "data_changed";
      for (const DataFile& f : data.summary.files)
        if (change.rfind(f.key + " ", 0) == 0) e.file = f.path;
      e.message = "data: " + change + " (--allow-changed-data): the splits and metrics may "
                  "differ from the source run's";
      start_events.push_back(std::move(e));
    }
  }
  // training.monitor must exist for this task: accuracy for classes, R²/MAE/RMSE for
  // a regression target.
  if (const std::string& m = t.monitor; m != "val_loss") {
    const bool for_classes = m == "val_accuracy";
    if (for_classes != data.classification)
      throw Error(ErrorCode::Config, "training.monitor",
                  "training.monitor is " + m + ", a metric of " +
                      (for_classes ? "classification" : "regression") + ", but this data is a " +
                      (data.classification ? "classification" : "regression") +
                      " task; use val_loss or " +
                      (data.classification ? "val_accuracy" : "val_r2, val_mae or val_rmse"));
  }
  if (state.mistakes.shuffled_labels) shuffleLabels(data.train, state.seed);  // teaching
  // Imbalanced classes: the loss's class weights and the sampler, from the training labels
  class_weights = classWeights(t.class_weights, data.train.y, data.summary.n_classes,
                               data.classification);
  if (!class_weights.empty())
    state.class_weights = classWeightTensor(class_weights).to(state.device);
  if (config.data.sampler == "weighted")
    sample_weights =
        balancedSampleWeights(data.train.y, data.summary.n_classes, data.classification);
  if (state.device.is_cuda() && data.train.on_disk)
    throw Error(ErrorCode::Config, "data.memory_map",
                "data.memory_map: data read from disk (" + data.train.on_disk->file->path() +
                    ") trains on the CPU in this version; set training.device cpu, or raise "
                    "data.in_memory_limit to read it into memory");
  if (state.device.is_cuda()) {
    for (TensorPair* p : {&data.train, &data.val, &data.test})
      if (p->size() > 0) {  // keeps x_offset/x_scale: uint8 images are converted on the device
        p->x = p->x.to(state.device);
        p->y = p->y.to(state.device);
      }
  }

  // Before the model is allocated: a run that cannot fit is refused naming the estimate.
  if (auto warning = checkRunMemory(config, data, memory_estimate_bytes))
    start_events.push_back(*warning);
  seedEverything(state.seed);
  state.model = buildModel(config.model, data.summary);
  // What inspect-model warns about (a traced module, frozen parameters), said by the run.
  if (const ScriptModuleInfo* script = torchScriptInfo(*state.model)) {
    for (size_t i = 0; i < script->warnings.size() && i < script->warning_codes.size(); ++i) {
      Event e;
      e.kind = EventKind::ModelWarning;
      e.what = script->warning_codes[i];
      if (e.what == "frozen_parameters") e.value = static_cast<double>(script->frozen_parameters);
      e.message = "model " + script->file + ": " + script->warnings[i];
      e.file = script->file;
      start_events.push_back(std::move(e));
    }
  }
  state.model->to(state.device);
  state.params = state.model->parameters();
  model_summary = state.model->summary();
  // Shape first: an output that does not fit the data is named with both shapes now, not as a
  // loss error at step 1 (a TorchScript module or a conv stack written for other inputs).
  checkModelFitsData(*state.model, data.train, data.summary, config.model.kind, t.batch_size);
  checkLastBatch(*state.model, data.train, t.batch_size, t.drop_last, dist ? dist->worldSize() : 1);
  state.grads = std::make_unique<FlatGradients>(state.params);
  // teaching.mistakes lr_x1000 / lr_x1e-6: the rate the run starts with (config.json keeps
  // optimizer.lr as set, with the mistake named beside it).
  TrainConfig started = config;
  started.optimizer.lr *= state.mistakes.lr_factor;
  state.optimizer = makeOptimizer(started.optimizer, state.params);
  if (!options.init_weights.empty()) imported = importWeights(*state.model, options.init_weights);
  trainscope::setAmp(state, t.amp);  // before a resume: its scaler state goes into the scaler
  // The shuffle generator is its own stream of the training seed: shuffling does not consume
  // the global generator that dropout draws from.
  state.shuffle_gen =
      at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(state.seed) ^ 0x5DEECE66DULL);
  state.epoch_start_shuffle_state = state.shuffle_gen.get_state();
  prepareSchedules(state, started);  // scheduler, early stopping, overfitting watch

  if (!options.resume_from.empty())
    source_run_dir =
        resumeState(state, config.optimizer.name, options.resume_from,
                    batchesPerEpoch(data.summary.n_train, t.batch_size, 1, t.drop_last), t.epochs);
  if (check_only) return;
  if (dist) {  // same data and config everywhere, then rank 0's initial (or loaded) weights
    checkRanksAgree(*dist, {{"training samples", data.summary.n_train},
                            {"validation samples", data.summary.n_val},
                            {"test samples", data.summary.n_test},
                            {"parameters", model_summary.parameter_count},
                            {"training.batch_size", t.batch_size},
                            {"training.epochs", t.epochs},
                            {"training.grad_accum_steps", t.grad_accum_steps},
                            {"global step", state.global_step}});
    broadcastModel(*dist, *state.model);
  }
  thread_choice = chooseThreadCount(state, data.train, data.classification, config,
                                    options.available_cores, options.reserved_cores);
  state.dist = dist.get();  // from here on every step all-reduces its gradients
}

void Trainer::Impl::describe() {
  RunInfo& i = info;
  i.run_dir = options.run_dir.string();
  i.seed = state.seed;
  i.device = state.device.str();
  i.num_threads = state.num_threads;
  i.thread_choice = thread_choice;
  describeMachine(i);
  i.front_end = options.front_end;
  i.command_line = options.command_line;
  i.epochs = config.training.epochs;
  i.batch_size = config.training.batch_size;
  i.grad_accum_steps = config.training.grad_accum_steps;
  i.drop_last = config.training.drop_last;
  i.class_weights = class_weights;
  i.sampler = config.data.sampler;
  i.data_workers = chooseWorkers(config.data, data.train.on_disk != nullptr);
  i.prefetch = config.data.prefetch;
  if (dist) describeGroup(*dist, i);
  i.effective_batch_size = i.batch_size * i.grad_accum_steps * i.world_size;
  i.amp = state.amp;
  i.amp_kind = describeAmp(state);
  i.deterministic = config.training.deterministic;
  i.mistakes = config.teaching.mistakes;
  i.memory_estimate_bytes = memory_estimate_bytes;
  i.data = data.summary;
  i.model = model_summary;
  i.config_json = configToJson(config).dump();
  if (!options.resume_from.empty())
    i.resumed_from = std::filesystem::absolute(options.resume_from).string();
  if (imported) {
    i.init_weights = std::filesystem::absolute(imported->file).string();
    i.init_weights_form = toString(imported->form);
    i.init_weights_tensors = static_cast<int64_t>(imported->tensors.size());
  }
  i.start_step = state.global_step;
  i.start_epoch = state.epochs_completed;
  i.history = state.history;
}

void Trainer::Impl::openRunDir() {
  if (options.run_dir.empty() || (dist && dist->rank() != 0)) return;  // rank 0 alone writes
  RunPrefix prefix;  // read before this run's files exist
  if (!options.resume_from.empty()) {
    // Temp files a killed run left next to the checkpoint, when that is a run's checkpoints/
    // folder that no live run holds (elsewhere a live dashboard's Save... may be writing).
    const auto folder = std::filesystem::absolute(options.resume_from).parent_path();
    if (folder.filename() == "checkpoints" && whyNotRunDirectory(folder.parent_path()).empty() &&
        !RunDirLock::holder(folder.parent_path()))
      removeStaleCheckpointTemps(folder);
    const auto source = findSourceRunDir(source_run_dir, options.resume_from);
    prefix = runPrefix(source, state.global_step, historyWithBest(state.history, state.best_record));
    if (!prefix.from_source) start_events.push_back(sourceRunMissingEvent());
  }
  auto files = std::make_unique<RunFilesPart>(*this, options.run_dir, configToJson(config),
                                              toJson(info), std::move(prefix));
  run_files = files.get();
  parts.push_back(std::move(files));
  writeFileAtomic(options.run_dir / "split.json", splitJson(data, config.data).dump() + "\n");
}

void Trainer::Impl::addParts() {
  auto watch = std::make_unique<GradientWatchPart>(*this, chanceLevels(data));
  step_watch = watch->stepWatch();
  parts.push_back(std::move(watch));
  for (const ThreadRate& r : thread_choice.rates)  // the slowdown watch compares with this
    if (r.threads == thread_choice.threads)
      parts.push_back(std::make_unique<ThroughputPart>(*this, r.samples_per_second, r.threads));
  const bool writes = !options.run_dir.empty() && !(dist && dist->rank() != 0);
  auto saves = std::make_unique<CheckpointPart>(
      *this, config.checkpoint,
      writes ? options.run_dir / "checkpoints" : std::filesystem::path());
  checkpoints = saves.get();
  parts.push_back(std::move(saves));
  if (config.training.early_stopping.restore_best_weights)
    parts.push_back(std::make_unique<RestoreBestPart>(*this));
  if (options.model_view)
    parts.push_back(std::make_unique<ModelViewPart>(*this, options.model_view_interval_s));
  if (writes)  // system.csv
    parts.push_back(std::make_unique<SystemCsvPart>(options.run_dir, info.num_threads));
  // The detail to the dashboard, and a classification run's evaluation.json and PR curves.
  const bool to_observers = options.validation_detail && !observers.empty();
  RunFilesPart* files = writes && data.classification ? run_files : nullptr;
  if (!dist && (to_observers || files))
    parts.push_back(std::make_unique<ValidationDetailPart>(*this, to_observers, files));
  // Percentiles of weights, gradients and activations: the Distributions view, histograms.
  const int64_t every = config.training.distributions_every.value_or(0);  // 0: automatic
  const bool distributions_seen = !observers.empty() && !(dist && dist->rank() != 0);
  if (config.training.distributions_every != 0 && (writes || distributions_seen))
    parts.push_back(std::make_unique<DistributionsPart>(*this, every, distributions_seen,
                                                        writes ? run_files : nullptr));
}

CheckpointContext Trainer::Impl::checkpointContext() const {
  CheckpointContext c{configToJson(config).dump(), config.optimizer.name,
                      options.run_dir.empty()
                          ? std::string()
                          : std::filesystem::absolute(options.run_dir).lexically_normal().string(),
                      data.summary};
  for (const auto& p : parts) p->addToCheckpoint(c);
  return c;
}

Event Trainer::Impl::sourceRunMissingEvent() const {
  const std::string file = options.resume_from.string();
  std::string message = "the run directory that wrote " + file + " was not found (the checkpoint ";
  message += source_run_dir.empty() ? "names none" : "names " + source_run_dir;
  message +=
      ", and the file is not in a run's checkpoints folder): steps.csv and layers.csv of "
      "this run start after step " +
      std::to_string(state.global_step) +
      " and metrics.csv is rebuilt from the checkpoint's epoch history";
  const int64_t stride = epochStride(state.epochs_completed);
  if (stride > 1)
    message += " (which keeps every epoch up to " + std::to_string(kEpochCapacity) +
               ", then one in every " + std::to_string(stride) + ", so metrics.csv has " +
               std::to_string(historyWithBest(state.history, state.best_record).size()) +
               " of the " + std::to_string(state.epochs_completed) + " epochs)";
  Event e{state.global_step, state.epochs_completed, EventKind::CheckpointLoaded, message,
          std::nullopt, "source_run_missing", file};
  return e;
}

void Trainer::Impl::finish(RunSummary& summary) {
  summary.epochs_completed = state.epochs_completed;
  summary.global_step = state.global_step;
  summary.best_epoch = state.best_epoch;
  // The validation loss of best.pt's epoch (the lowest one unless training.monitor says else).
  summary.best_val_loss.reset();
  if (state.best_record && state.best_record->epoch == state.best_epoch)
    summary.best_val_loss = state.best_record->val_loss;
  summary.final_metrics = state.last_epoch;
  summary.wall_seconds = roundTo(run_timer.wallSeconds(), 1e-6);
  summary.seed = state.seed;
  for (auto& p : parts) p->addToSummary(summary);  // skipped steps, diagnosis, failed saves

  std::string message = "finished: " + toString(summary.stop_reason) + " after " +
                        std::to_string(summary.epochs_completed) +
                        (summary.epochs_completed == 1 ? " epoch, " : " epochs, ") +
                        std::to_string(summary.global_step) + " steps";
  if (summary.test_accuracy) message += ", test accuracy " + formatHuman(*summary.test_accuracy);
  if (summary.test_loss) message += ", test loss " + formatHuman(*summary.test_loss);
  if (summary.test_loss && !summary.test_weights.empty())
    message += summary.test_weights == "best"
                   ? " (best.pt's weights, epoch " + std::to_string(summary.test_epoch) + ")"
                   : " (the last weights)";
  if (!summary.error.empty()) message += ": " + summary.error;
  if (!summary.final_state_saved)
    message += "; the final state was not saved (" + std::to_string(summary.checkpoints_failed) +
               " checkpoint save(s) failed, the last: " + summary.checkpoint_error + ")";
  try {
    Event e;
    e.step = state.global_step;
    e.epoch = state.epochs_completed;
    e.kind = summary.stop_reason == StopReason::Error ? EventKind::Error : EventKind::Finished;
    e.message = message;
    e.value = summary.test_accuracy;
    if (e.value) e.what = "test_accuracy";
    emit(e);
    for (auto& p : parts) p->onStop(summary);
  } catch (const std::exception& e) {
    if (summary.stop_reason != StopReason::Error) {
      summary.stop_reason = StopReason::Error;
      summary.error = e.what();
    }
  }
  checkpoints = nullptr;
  step_watch = nullptr;
  parts.clear();  // close files before anyone reads them
}

void Trainer::check(const TrainConfig& config, const TrainerOptions& options) {
  if (options.distributed) return;  // ranks check together, in run()
  // The global CPU generator is what a paused run draws dropout from, and prepare() seeds it
  // (and a resume sets it): kept as it was, as are the deterministic-algorithm flags. On a thread
  // of its own: prepare() sets the calling thread's torch settings (intra-op thread count, device).
  at::Generator gen = at::detail::getDefaultCPUGenerator();
  const at::Tensor rng = [&] {
    std::lock_guard<std::mutex> lock(gen.mutex());
    return gen.get_state();
  }();
  at::Context& ctx = at::globalContext();  // prepare() sets these process-wide flags too
  const bool deterministic = ctx.deterministicAlgorithms(),
             deterministic_cudnn = ctx.deterministicCuDNN(), benchmark = ctx.benchmarkCuDNN();
  std::exception_ptr error;
  std::thread([&] {
    try {
      Impl impl;
      impl.config = config;
      impl.options = options;
      impl.prepare(/*check_only=*/true);
    } catch (...) {
      error = std::current_exception();
    }
  }).join();
  {
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(rng);
  }
  ctx.setDeterministicAlgorithms(deterministic, /*warn_only=*/false);
  ctx.setDeterministicCuDNN(deterministic_cudnn);
  ctx.setBenchmarkCuDNN(benchmark);
  if (error) std::rethrow_exception(error);
}

void Trainer::Impl::evaluateTest(RunSummary& summary) {
  // The final weights first; then, where the run kept a best checkpoint of another epoch, the
  // weights best.pt holds: those are the test metrics (the weights a user deploys),
  // labelled, with the final weights' beside them. The model gets its final weights back.
  auto [last_loss, last_acc] = evaluateSplit(data.test);
  summary.test_loss = last_loss;
  summary.test_accuracy = last_acc;
  summary.test_weights = "last";
  summary.test_epoch = state.epochs_completed;
  const std::filesystem::path best = options.run_dir / "checkpoints" / "best.pt";
  std::error_code ec;
  if (dist || options.run_dir.empty() || state.best_epoch <= 0 ||
      state.best_epoch == state.epochs_completed || !std::filesystem::is_regular_file(best, ec))
    return;
  try {
    if (inspectCheckpoint(best).epoch != state.best_epoch) return;  // a save that failed
    std::vector<at::Tensor> final_weights;
    for (const at::Tensor& t : stateTensors(*state.model)) final_weights.push_back(t.detach().clone());
    importWeights(*state.model, best);
    auto [best_loss, best_acc] = evaluateSplit(data.test);
    {
      at::NoGradGuard no_grad;
      const std::vector<at::Tensor> now = stateTensors(*state.model);
      for (size_t i = 0; i < now.size() && i < final_weights.size(); ++i) now[i].copy_(final_weights[i]);
    }
    summary.test_loss = best_loss;
    summary.test_accuracy = best_acc;
    summary.test_weights = "best";
    summary.test_epoch = state.best_epoch;
    summary.last_test_loss = last_loss;
    summary.last_test_accuracy = last_acc;
  } catch (const Error&) {
    // best.pt could not be read back: the final weights' metrics stand, labelled "last".
  }
}

RunSummary Trainer::run() {
  Impl& m = *impl_;
  m.run_timer.restart();
  m.prepare();  // throws Error for bad config/data/checkpoint before anything is written
  m.describe();
  m.openRunDir();  // throws Error(Io)
  m.addParts();

  RunSummary summary;
  try {
    summary = m.loop();
    if (m.hooks.at_end) m.hooks.at_end(m.state.params);
    // The test set is evaluated once at the end, on the final model, when the run trained at
    // least one whole epoch and did not end on a non-finite value.
    if (m.data.test.size() > 0 && m.state.epochs_completed > 0 &&
        summary.stop_reason != StopReason::NonFinite &&
        summary.stop_reason != StopReason::Diverged)
      m.evaluateTest(summary);
  } catch (const Error& e) {
    summary.stop_reason = StopReason::Error;
    summary.error = e.what();
  } catch (const std::exception& e) {  // libtorch's, TorchScript's: one line, no traceback
    summary.stop_reason = StopReason::Error;
    summary.error = errorLine(e);
  }
  // An error stop saves what was trained, as a stop does: with checkpoint.interval_seconds the
  // last automatic last.pt may be seconds old, or not written yet.
  if (summary.stop_reason == StopReason::Error && m.state.global_step > 0 && m.state.model) {
    try {
      for (auto& p : m.parts) p->onInterrupt(m.stoppingEpoch());
    } catch (const std::exception&) {
      // Its events could not be written either (a full disk): summary.json says what failed.
    }
  }
  m.finish(summary);
  for (auto* o : m.observers) o->onRunFinished(summary);
  return summary;
}

}  // namespace trainscope

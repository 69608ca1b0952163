#include "gui/engine/run_session.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/train/state/checkpoint.h"
#include "core/run/run_dir.h"
#include "core/run/run_reader.h"
#include "core/system/overloaded.h"
#include "gui/engine/run_state.h"
#include "gui/engine/training_worker.h"
#include "gui/model/run_feed.h"
#include "core/run/run_follower.h"
#include "core/run/run_lock.h"

namespace trainscope {

RunSession::RunSession(QObject* parent)
    : RunCommands(parent), store_(new RunStore(this)) {
  registerRecordMetaTypes();
}

RunSession::~RunSession() {
  // Receivers may already be half-destroyed: end the run without emitting anything.
  disconnect(this, nullptr, nullptr, nullptr);
  disconnect(store_, nullptr, nullptr, nullptr);
  shutdown();
}

bool RunSession::isActive() const { return thread_ != nullptr; }

bool RunSession::start(const TrainConfig& config, const QString& runsRoot,
                               bool pausedAfterFirstStep) {
  if (isActive()) return false;
  return launch(config, TrainerOptions{}, runsRoot, pausedAfterFirstStep, false);
}

bool RunSession::resumeFrom(const QString& file, const QString& runsRoot, QString* error,
                                    qint64 totalEpochs) {
  if (state_ == State::Running || state_ == State::Stopping) {
    if (error) *error = QStringLiteral("a run is in progress: pause it first");
    return false;
  }
  TrainConfig config;
  try {  // read and check everything before the current run is touched
    config = checkpointConfig(inspectCheckpoint(file.toStdString()));
    if (totalEpochs > 0) config.training.epochs = totalEpochs;
    validate(config);
    // Everything the engine checks before its first step (tensor shapes, optimizer state,
    // RNG states...), on a scratch state: a refused file leaves the run and settings as they are.
    TrainerOptions check;
    check.resume_from = file.toStdString();
    Trainer::check(config, check);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  shutdown();  // a paused run ends as "stopped" and leaves its own last.pt
  TrainerOptions options;
  options.resume_from = file.toStdString();
  return launch(config, options, runsRoot, false, /*pausedAtStart=*/true);
}

bool RunSession::openRun(const QString& dir, QString* error) {
  if (isActive()) {
    if (error) *error = QStringLiteral("a run is active: stop it before opening another");
    return false;
  }
  RunRecord run;
  TrainConfig config;
  try {
    run = readRun(dir.toStdString());
    config = configFromJson(run.config);
  } catch (const std::exception& e) {  // Error, or a config.json this build does not read
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  // Nothing above changed the current run; from here on the opened one replaces it.
  stopFollowing();
  // Another process is still writing it: followed from where readRun stopped.
  const bool live = beingWritten(run);
  store_->read_back_ = true;
  trainer_.reset();
  queue_.reset();
  got_summary_ = true;
  got_failure_ = false;
  pending_failure_.reset();
  store_->setConfig(config);
  store_->run_dir_ = QString::fromStdString(run.dir.string());
  store_->step_count_ = static_cast<qint64>(run.steps.size());
  store_->skipped_steps_ = 0;
  for (const StepRecord& s : run.steps) store_->skipped_steps_ += s.applied ? 0 : 1;
  store_->total_epochs_ = config.training.epochs;
  const int64_t per_epoch = stepsPerEpoch(run, config);
  store_->total_steps_ = per_epoch * store_->total_epochs_;
  store_->last_step_ = run.steps.empty() ? std::nullopt : std::optional<StepRecord>(run.steps.back());
  if (store_->last_step_) {  // steps.csv records no times: the training time of the epochs that ended
    double seconds = 0;
    for (const EpochRecord& e : run.epochs) seconds += e.epoch_seconds;
    store_->last_step_->elapsed_seconds = seconds;
  }
  store_->last_layer_stats_ =
      run.layers.empty() ? std::nullopt : std::optional<LayerStatsRecord>(run.layers.back());
  store_->last_model_view_.reset();
  store_->last_validation_detail_.reset();
  const bool killed = !run.summary && !live;
  if (killed) run.summary = interruptedSummary(run);  // killed: it ended there
  store_->ended_unfinished_ = killed;
  store_->summary_ = run.summary.value_or(RunSummary{});
  store_->last_diagnosis_ = store_->summary_.diagnosis;
  store_->history_.clear();
  if (store_->ghost_chosen_)
    store_->ghost_changes_ = configChanges(store_->ghost_config_, config);
  else
    clearGhost();
  feedRun(store_->history_, run);
  RunInfo info = run.info;
  info.batches_per_epoch = per_epoch * config.training.grad_accum_steps;
  setState(State::Idle);  // so that Finished below is announced even after a finished run
  emit store_->runStarted(info);
  for (const Event& e : run.events) store_->addEvent(e);
  if (!run.epochs.empty()) emit store_->epochFinished(run.epochs.back());
  if (store_->last_step_) emit store_->stepRecorded(*store_->last_step_);
  if (store_->last_layer_stats_) emit store_->layerStatsRecorded(*store_->last_layer_stats_);
  if (store_->last_diagnosis_) emit store_->diagnosisChanged(*store_->last_diagnosis_);
  setState(State::Finished);
  if (live) {
    startFollowing(store_->run_dir_, run.events.size(), store_->last_step_ ? store_->last_step_->step : 0,
                   run.epochs.empty() ? 0 : run.epochs.back().step);
    return true;
  }
  emit store_->runFinished(store_->summary_);
  // No summary.json and no process writing: say so (the status bar), as the runs table does.
  if (killed) emit followStatusChanged(FollowState::Crashed, 0.0);
  return true;
}

bool RunSession::saveCheckpoint(const QString& file, QString* error) {
  if (trainer_ && isActive()) {
    trainer_->saveCheckpoint(file.toStdString());
    return true;
  }
  const QString last = QDir(store_->run_dir_).filePath(QStringLiteral("checkpoints/last.pt"));
  if (store_->run_dir_.isEmpty() || !QFileInfo::exists(last)) {
    if (error) *error = QStringLiteral("there is no run with a checkpoint to save");
    return false;
  }
  // The ended run's final state is its last.pt: copy it atomically (temp file, fsync, rename).
  if (QFileInfo(file).absoluteFilePath() != QFileInfo(last).absoluteFilePath()) {
    QFile in(last);
    try {
      if (!in.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + last.toStdString());
      const QByteArray bytes = in.readAll();
      writeFileAtomic(file.toStdString(), bytes.constData(), static_cast<size_t>(bytes.size()));
    } catch (const std::exception& ex) {
      if (error) *error = QString::fromStdString(ex.what());
      return false;
    }
  }
  Event e;
  e.step = store_->last_step_ ? store_->last_step_->step : 0;
  e.epoch = store_->summary_.epochs_completed;
  e.kind = EventKind::CheckpointSaved;
  e.message = "checkpoint saved: " + file.toStdString();
  e.what = "requested";
  e.file = file.toStdString();
  store_->addEvent(e);
  return true;
}

QString RunSession::checkpointFolder(const QString& fallback) const {
  return store_->run_dir_.isEmpty() ? fallback : QDir(store_->run_dir_).filePath(QStringLiteral("checkpoints"));
}

bool RunSession::launch(const TrainConfig& config, TrainerOptions options,
                                const QString& runsRoot, bool pausedAfterFirstStep,
                                bool pausedAtStart) {
  stopFollowing();
  options.front_end = "gui";
  if (options.resume_from.empty() && options.init_weights.empty() && !init_weights_.isEmpty())
    options.init_weights = init_weights_.toStdString();
  options.default_non_finite = "pause";
  options.validation_detail = true;  // the evaluation tab: one more pass over each chunk's outputs
  options.model_view = true;  // small records at epoch ends, computed on the training thread
  options.reserved_cores = kGuiReservedCores;
  options.command_line = QCoreApplication::arguments().join(QLatin1Char(' ')).toStdString();
  try {
    validate(config);  // before creating a folder
    options.run_dir = createUniqueRunDir(runsRoot.toStdString(), config.name);
  } catch (const Error& e) {
    emit store_->runFailed(RunFailure{true, e.code(), e.subject(), e.what()});
    return false;
  } catch (const std::exception& e) {
    emit store_->runFailed(RunFailure{false, ErrorCode::Internal, {}, e.what()});
    return false;
  }

  trainer_ = std::make_shared<Trainer>(config, options);
  store_->read_back_ = false;
  store_->ended_unfinished_ = false;
  queue_ = std::make_shared<RecordQueue>();
  got_summary_ = false;
  got_failure_ = false;
  pending_failure_.reset();
  store_->step_count_ = 0;
  store_->skipped_steps_ = 0;
  store_->total_epochs_ = config.training.epochs;
  store_->total_steps_ = 0;
  const TrainConfig previous_config = store_->config_;
  store_->setConfig(config);
  store_->last_step_.reset();
  store_->last_diagnosis_.reset();
  store_->last_model_view_.reset();
  store_->last_validation_detail_.reset();
  store_->last_layer_stats_.reset();
  store_->summary_ = RunSummary{};
  store_->run_dir_ = QString::fromStdString(options.run_dir.string());
  // The run shown so far becomes the previous run, whose epoch losses the plots draw as a
  // faint ghost of what the new settings change. Only for a run on the same data: the losses of
  // another dataset (after `exploding`, 1e23) say nothing about this one.
  const bool has_epochs =
      store_->history_.find(series::kEpochTrainLoss) || store_->history_.find(series::kEpochValLoss);
  if (store_->ghost_chosen_) {  // a run the user chose stays the ghost
    store_->ghost_changes_ = configChanges(store_->ghost_config_, config);
  } else if (options.resume_from.empty() && has_epochs && comparableRuns(previous_config, config)) {
    store_->previous_.swap(store_->history_);
    store_->ghost_changes_ = configChanges(previous_config, config);
    store_->ghost_name_ = QString::fromStdString(previous_config.name);
  } else {
    clearGhost();
  }
  store_->history_.clear();
  trainer_->setPace(pace_);
  // Before run(): the engine runs exactly one batch and then waits paused, or (a loaded
  // checkpoint) waits before its first step.
  if (pausedAfterFirstStep) trainer_->stepBatch();
  if (pausedAtStart) trainer_->pause();

  thread_ = new QThread(this);
  thread_->setObjectName(QStringLiteral("TrainingThread"));
  auto* worker = new TrainingWorker(trainer_, queue_);  // parentless: it is moved to thread_
  worker->moveToThread(thread_);
  connect(thread_, &QThread::started, worker, &TrainingWorker::run);
  connect(thread_, &QThread::finished, worker, &QObject::deleteLater);
  connect(worker, &TrainingWorker::recordsAvailable, this, &RunSession::onRecordsAvailable,
          Qt::QueuedConnection);
  setState(pausedAfterFirstStep || pausedAtStart ? State::Paused : State::Running);
  thread_->start();
  return true;
}

void RunSession::pause() {
  if (!trainer_ || state_ != State::Running) return;
  trainer_->pause();
  setState(State::Paused);
}

void RunSession::resume() {
  if (!trainer_ || state_ != State::Paused) return;
  trainer_->resume();
  setState(State::Running);
}

void RunSession::stepBatch() {
  if (!trainer_ || (state_ != State::Paused && state_ != State::Running)) return;
  trainer_->stepBatch();
  setState(State::Paused);
}

void RunSession::stepEpoch() {
  if (!trainer_ || (state_ != State::Paused && state_ != State::Running)) return;
  trainer_->stepEpoch();
  // The engine runs until the epoch ends; its "paused" event switches the state back.
  setState(State::Running);
}

bool RunSession::setLiveSetting(const QString& key, const QVariant& value,
                                        QString* error) {
  if (!trainer_ || !isActive()) return false;  // the config alone changes, for the next run
  // What is asked counts as in force at once (events confirm it): an edit right after another
  // is compared with the newer value, not with one the engine has not reported yet.
  TrainConfig& live = store_->live_;
  ClipConfig& clip = live.training.clip;
  if (key == QLatin1String("optimizer.lr")) {
    const double lr = value.toDouble();
    if (std::abs(lr - live.optimizer.lr) <= 1e-12 * std::abs(lr)) return true;
    if (!setLearningRate(lr)) return false;
    live.optimizer.lr = lr;
    return true;
  }
  if (key == QLatin1String("training.amp")) {
    const bool on = value.toBool();
    if (on == live.training.amp) return true;
    if (!setAmp(on)) return false;
    live.training.amp = on;
    return true;
  }
  if (key == QLatin1String("training.clip.enabled") ||
      key == QLatin1String("training.clip.max_norm")) {
    const bool on = key == QLatin1String("training.clip.enabled") ? value.toBool() : clip.enabled;
    const double max_norm =
        key == QLatin1String("training.clip.max_norm") ? value.toDouble() : clip.max_norm;
    if (on == clip.enabled && max_norm == clip.max_norm) return true;
    if (!setClipping(on, max_norm, error)) return false;
    clip.enabled = on;
    clip.max_norm = max_norm;
    return true;
  }
  if (key == QLatin1String("training.non_finite")) return setNonFinitePolicy(value.toString());
  if (error) *error = key + QStringLiteral(" is not a live setting");
  return false;
}

bool RunSession::setLearningRate(double lr) {
  if (!trainer_ || !isActive() || !(lr > 0) || !std::isfinite(lr)) return false;
  trainer_->setLearningRate(lr);
  return true;
}

bool RunSession::setAmp(bool enabled) {
  if (!trainer_ || !isActive()) return false;
  trainer_->setAmp(enabled);
  return true;
}

bool RunSession::setClipping(bool enabled, double maxNorm, QString* error) {
  if (!trainer_ || !isActive()) {
    if (error) *error = QStringLiteral("there is no active run");
    return false;
  }
  try {
    trainer_->setClipping(enabled, maxNorm);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  return true;
}

bool RunSession::rollBack(qint64 beforeStep, double lrFactor, bool enableClipping) {
  if (!trainer_ || !isActive() || !(lrFactor > 0)) return false;
  trainer_->rollBack(beforeStep, lrFactor, enableClipping);
  if (state_ == State::Paused) setState(State::Running);  // rollBack resumes the engine
  return true;
}

bool RunSession::setNonFinitePolicy(const QString& policy) {
  if (!trainer_ || !isActive()) return false;
  try {
    trainer_->setNonFinitePolicy(policy.toStdString());
  } catch (const Error&) {
    return false;
  }
  emit nonFinitePolicyChanged(policy);
  return true;
}

void RunSession::pauseAfterEpoch(qint64 epoch) {
  if (trainer_ && isActive()) trainer_->pauseAfterEpoch(epoch);
}

void RunSession::setPace(double stepsPerSecond) {
  pace_ = stepsPerSecond > 0 ? stepsPerSecond : 0;
  if (trainer_ && isActive()) trainer_->setPace(pace_);
}

void RunSession::stop() {
  if (!trainer_ || !isActive()) return;
  trainer_->stop();
  setState(State::Stopping);
}

void RunSession::shutdown() {
  if (!isActive()) return;
  trainer_->stop();
  // The engine stops within one step and writes summary.json before run() returns; what it
  // queued meanwhile is not worth drawing into a window that is closing.
  joinThread();
  for (const WorkerItem& item : queue_->takeAll()) {
    if (const auto* s = std::get_if<RunSummary>(&item)) store_->summary_ = *s;
  }
  setState(State::Finished);
}

void RunSession::joinThread() {
  if (!thread_) return;
  // run() returns within one step after stop(); quit() before exec() makes exec() return at
  // once, and QThread::finished deletes the worker on its own thread.
  thread_->quit();
  thread_->wait();
  delete thread_;
  thread_ = nullptr;
}

void RunSession::clearGhost() {
  store_->ghost_chosen_ = false;
  store_->previous_.clear();
  store_->ghost_changes_.clear();
  store_->ghost_name_.clear();
}

void RunSession::setState(State state) {
  if (state_ == state) return;
  state_ = state;
  emit stateChanged(state);
}

void RunSession::record(const StepRecord& step) {
  ++store_->step_count_;
  if (!step.applied) ++store_->skipped_steps_;
  feedStep(store_->history_, step);
  store_->last_step_ = step;
}

void RunSession::restoreHistory(const RunInfo& info) {
  if (info.start_step <= 0) return;
  for (const EpochRecord& epoch : info.history) feedEpoch(store_->history_, epoch);
  try {
    // The engine wrote the source run's rows up to the checkpoint's step before this record.
    for (const StepRecord& step : readStepsCsv(
             std::filesystem::path(store_->run_dir_.toStdString()) / "steps.csv", info.start_step)) {
      feedStep(store_->history_, step);
      store_->last_step_ = step;
    }
  } catch (const Error&) {
    // Without readable step rows the per-epoch curves are still there; the run itself is fine.
  }
}

void RunSession::onRecordsAvailable() {
  if (!queue_) return;
  const std::vector<WorkerItem> items = queue_->takeAll();
  auto takeSummary = [this](const RunSummary& summary) {
    got_summary_ = true;
    store_->summary_ = summary;
    if (summary.diagnosis) {  // the doctor's reading at the end of the run (summary.json's)
      store_->last_diagnosis_ = *summary.diagnosis;
      emit store_->diagnosisChanged(*summary.diagnosis);
    }
  };
  for (const WorkerItem& item : items) {
    std::visit(Overloaded{
                   [this](const RunInfo& info) {
                     store_->total_epochs_ = info.epochs;
                     store_->total_steps_ = info.epochs * info.batches_per_epoch;
                     restoreHistory(info);
                     emit store_->runStarted(info);
                   },
                   [this](const StepRecord& step) {
                     record(step);
                     emit store_->stepRecorded(step);
                   },
                   [this](const EpochRecord& epoch) {
                     feedEpoch(store_->history_, epoch);
                     emit store_->epochFinished(epoch);
                   },
                   [this](const Event& event) {
                     // The engine pauses on its own (step done, epoch stepped, non-finite policy).
                     if (event.kind == EventKind::Paused && state_ == State::Running)
                       setState(State::Paused);
                     if (event.kind == EventKind::Resumed && state_ == State::Paused)
                       setState(State::Running);
                     // Back to a snapshot: the steps after it are trained again.
                     if (event.kind == EventKind::RolledBack && event.what == "step" && event.value)
                       store_->history_.dropAfter(*event.value);
                     store_->addEvent(event);
                   },
                   [this](const LayerStatsRecord& stats) {
                     feedLayerStats(store_->history_, stats);
                     store_->last_layer_stats_ = stats;
                     emit store_->layerStatsRecorded(stats);
                   },
                   [this](const Diagnosis& diagnosis) {
                     store_->last_diagnosis_ = diagnosis;
                     emit store_->diagnosisChanged(diagnosis);
                   },
                   [this](const ModelViewRecord& view) {
                     store_->last_model_view_ = view;
                     emit store_->modelViewUpdated(view);
                   },
                   [this](const ValidationDetail& detail) {
                     store_->last_validation_detail_ = detail;
                     emit store_->validationDetailUpdated(detail);
                   },
                   [this](const DistributionRecord& record) {
                     emit store_->distributionsRecorded(record);
                   },
                   [&](const RunSummary& summary) { takeSummary(summary); },
                   [this](const RunFailure& failure) {
                     got_failure_ = true;
                     pending_failure_ = failure;
                   },
                   [&](const WorkDone& done) {
                     if (!got_summary_ && done.summary) takeSummary(*done.summary);
                     joinThread();
                     // A run that failed before writing anything (its data did not load)
                     // leaves no empty folder behind: the one launch() created goes again.
                     if (got_failure_ && store_->step_count_ == 0 && !store_->run_dir_.isEmpty() &&
                         removeEmptyRunDir(store_->run_dir_.toStdString()))
                       store_->run_dir_.clear();
                     // A failure is reported once the run is over (buttons and state say so).
                     setState(got_summary_ || !got_failure_ || store_->step_count_ > 0 ? State::Finished
                                                                               : State::Idle);
                     if (pending_failure_) emit store_->runFailed(*std::exchange(pending_failure_, {}));
                     if (got_summary_) emit store_->runFinished(store_->summary_);
                   },
               },
               item);
  }
}

}  // namespace trainscope

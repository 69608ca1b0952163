#include "gui/training_controller.h"

#include <QThread>

#include "gui/training_worker.h"

namespace trainscope {

namespace {
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;
}  // namespace

TrainingController::TrainingController(QObject* parent) : QObject(parent) {
  registerRecordMetaTypes();
}

TrainingController::~TrainingController() {
  // Receivers may already be half-destroyed: end the run without emitting anything.
  disconnect(this, nullptr, nullptr, nullptr);
  shutdown();
}

bool TrainingController::isActive() const { return thread_ != nullptr; }

bool TrainingController::start(const TrainConfig& config, const TrainerOptions& options,
                               bool pausedAfterFirstStep) {
  if (isActive()) return false;
  trainer_ = std::make_shared<Trainer>(config, options);
  queue_ = std::make_shared<RecordQueue>();
  got_summary_ = false;
  got_failure_ = false;
  step_count_ = 0;
  epoch_count_ = 0;
  last_summary_ = RunSummary{};
  // Before run(): the engine runs exactly one batch and then waits paused.
  if (pausedAfterFirstStep) trainer_->stepBatch();

  thread_ = new QThread(this);
  thread_->setObjectName(QStringLiteral("TrainingThread"));
  auto* worker = new TrainingWorker(trainer_, queue_);  // parentless: it is moved to thread_
  worker->moveToThread(thread_);
  connect(thread_, &QThread::started, worker, &TrainingWorker::run);
  connect(thread_, &QThread::finished, worker, &QObject::deleteLater);
  connect(worker, &TrainingWorker::recordsAvailable, this, &TrainingController::onRecordsAvailable,
          Qt::QueuedConnection);
  setState(pausedAfterFirstStep ? State::Paused : State::Running);
  thread_->start();
  return true;
}

void TrainingController::pause() {
  if (!trainer_ || state_ != State::Running) return;
  trainer_->pause();
  setState(State::Paused);
}

void TrainingController::resume() {
  if (!trainer_ || state_ != State::Paused) return;
  trainer_->resume();
  setState(State::Running);
}

void TrainingController::stepBatch() {
  if (!trainer_ || (state_ != State::Paused && state_ != State::Running)) return;
  trainer_->stepBatch();
  setState(State::Paused);
}

void TrainingController::stepEpoch() {
  if (!trainer_ || (state_ != State::Paused && state_ != State::Running)) return;
  trainer_->stepEpoch();
  // The engine runs until the epoch ends; its "paused" event switches the state back.
  setState(State::Running);
}

void TrainingController::stop() {
  if (!trainer_ || !isActive()) return;
  trainer_->stop();
  setState(State::Stopping);
}

void TrainingController::shutdown() {
  if (!isActive()) return;
  trainer_->stop();
  joinThread();
  onRecordsAvailable();  // deliver what the run reported while we waited
}

void TrainingController::joinThread() {
  if (!thread_) return;
  // run() returns within one step after stop(); quit() before exec() makes exec() return at
  // once, and QThread::finished deletes the worker on its own thread.
  thread_->quit();
  thread_->wait();
  delete thread_;
  thread_ = nullptr;
}

void TrainingController::setState(State state) {
  if (state_ == state) return;
  state_ = state;
  emit stateChanged(state);
}

void TrainingController::onRecordsAvailable() {
  if (!queue_) return;
  const std::vector<WorkerItem> items = queue_->takeAll();
  for (const WorkerItem& item : items) {
    std::visit(Overloaded{
                   [this](const RunInfo& info) { emit runStarted(info); },
                   [this](const StepRecord& step) {
                     ++step_count_;
                     emit stepRecorded(step);
                   },
                   [this](const EpochRecord& epoch) {
                     ++epoch_count_;
                     emit epochFinished(epoch);
                   },
                   [this](const Event& event) {
                     // The engine pauses on its own (step done, epoch stepped, non-finite policy).
                     if (event.kind == EventKind::Paused && state_ == State::Running)
                       setState(State::Paused);
                     if (event.kind == EventKind::Resumed && state_ == State::Paused)
                       setState(State::Running);
                     emit eventOccurred(event);
                   },
                   [this](const RunSummary& summary) {
                     got_summary_ = true;
                     last_summary_ = summary;
                   },
                   [this](const RunFailure& failure) {
                     got_failure_ = true;
                     emit runFailed(failure);
                   },
                   [this](const WorkDone& done) {
                     if (!got_summary_ && done.summary) {
                       got_summary_ = true;
                       last_summary_ = *done.summary;
                     }
                     joinThread();
                     if (got_summary_) {
                       setState(State::Finished);
                       emit runFinished(last_summary_);
                     } else {
                       setState(got_failure_ && step_count_ == 0 ? State::Idle : State::Finished);
                     }
                   },
               },
               item);
  }
}

}  // namespace trainscope

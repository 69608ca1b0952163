#include "gui/engine/training_worker.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace trainscope {

bool RecordQueue::push(WorkerItem item) {
  std::lock_guard<std::mutex> lock(mutex_);
  const bool was_empty = items_.empty();
  // A validation detail replaces one the GUI has not taken yet: only the newest is drawn, and
  // at full speed on small images each one carries megabytes of samples.
  if (std::holds_alternative<ValidationDetail>(item))
    items_.erase(std::remove_if(items_.begin(), items_.end(),
                                [](const WorkerItem& i) { return std::holds_alternative<ValidationDetail>(i); }),
                 items_.end());
  items_.push_back(std::move(item));
  return was_empty;
}

std::vector<WorkerItem> RecordQueue::takeAll() {
  std::vector<WorkerItem> out;
  std::lock_guard<std::mutex> lock(mutex_);
  out.swap(items_);
  return out;
}

TrainingWorker::TrainingWorker(std::shared_ptr<Trainer> trainer, std::shared_ptr<RecordQueue> queue)
    : trainer_(std::move(trainer)), queue_(std::move(queue)) {
  trainer_->addObserver(this);
}

void TrainingWorker::onRunStarted(const RunInfo& info) { push(info); }
void TrainingWorker::onStep(const StepRecord& step) { push(step); }
void TrainingWorker::onEpoch(const EpochRecord& epoch) { push(epoch); }
void TrainingWorker::onEvent(const Event& event) { push(event); }
void TrainingWorker::onLayerStats(const LayerStatsRecord& stats) { push(stats); }
void TrainingWorker::onDiagnosis(const Diagnosis& diagnosis) { push(diagnosis); }
void TrainingWorker::onModelView(const ModelViewRecord& view) { push(view); }
void TrainingWorker::onValidationDetail(const ValidationDetail& detail) { push(detail); }
void TrainingWorker::onDistributions(const DistributionRecord& record) { push(record); }
void TrainingWorker::onRunFinished(const RunSummary& summary) { push(summary); }

void TrainingWorker::push(WorkerItem item) {
  // Emit only on the empty -> non-empty transition: the GUI drains everything per notification,
  // so one pending queued signal is enough and the event queue stays bounded.
  if (queue_->push(std::move(item))) emit recordsAvailable();
}

void TrainingWorker::run() {
  // Exceptions must never leave this slot: an exception escaping a Qt slot on a worker thread
  // ends in std::terminate. Each one becomes a RunFailure record for the GUI.
  WorkDone done;
  try {
    done.summary = trainer_->run();
  } catch (const Error& e) {
    push(RunFailure{true, e.code(), e.subject(), e.what()});
  } catch (const std::exception& e) {
    push(RunFailure{false, ErrorCode::Internal, {}, e.what()});
  } catch (...) {
    push(RunFailure{false, ErrorCode::Internal, {}, "unknown exception"});
  }
  push(std::move(done));
}

}  // namespace trainscope

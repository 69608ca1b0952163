#pragma once
/// The training thread's side of the GUI bridge: runs Trainer::run() and buffers its records.
#include <QObject>
#include <memory>
#include <mutex>
#include <optional>
#include <variant>
#include <vector>

#include "core/train/trainer.h"
#include "gui/engine/record_types.h"

namespace trainscope {

/// Marks the end of the worker's slot: run() returned (summary) or threw (failure was queued).
struct WorkDone {
  std::optional<RunSummary> summary;  ///< what run() returned; empty when it threw
};

/// One record handed from the training thread to the GUI thread; order is preserved.
using WorkerItem = std::variant<RunInfo, StepRecord, EpochRecord, Event, LayerStatsRecord,
                                Diagnosis, ModelViewRecord, ValidationDetail, DistributionRecord,
                                RunSummary,
                                RunFailure, WorkDone>;

/// Mutex-protected hand-over buffer shared by the worker (producer) and the controller
/// (consumer). The controller swaps the whole buffer out, so the lock is held for O(1) work.
class RecordQueue {
 public:
  /// Appends one item (a ValidationDetail drops the ones still queued: the newest is what is
  /// drawn). Returns true when the buffer was empty before, i.e. when the consumer must be
  /// notified; otherwise a notification is already on its way.
  bool push(WorkerItem item);
  /// Takes everything queued so far (possibly nothing).
  std::vector<WorkerItem> takeAll();

 private:
  std::mutex mutex_;
  std::vector<WorkerItem> items_;
};

/// Parentless QObject moved into the training QThread. Its run() slot calls Trainer::run()
/// (blocking) and never lets an exception escape. As a TrainerObserver it copies records into
/// the shared RecordQueue and emits recordsAvailable() only when the queue turns non-empty, so
/// at most one queued notification waits in the GUI's event queue whatever the step rate.
class TrainingWorker : public QObject, public TrainerObserver {
  Q_OBJECT
 public:
  TrainingWorker(std::shared_ptr<Trainer> trainer, std::shared_ptr<RecordQueue> queue);

  void onRunStarted(const RunInfo& info) override;
  void onStep(const StepRecord& step) override;
  void onEpoch(const EpochRecord& epoch) override;
  void onEvent(const Event& event) override;
  void onLayerStats(const LayerStatsRecord& stats) override;
  void onDiagnosis(const Diagnosis& diagnosis) override;
  void onModelView(const ModelViewRecord& view) override;
  void onValidationDetail(const ValidationDetail& detail) override;
  void onDistributions(const DistributionRecord& record) override;
  void onRunFinished(const RunSummary& summary) override;

 public slots:
  /// Runs the whole training run on the calling (training) thread; returns when it ends.
  void run();

 signals:
  /// The queue went from empty to non-empty; the receiver should call RecordQueue::takeAll().
  void recordsAvailable();

 private:
  void push(WorkerItem item);

  std::shared_ptr<Trainer> trainer_;
  std::shared_ptr<RecordQueue> queue_;
};

}  // namespace trainscope

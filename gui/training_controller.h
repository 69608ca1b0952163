#pragma once
/// GUI-thread owner of a training run: the Trainer, its QThread and the worker bridge.
#include <QObject>
#include <QPointer>
#include <memory>

#include "core/train/trainer.h"
#include "gui/record_types.h"

class QThread;

namespace trainscope {

class RecordQueue;

/// Lives on the GUI thread. start() creates a Trainer (kept in a shared_ptr, shared with the
/// worker), a QThread and a parentless TrainingWorker moved into it. Commands (pause, resume,
/// step, stop) call the Trainer's thread-safe methods directly: the worker's event loop is busy
/// inside run(), so queued slots would only arrive after training ends. Records come back as
/// signals emitted on the GUI thread, in the order the engine produced them.
class TrainingController : public QObject {
  Q_OBJECT
 public:
  /// Run states as the GUI shows them.
  enum class State {
    Idle,  ///< no run yet, or the last one failed before its first step
    Running,
    Paused,
    Stopping,  ///< stop requested, waiting for the engine to end the run
    Finished   ///< the run ended (completed, stopped, non-finite, error)
  };
  Q_ENUM(State)

  explicit TrainingController(QObject* parent = nullptr);
  /// Stops a run in progress and joins the thread.
  ~TrainingController() override;

  /// Starts a new run with `config`. With `pausedAfterFirstStep` the engine runs exactly one
  /// batch and then waits (the "step from idle" action). Returns false if a run is active.
  bool start(const TrainConfig& config, const TrainerOptions& options,
             bool pausedAfterFirstStep = false);

  void pause();      ///< pause before the next step
  void resume();     ///< leave pause
  void stepBatch();  ///< one more batch, then pause
  void stepEpoch();  ///< to the end of the current epoch, then pause
  void stop();       ///< end the run at the next step boundary (summary.json is written)
  /// Requests a stop and blocks until the training thread has ended (window close, exit).
  void shutdown();

  State state() const { return state_; }
  /// True while a training thread exists (running, paused or stopping).
  bool isActive() const;
  /// Steps received in the current run.
  qint64 stepCount() const { return step_count_; }
  /// Epochs received in the current run.
  qint64 epochCount() const { return epoch_count_; }
  /// The last run's summary, once it ended.
  const RunSummary& lastSummary() const { return last_summary_; }

 signals:
  void stateChanged(trainscope::TrainingController::State state);
  void runStarted(const trainscope::RunInfo& info);
  void stepRecorded(const trainscope::StepRecord& step);
  void epochFinished(const trainscope::EpochRecord& epoch);
  void eventOccurred(const trainscope::Event& event);
  /// The run ended after it had started (any stop reason).
  void runFinished(const trainscope::RunSummary& summary);
  /// The run could not start (bad config, dataset not loadable, ...) or failed unexpectedly.
  void runFailed(const trainscope::RunFailure& failure);

 private slots:
  void onRecordsAvailable();

 private:
  void setState(State state);
  void joinThread();

  std::shared_ptr<Trainer> trainer_;
  std::shared_ptr<RecordQueue> queue_;
  QThread* thread_ = nullptr;
  State state_ = State::Idle;
  bool got_summary_ = false;
  bool got_failure_ = false;
  qint64 step_count_ = 0;
  qint64 epoch_count_ = 0;
  RunSummary last_summary_;
};

}  // namespace trainscope

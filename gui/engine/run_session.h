#pragma once
/// The dashboard's run session: the Trainer, its QThread, the worker bridge and following a run
/// another process writes; it feeds the store. Only the main window's wiring includes this;
/// panels call RunCommands and read RunStore.
#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "core/config/config_diff.h"
#include "core/config/train_config.h"
#include "core/run/run_follower.h"
#include "core/train/trainer.h"
#include "gui/engine/record_types.h"
#include "gui/engine/run_commands.h"
#include "gui/model/run_history.h"
#include "gui/model/run_store.h"

class QThread;
class QTimer;

namespace trainscope {

class RecordQueue;

/// The in-process run session (RunCommands). Lives on the GUI thread and owns the run's state:
/// start() creates the run directory, a Trainer (shared with the worker), a QThread and a
/// parentless TrainingWorker moved into it. Commands (pause, resume, step, stop) call the Trainer's thread-safe methods directly: the
/// worker's event loop is busy inside run(), so queued slots would only arrive after training
/// ends. Records come back in the order the engine produced them: each is appended to the
/// RunHistory (bounded memory, whatever the step rate) and re-emitted as a signal.
class RunSession : public RunCommands {
  Q_OBJECT
 public:
  explicit RunSession(QObject* parent = nullptr);
  /// The shown run: what readers (plots, panels, tests) connect to and read.
  const RunStore* store() const override { return store_; }
  /// Stops a run in progress and joins the thread.
  ~RunSession() override;

  /// Starts a new run with `config`: validates it, creates a fresh run directory under
  /// `runsRoot` (named after config.name and the time) and starts the engine. With
  /// `pausedAfterFirstStep` the engine runs exactly one batch and then waits (the "step from
  /// idle" action). Returns false, after emitting runFailed for bad input, when it could not
  /// start; false without a signal when a run is active.
  bool start(const TrainConfig& config, const QString& runsRoot, bool pausedAfterFirstStep = false);
  // The commands panels call (pause ... resumeFrom, saveCheckpoint): see RunCommands.
  bool resumeFrom(const QString& file, const QString& runsRoot, QString* error,
                  qint64 totalEpochs = 0) override;
  /// Shows the finished (or killed) run in the folder `dir` as the current run: reads it whole
  /// (readRun, core/run/run_reader.h) and sends its records through the same signals a live
  /// run sends (runStarted, eventOccurred, the last epoch, step, layer statistics and
  /// diagnosis, runFinished; a run without summary.json ends as "interrupted"), its curves in
  /// the history. Trains nothing, needs no checkpoint and creates no folder; the state is
  /// Finished. When `dir` is not a readable run directory, returns false with `error` set
  /// (English, naming the folder or file) and the current run is left exactly as it was; false
  /// with `error` while a run is active.
  ///
  /// A run that another process is still writing (its folder's lock is held, no summary.json)
  /// is followed live (core/run/run_follower.h, polled every 250 ms, read-only): appended
  /// steps, epochs and events arrive through the same signals, followStatusChanged says
  /// "running", "stalled" (nothing appended for 30 s) or "crashed" (the writer died), and
  /// runFinished comes with the run's own summary.json when it ends. Starting, resuming or
  /// opening another run ends the following.
  bool openRun(const QString& dir, QString* error);
  /// True while a run read back with openRun is being followed.
  bool isFollowing() const;
  bool saveCheckpoint(const QString& file, QString* error) override;
  void setInitWeights(const QString& file) override { init_weights_ = file; }
  const QString& initWeights() const override { return init_weights_; }
  QString checkpointFolder(const QString& fallback) const override;

  void pause() override;
  void resume() override;
  void stepBatch() override;
  void stepEpoch() override;
  void stop() override;
  bool setLiveSetting(const QString& key, const QVariant& value,
                      QString* error = nullptr) override;
  bool setLearningRate(double lr) override;
  bool setAmp(bool enabled) override;
  bool setClipping(bool enabled, double maxNorm, QString* error = nullptr) override;
  bool rollBack(qint64 beforeStep, double lrFactor, bool enableClipping) override;
  bool setNonFinitePolicy(const QString& policy) override;
  void pauseAfterEpoch(qint64 epoch) override;
  /// Paces the run to at most `stepsPerSecond` (0 = full speed), now and for later runs; no
  /// number of the run changes (see Trainer::setPace).
  void setPace(double stepsPerSecond);
  double pace() const { return pace_; }
  /// Requests a stop and blocks until the training thread has ended (window close, exit).
  /// Records still queued are dropped, except the summary: closing stays fast at any step rate.
  void shutdown();

  State state() const override { return state_; }
  bool isActive() const override;
  // What the shown run holds (steps, last records, config, totals, history, the ghost) is the
  // store's to read: store().
  void clearGhost() override;
  /// Makes the run in the folder `dir` the ghost of the live view (the previous run's ghost
  /// becomes "any chosen run"): its epoch losses are read (readRun) into the store's
  /// previousRun(), ghostName() is the folder's name and ghostChanges() what the current
  /// settings change against it. A chosen ghost stays through the runs started after it (each run's
  /// changes are recomputed) until clearGhost() or another choice. False with `error` (English,
  /// naming the folder or file) when `dir` is no readable run; the ghost is then left as it was.
  bool setGhostRun(const QString& dir, QString* error);
  /// Replays the recorded run in `dir` as a new run under `runsRoot` (the dashboard's
  /// `trainscope-cli train --replay`, core/train/loop/replay.h): its config.json, the live changes
  /// of its events.jsonl posted at their steps, the same checkpoint or initial weights, the same
  /// stop. False with `error` (the folder or file and the problem) when the plan cannot be made
  /// or a run is active; the current run is then left as it was.
  bool replayRun(const QString& dir, const QString& runsRoot, QString* error);

 signals:
  // stateChanged and nonFinitePolicyChanged are RunCommands'; the records of the shown run
  // (runStarted, stepRecorded, ... runFinished, runFailed) are the store's: readers connect to
  // store().
  /// A followed run (openRun) changed state: "running", "stalled", "crashed" or "finished";
  /// `idleSeconds` since the writer last appended a line. Also "crashed" once for a run opened
  /// without summary.json that no process writes (killed, crashed).
  void followStatusChanged(trainscope::FollowState state, double idleSeconds);

 private:
  void onRecordsAvailable();
  void record(const StepRecord& step);
  /// A resumed run: redraws what came before its first step (see resumeFrom).
  void restoreHistory(const RunInfo& info);
  /// Starts the engine for a validated config; false after emitting runFailed.
  bool launch(const TrainConfig& config, TrainerOptions options, const QString& runsRoot,
              bool pausedAfterFirstStep, bool pausedAtStart);
  void setState(State state);
  void joinThread();
  /// Following a run another process writes (run_session_follow.cpp).
  void startFollowing(const QString& dir, std::size_t events_read, int64_t last_step,
                      int64_t last_epoch_step);
  void pollFollowed();
  void stopFollowing();

  std::shared_ptr<Trainer> trainer_;
  std::shared_ptr<RecordQueue> queue_;
  QThread* thread_ = nullptr;
  State state_ = State::Idle;
  bool got_summary_ = false;
  bool got_failure_ = false;
  /// The engine's failure, emitted as runFailed once its thread has ended.
  std::optional<RunFailure> pending_failure_;
  double pace_ = 0;
  /// The shown run (a child QObject): the session writes it, readers connect to it.
  RunStore* store_ = nullptr;
  QString init_weights_;
  std::unique_ptr<RunFollower> follower_;
  QTimer* follow_timer_ = nullptr;
  std::size_t follow_skip_events_ = 0;  ///< events openRun already sent
  int64_t follow_last_step_ = 0, follow_last_epoch_step_ = 0;
  std::optional<FollowState> follow_state_;  ///< none before the first poll
};

}  // namespace trainscope

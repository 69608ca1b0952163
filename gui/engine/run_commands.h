#pragma once
/// What writers (panels, lessons, automation) call on a run session: its state and typed
/// commands. Readers connect to the store instead (gui/model/run_store.h). The in-process
/// session (RunSession: the engine's thread, worker and record queue) implements it;
/// nothing here names the Trainer, a thread or a followed run, so panels that send commands
/// compile against this header alone.
#include <QObject>
#include <QString>
#include <QVariant>

#include "gui/engine/run_state.h"

namespace trainscope {

class RunStore;

class RunCommands : public QObject {
  Q_OBJECT
 public:
  using State = RunState;
  using QObject::QObject;

  /// The store this session feeds (the shown run). Never null.
  virtual const RunStore* store() const = 0;
  virtual State state() const = 0;
  /// True while a training thread exists (running, paused or stopping).
  virtual bool isActive() const = 0;

  virtual void pause() = 0;      ///< pause before the next step
  virtual void resume() = 0;     ///< leave pause
  virtual void stepBatch() = 0;  ///< one more batch, then pause
  virtual void stepEpoch() = 0;  ///< to the end of the current epoch, then pause
  virtual void stop() = 0;       ///< end the run at the next step boundary (summary.json written)
  /// The engine pauses at the end of epoch `epoch` exactly (Trainer::pauseAfterEpoch).
  virtual void pauseAfterEpoch(qint64 epoch) = 0;

  /// The one path of a live setting edited in the dashboard: `key` is a key the key table marks
  /// live (isLiveSetting: optimizer.lr, training.amp, training.clip.enabled,
  /// training.clip.max_norm; value a double or bool) or training.non_finite (a QString). A value
  /// equal to the one in force (RunStore::liveConfig) sends nothing and returns true; otherwise
  /// the typed command below. Without an active run nothing happens and it returns false (the
  /// settings only change the next run); false with `error` (English, naming the key) when the
  /// engine refuses the value.
  virtual bool setLiveSetting(const QString& key, const QVariant& value,
                              QString* error = nullptr) = 0;
  /// Live changes while the run is running or paused, effective from the next step (the Trainer
  /// methods of the same names; each is reported back as a config_changed event). Without an
  /// active run they do nothing and return false.
  virtual bool setLearningRate(double lr) = 0;
  virtual bool setAmp(bool enabled) = 0;
  /// False with `error` (English, naming training.clip.max_norm) for max_norm <= 0 or not
  /// finite; nothing changes then.
  virtual bool setClipping(bool enabled, double maxNorm, QString* error = nullptr) = 0;
  /// Trainer::rollBack: back to the newest snapshot before `beforeStep`, lr times `lrFactor`,
  /// clipping on when `enableClipping`, and resume. False without an active run.
  virtual bool rollBack(qint64 beforeStep, double lrFactor, bool enableClipping) = 0;
  /// training.non_finite ("pause", "stop" or "skip") from the next step (Trainer::
  /// setNonFinitePolicy); emits nonFinitePolicyChanged. False without an active run or for
  /// another word.
  virtual bool setNonFinitePolicy(const QString& policy) = 0;

  /// Saves a checkpoint of the current run to `file`: while it runs or is paused, the engine
  /// writes it at the next step boundary and reports checkpoint_saved (or checkpoint_failed)
  /// as an event; after the run ended, the run's own checkpoints/last.pt (its final state) is
  /// copied there atomically and a checkpoint_saved event is emitted. False with `error` when
  /// there is nothing to save (no run, or an ended run without last.pt, or the copy failed).
  virtual bool saveCheckpoint(const QString& file, QString* error) = 0;
  /// Replaces the current run (none, paused or finished) by the checkpoint `file` resumed in a
  /// new run directory under `runsRoot`, paused at the checkpoint's step with its curves
  /// restored. When `file` is not a usable checkpoint, or a run is running or stopping, returns
  /// false with `error` set (English, naming the file) and the current run is left exactly as
  /// it was. `totalEpochs` sets the run's new total (training.epochs, as the CLI's --resume
  /// --epochs); 0 keeps the checkpoint's.
  virtual bool resumeFrom(const QString& file, const QString& runsRoot, QString* error,
                          qint64 totalEpochs = 0) = 0;
  /// Initial weights for the runs started from now on (TrainerOptions::init_weights; empty =
  /// libtorch's initialisation). Kept until changed; resumed checkpoints ignore it.
  virtual void setInitWeights(const QString& file) = 0;
  virtual const QString& initWeights() const = 0;
  /// Where a Save proposes to write: the current run's checkpoints/ folder (created on demand
  /// by the engine), else `fallback`.
  virtual QString checkpointFolder(const QString& fallback) const = 0;
  /// Forgets the previous run (the ghost), also one chosen with RunSession::setGhostRun.
  virtual void clearGhost() = 0;

 signals:
  void stateChanged(trainscope::RunState state);
  /// setNonFinitePolicy() asked the engine for `policy` (the settings show it).
  void nonFinitePolicyChanged(const QString& policy);
};

}  // namespace trainscope

#pragma once
/// Thread-safe command queue between front ends and the training loop (ARCHITECTURE §2).
/// Commands are queued from any thread and applied by the training thread at step boundaries,
/// so the model is consistent whenever one takes effect. Torch-free.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/train/records.h"

namespace trainscope {

/// What a front end can ask of a running engine. More kinds arrive with later features
/// (set learning rate, toggle clipping).
enum class CommandKind {
  Pause,
  Resume,
  StepBatch,
  StepEpoch,
  Stop,
  SetPace,
  PauseAfterEpoch,
  SaveCheckpoint,
  SetLearningRate,
  SetAmp,             ///< value 1 = AMP on, 0 = off, from the next step
  SetClip,            ///< gradient watch: clipping on/off and max_norm from the next step
  RollBack,           ///< gradient watch: restore the newest in-memory snapshot before step `value`
  SetNonFinitePolicy  ///< training.non_finite from the next step: `path` is pause|stop|skip
};

struct Command {
  CommandKind kind;
  StopReason stop_reason = StopReason::Stopped;
  /// SetPace: steps per second, 0 = full speed; PauseAfterEpoch: epoch; SetLearningRate: lr
  double value = 0;
  std::string path = {};  ///< SaveCheckpoint: the file to write; SetNonFinitePolicy: the policy
  /// SetClip: clipping on (value = max_norm); RollBack: turn clipping on after restoring.
  bool enabled = false;
  double factor = 1;  ///< RollBack: multiply the learning rate by this after restoring
  /// RollBack (a replay): when > 0, the learning rate to set after restoring, instead of the
  /// one in force times `factor` (the recorded value, bit for bit).
  double lr = 0;
};

/// A command a front end wants posted when the run reaches a step boundary (the replay of a
/// recorded run, core/train/replay.h): `command` is posted just before step `step` + 1, that
/// is at the boundary where the recorded run applied it.
struct ScheduledCommand {
  int64_t step = 0;  ///< the step after which the command takes effect (its event's step)
  Command command;
};

/// The queue plus the run-control state it drives. Producers: any thread. Consumer: the
/// training thread, through beforeStep()/afterEpoch(). Why a mutex + condition variable: a
/// paused engine must sleep (not spin) and wake at once on resume/step/stop.
class RunControl {
 public:
  /// Enqueues a command and wakes a paused engine.
  void post(Command command);

  /// Result of the boundary check before a step.
  enum class Decision { Run, Stop };
  /// What happened while applying commands at a boundary, for events.
  struct Transitions {
    bool paused = false;   ///< the engine entered the paused state (emit "paused")
    bool resumed = false;  ///< the engine left it on a resume command (emit "resumed")
    std::vector<std::string> save_paths;  ///< checkpoints to write now, at this boundary
    std::vector<double> new_lrs;          ///< SetLearningRate values to apply now, in order
    std::optional<bool> amp;              ///< SetAmp: switch AMP before the next step
    /// Commands the training thread carries out itself at this boundary, in order (SetClip,
    /// RollBack, SetNonFinitePolicy): they change engine state, not the run-control state.
    std::vector<Command> engine_commands;
  };

  /// Called by the training thread before every step. Applies queued commands; while paused
  /// and no single step is pending, calls `on_transition` once (outside the lock) and waits;
  /// checkpoint saves requested meanwhile are handed to `on_transition` too (also while
  /// paused), so the caller writes them at this step boundary. With a
  /// pace set (SetPace), also waits until 1/pace seconds have passed since the previous step
  /// (single steps from pause are not delayed); commands still take effect at once. The
  /// caller counts the whole wait as paused time, so pacing changes no number of the run.
  /// Returns Stop once a stop was requested (stopReason() says why).
  template <typename OnTransition>
  Decision beforeStep(OnTransition&& on_transition);

  /// Called by the training thread after epoch `epoch` completed (validation included): ends a
  /// "step epoch" request, leaving the engine paused, and pauses when a PauseAfterEpoch for
  /// this epoch (or an earlier one) is pending.
  void afterEpoch(int64_t epoch);
  /// Puts the engine into the paused state from inside (non-finite policy "pause").
  void pauseFromEngine();

  /// Why the run stops (valid once beforeStep() returned Stop).
  StopReason stopReason() const;

 private:
  void applyLocked(Transitions& t);

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Command> queue_;
  bool paused_ = false;
  int64_t pending_batches_ = 0;  ///< single steps granted while paused
  bool run_to_epoch_end_ = false;
  bool stop_ = false;
  StopReason stop_reason_ = StopReason::Stopped;
  bool announced_pause_ = false;
  double pace_ = 0;                ///< steps per second; 0 = as fast as possible
  int64_t pause_after_epoch_ = 0;  ///< 0 = none
  std::chrono::steady_clock::time_point last_step_{};
};

template <typename OnTransition>
RunControl::Decision RunControl::beforeStep(OnTransition&& on_transition) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    Transitions t;
    applyLocked(t);
    if (stop_) return Decision::Stop;
    bool may_run = !paused_ || run_to_epoch_end_ || pending_batches_ > 0;
    if (!may_run && !announced_pause_) {
      announced_pause_ = true;
      t.paused = true;
    }
    if (t.paused || t.resumed || !t.save_paths.empty() || !t.new_lrs.empty() || t.amp ||
        !t.engine_commands.empty()) {
      lock.unlock();
      on_transition(t);
      lock.lock();
      continue;  // commands may have arrived meanwhile
    }
    if (may_run) {
      const bool single_step = paused_ && !run_to_epoch_end_;
      const auto now = std::chrono::steady_clock::now();
      if (pace_ > 0 && !single_step) {
        const auto due =
            last_step_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(1.0 / pace_));
        if (now < due) {
          cv_.wait_until(lock, due, [this] { return !queue_.empty(); });
          continue;  // re-check commands and the (possibly changed) pace
        }
      }
      last_step_ = now;
      if (single_step) --pending_batches_;
      return Decision::Run;
    }
    cv_.wait(lock, [this] { return !queue_.empty(); });
  }
}

}  // namespace trainscope

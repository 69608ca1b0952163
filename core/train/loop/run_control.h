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
#include <variant>
#include <vector>

#include "core/run/records.h"

namespace trainscope {

/// What a front end can ask of a running engine: one type per command, each with its own
/// typed arguments (core/train/trainer.h's methods post them).
namespace command {
struct Pause {};
struct Resume {};
struct StepBatch {};  ///< one optimizer step, then paused
struct StepEpoch {};  ///< to the end of the current epoch (validation included), then paused
struct Stop {
  StopReason reason = StopReason::Stopped;
  std::string why;  ///< said in the run's stopped event (a sweep's pruning rule)
};
struct SetPace {
  double steps_per_second = 0;  ///< 0 = full speed
};
struct PauseAfterEpoch {
  int64_t epoch = 0;  ///< pause once this epoch (1-based) has ended
};
struct SaveCheckpoint {
  std::string file;
};
struct SetLearningRate {
  double lr = 0;  ///< from the next step
};
struct SetAmp {
  bool enabled = false;  ///< from the next step
};
/// Gradient watch: clipping on/off from the next step; max_norm changes it when > 0.
struct SetClip {
  bool enabled = false;
  double max_norm = 0;
};
/// Gradient watch: restore the newest in-memory snapshot taken before step `before_step`.
struct RollBack {
  int64_t before_step = 0;
  bool enable_clipping = false;  ///< turn clipping on after restoring
  double factor = 1;             ///< multiply the learning rate by this after restoring
  /// A replay: when > 0, the learning rate to set after restoring, instead of the one in force
  /// times `factor` (the recorded value, bit for bit).
  double lr = 0;
};
/// training.non_finite from the next step.
struct SetNonFinitePolicy {
  std::string policy;  ///< pause | stop | skip
};
}  // namespace command

using Command =
    std::variant<command::Pause, command::Resume, command::StepBatch, command::StepEpoch,
                 command::Stop, command::SetPace, command::PauseAfterEpoch, command::SaveCheckpoint,
                 command::SetLearningRate, command::SetAmp, command::SetClip, command::RollBack,
                 command::SetNonFinitePolicy>;

/// A command a front end wants posted when the run reaches a step boundary (the replay of a
/// recorded run, core/train/loop/replay.h): `command` is posted just before step `step` + 1, that
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
  /// The first Stop command's `why` (empty when none was given).
  std::string stopWhy() const;

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
  std::string stop_why_;
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

#include "core/train/run_control.h"

namespace trainscope {

void RunControl::post(Command command) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(command);
  }
  cv_.notify_all();
}

void RunControl::applyLocked(Transitions& t) {
  while (!queue_.empty()) {
    Command c = queue_.front();
    // Events in the order of the commands: a pause or resume given after an action (a save,
    // a roll-back, ...) waits for the next round, once the caller has reported that action.
    const bool actions =
        !t.save_paths.empty() || !t.new_lrs.empty() || t.amp || !t.engine_commands.empty();
    if (actions && (c.kind == CommandKind::Pause || c.kind == CommandKind::Resume)) return;
    queue_.pop_front();
    switch (c.kind) {
      case CommandKind::Pause:
        paused_ = true;
        break;
      case CommandKind::Resume:
        if (paused_ && announced_pause_) t.resumed = true;
        paused_ = false;
        pending_batches_ = 0;
        run_to_epoch_end_ = false;
        announced_pause_ = false;
        break;
      case CommandKind::StepBatch:
        paused_ = true;
        ++pending_batches_;
        break;
      case CommandKind::StepEpoch:
        paused_ = true;
        run_to_epoch_end_ = true;
        // The engine runs a whole epoch and then waits again: announce that pause anew, so
        // front ends that showed "running" for the epoch learn it has paused.
        announced_pause_ = false;
        break;
      case CommandKind::Stop:
        if (!stop_) stop_reason_ = c.stop_reason;
        stop_ = true;
        break;
      case CommandKind::SetPace:
        pace_ = c.value > 0 ? c.value : 0;
        break;
      case CommandKind::PauseAfterEpoch:
        pause_after_epoch_ = static_cast<int64_t>(c.value);
        break;
      case CommandKind::SaveCheckpoint:
        t.save_paths.push_back(c.path);
        break;
      case CommandKind::SetLearningRate:
        t.new_lrs.push_back(c.value);
        break;
      case CommandKind::SetAmp:
        t.amp = c.value != 0;
        break;
      case CommandKind::SetClip:
      case CommandKind::RollBack:
      case CommandKind::SetNonFinitePolicy:
        t.engine_commands.push_back(c);
        break;
    }
  }
}

void RunControl::afterEpoch(int64_t epoch) {
  std::lock_guard<std::mutex> lock(mutex_);
  run_to_epoch_end_ = false;
  if (pause_after_epoch_ > 0 && epoch >= pause_after_epoch_) {
    paused_ = true;
    announced_pause_ = false;
    pending_batches_ = 0;
    pause_after_epoch_ = 0;
  }
}

void RunControl::pauseFromEngine() {
  std::lock_guard<std::mutex> lock(mutex_);
  paused_ = true;
  announced_pause_ = false;  // a new reason to pause: always reported
  pending_batches_ = 0;
  run_to_epoch_end_ = false;
}

StopReason RunControl::stopReason() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stop_reason_;
}

}  // namespace trainscope

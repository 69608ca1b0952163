#include "core/train/loop/run_control.h"

#include "core/system/overloaded.h"

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
    const Command c = queue_.front();
    // Events in the order of the commands: a pause or resume given after an action (a save,
    // a roll-back, ...) waits for the next round, once the caller has reported that action.
    const bool actions =
        !t.save_paths.empty() || !t.new_lrs.empty() || t.amp || !t.engine_commands.empty();
    if (actions &&
        (std::holds_alternative<command::Pause>(c) || std::holds_alternative<command::Resume>(c)))
      return;
    queue_.pop_front();
    std::visit(Overloaded{
                   [&](const command::Pause&) { paused_ = true; },
                   [&](const command::Resume&) {
                     if (paused_ && announced_pause_) t.resumed = true;
                     paused_ = false;
                     pending_batches_ = 0;
                     run_to_epoch_end_ = false;
                     announced_pause_ = false;
                   },
                   [&](const command::StepBatch&) {
                     paused_ = true;
                     ++pending_batches_;
                   },
                   [&](const command::StepEpoch&) {
                     paused_ = true;
                     run_to_epoch_end_ = true;
                     // The engine runs a whole epoch and then waits again: announce that pause
                     // anew, so front ends that showed "running" for the epoch learn it paused.
                     announced_pause_ = false;
                   },
                   [&](const command::Stop& s) {
                     if (!stop_) {
                       stop_reason_ = s.reason;
                       stop_why_ = s.why;
                     }
                     stop_ = true;
                   },
                   [&](const command::SetPace& p) {
                     pace_ = p.steps_per_second > 0 ? p.steps_per_second : 0;
                   },
                   [&](const command::PauseAfterEpoch& p) { pause_after_epoch_ = p.epoch; },
                   [&](const command::SaveCheckpoint& s) { t.save_paths.push_back(s.file); },
                   [&](const command::SetLearningRate& s) { t.new_lrs.push_back(s.lr); },
                   [&](const command::SetAmp& s) { t.amp = s.enabled; },
                   // The training thread carries these out itself: engine state.
                   [&](const command::SetClip&) { t.engine_commands.push_back(c); },
                   [&](const command::RollBack&) { t.engine_commands.push_back(c); },
                   [&](const command::SetNonFinitePolicy&) { t.engine_commands.push_back(c); },
               },
               c);
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

std::string RunControl::stopWhy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stop_why_;
}

StopReason RunControl::stopReason() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stop_reason_;
}

}  // namespace trainscope

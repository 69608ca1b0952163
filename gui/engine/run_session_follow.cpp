// RunSession: following a run another process writes (see openRun in
// run_session.h). Read-only: the follower only opens the run's files for reading.
#include <QTimer>

#include "core/errors.h"
#include "core/run/run_follower.h"
#include "gui/engine/run_session.h"
#include "gui/model/run_feed.h"

namespace trainscope {

namespace {
constexpr int kPollMs = 250;            // appended rows show within half a second
constexpr double kStallSeconds = 30.0;  // then "stalled"
}  // namespace

bool RunSession::isFollowing() const { return follower_ != nullptr; }

void RunSession::startFollowing(const QString& dir, std::size_t events_read,
                                        int64_t last_step, int64_t last_epoch_step) {
  follower_ = std::make_unique<RunFollower>(dir.toStdString(), kStallSeconds);
  follow_skip_events_ = events_read;
  follow_last_step_ = last_step;
  follow_last_epoch_step_ = last_epoch_step;
  follow_state_.reset();
  if (!follow_timer_) {
    follow_timer_ = new QTimer(this);
    follow_timer_->setInterval(kPollMs);
    connect(follow_timer_, &QTimer::timeout, this, &RunSession::pollFollowed);
  }
  pollFollowed();  // what was appended since readRun, at once
  if (follower_) follow_timer_->start();
}

void RunSession::stopFollowing() {
  if (follow_timer_) follow_timer_->stop();
  follower_.reset();
}

void RunSession::pollFollowed() {
  if (!follower_) return;
  RunFollower::Update u;
  try {
    u = follower_->poll();
  } catch (const Error&) {  // a row that does not parse: the folder is not written by us
    stopFollowing();
    emit followStatusChanged(FollowState::Crashed, 0);
    return;
  }
  if (u.reset) {  // a new run in the same folder (--overwrite): read it again from the top
    const QString dir = store_->run_dir_;
    stopFollowing();
    QString error;
    openRun(dir, &error);
    return;
  }
  // The follower reads from line 1: what openRun already showed is skipped.
  for (const StepRecord& s : u.steps) {
    if (s.step <= follow_last_step_) continue;
    follow_last_step_ = s.step;
    feedStep(store_->history_, s);
    ++store_->step_count_;
    if (!s.applied) ++store_->skipped_steps_;
    store_->last_step_ = s;
  }
  if (store_->last_step_ && !u.steps.empty()) emit store_->stepRecorded(*store_->last_step_);
  for (const EpochRecord& e : u.epochs) {
    if (e.step <= follow_last_epoch_step_) continue;
    follow_last_epoch_step_ = e.step;
    feedEpoch(store_->history_, e);
    emit store_->epochFinished(e);
  }
  for (const Event& e : u.events) {
    if (follow_skip_events_ > 0) {
      --follow_skip_events_;
      continue;
    }
    store_->addEvent(e);
  }
  if (u.summary) {
    stopFollowing();
    store_->summary_ = *u.summary;
    store_->last_diagnosis_ = store_->summary_.diagnosis;
    if (store_->last_diagnosis_) emit store_->diagnosisChanged(*store_->last_diagnosis_);
    emit followStatusChanged(FollowState::Finished, 0);
    emit store_->runFinished(store_->summary_);
    return;
  }
  const FollowState state = u.status.state;
  if (state != follow_state_ || state == FollowState::Stalled) {
    follow_state_ = state;
    emit followStatusChanged(state, u.status.idle_seconds);
  }
  if (state == FollowState::Crashed) stopFollowing();
}

}  // namespace trainscope

// RunSession and runs chosen in the Runs window: one as the live view's ghost, one
// replayed (see setGhostRun and replayRun in run_session.h).
#include <QFileInfo>
#include <exception>

#include "core/config/config_json.h"
#include "core/run/run_reader.h"
#include "core/train/loop/replay.h"
#include "gui/engine/run_session.h"
#include "gui/model/run_feed.h"

namespace trainscope {

bool RunSession::setGhostRun(const QString& dir, QString* error) {
  RunRecord run;
  TrainConfig config;
  try {  // read everything before the current ghost is touched
    run = readRun(dir.toStdString());
    config = configFromJson(run.config);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  store_->previous_.clear();
  feedRun(store_->previous_, run);
  store_->ghost_chosen_ = true;
  store_->ghost_config_ = config;
  store_->ghost_name_ = QFileInfo(QString::fromStdString(run.dir.string())).fileName();
  store_->ghost_changes_ = configChanges(config, store_->config_);
  return true;
}

bool RunSession::replayRun(const QString& dir, const QString& runsRoot, QString* error) {
  if (isActive()) {
    if (error) *error = QStringLiteral("a run is active: stop it before replaying another");
    return false;
  }
  ReplayPlan plan;
  try {
    plan = planReplay(dir.toStdString());
    TrainerOptions check;  // the checkpoint or weights it starts from must still fit
    check.resume_from = plan.resume_from;
    check.init_weights = plan.init_weights;
    Trainer::check(plan.config, check);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  TrainerOptions options;
  options.scheduled_commands = plan.commands;
  options.resume_from = plan.resume_from;
  options.init_weights = plan.init_weights;
  return launch(plan.config, options, runsRoot, false, false);
}

}  // namespace trainscope

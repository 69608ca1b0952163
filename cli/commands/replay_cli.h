#pragma once
/// `train --replay RUN_DIR`'s front-end parts (core/train/loop/replay.h does the planning): the
/// checks on --out and the line that says what will be replayed. Internal to the CLI library.
#include <string>

#include "core/train/loop/replay.h"

namespace trainscope::cli {

/// 0 when --out `out` may receive the replay `plan`, else kExitUsage (message printed): the
/// replay never writes into the run it replays nor into a folder holding it or the checkpoint
/// it resumes from (--overwrite would delete them).
int checkReplayOut(const ReplayPlan& plan, const std::string& out);

/// "replaying RUN_DIR: N live changes at their steps, stopping after step S as it did" on
/// stderr.
void printReplayPlan(const ReplayPlan& plan);

}  // namespace trainscope::cli

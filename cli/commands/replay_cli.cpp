#include "cli/commands/replay_cli.h"

#include <cstdio>
#include <filesystem>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"

namespace trainscope::cli {

namespace fs = std::filesystem;

int checkReplayOut(const ReplayPlan& plan, const std::string& out) {
  if (out.empty()) return kExitOk;  // a new runs/<name>-<time> folder
  std::error_code ec;
  const std::string o = fs::weakly_canonical(out, ec).string() + "/";
  for (const fs::path& kept : {plan.run_dir, plan.resume_from}) {
    if (kept.empty()) continue;
    const std::string k = fs::weakly_canonical(kept, ec).string() + "/";
    if (k.compare(0, o.size(), o) == 0) {
      printError("--out " + out + " is (or holds) " + kept.string() + ", which the replay of " +
                 plan.run_dir.string() +
                 " needs; a replay writes a new run directory: choose "
                 "another --out");
      return kExitUsage;
    }
  }
  return kExitOk;
}

void printReplayPlan(const ReplayPlan& plan) {
  std::string line = std::string(kProgram) + ": replaying " + plan.run_dir.string() + ": " +
                     std::to_string(plan.changes) + " recorded live change" +
                     (plan.changes == 1 ? "" : "s") + " at their steps";
  if (!plan.resume_from.empty()) line += ", resumed from " + plan.resume_from.string();
  if (plan.stop_step)
    line += ", stopping after step " + std::to_string(*plan.stop_step) + " as it did";
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace trainscope::cli

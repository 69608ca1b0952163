// `trainscope-cli lr-find`: the learning-rate range test (core/train/probes/lr_finder.h) for a preset
// or config; prints the curve and a last line `suggested_lr=X`.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/system/number_format.h"
#include "core/train/probes/lr_finder.h"

namespace trainscope::cli {

LrFindCommand::LrFindCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "lr-find",
          "Learning-rate range test: train a copy of the model with an exponentially growing "
          "learning rate and suggest the one where the loss falls fastest")) {
  sub_->add_option("--preset", preset_,
                   "Built-in preset to start from (default: " + defaultPresetName() +
                       " when no --config is given)");
  nonEmptyPath(sub_->add_option("--config", config_file_, "JSON config file (may be partial)"));
  sub_->add_option("--set", sets_, "KEY=VALUE override, repeatable")
      ->allow_extra_args(false)
      ->type_name("KEY=VALUE");
  sub_->add_option("--start-lr", options_.start_lr, "First learning rate (default 1e-7)");
  sub_->add_option("--end-lr", options_.end_lr, "Last learning rate (default 10)");
  sub_->add_option("--steps", options_.steps, "Number of steps (default 100)");
}

bool LrFindCommand::parsed() const { return sub_->parsed(); }

int LrFindCommand::run() const {
  const TrainConfig config = resolveConfig(preset_, config_file_, sets_);
  const LrFinderResult r = findLearningRate(config, options_);
  std::printf("step,lr,loss,smoothed_loss\n");
  for (size_t i = 0; i < r.points.size(); ++i) {
    const auto& p = r.points[i];
    std::printf("%zu,%s,%s,%s\n", i + 1, formatNumber(p.lr).c_str(), formatNumber(p.loss).c_str(),
                formatNumber(p.smoothed_loss).c_str());
  }
  if (r.stopped_early)
    std::fprintf(stderr, "stopped after %zu steps: the smoothed loss exceeded 4x its minimum\n",
                 r.points.size());
  std::printf("suggested_lr=%s\n", formatNumber(r.suggested_lr).c_str());
  return kExitOk;
}

}  // namespace trainscope::cli

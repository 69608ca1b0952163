// `trainscope-cli presets`
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "core/config/train_config.h"

namespace trainscope::cli {

PresetsCommand::PresetsCommand(CLI::App& app)
    : sub_(app.add_subcommand("presets", "List the built-in presets")) {}

bool PresetsCommand::parsed() const { return sub_->parsed(); }

int PresetsCommand::run() const {
  const std::string def = defaultPresetName();
  size_t width = 0;
  const auto list = presets();
  for (const auto& p : list) width = std::max(width, p.name.size());
  for (const auto& p : list) {
    std::printf("%-*s  %s%s\n", static_cast<int>(width), p.name.c_str(), p.description.c_str(),
                p.name == def ? " (default)" : "");
  }
  return kExitOk;
}

}  // namespace trainscope::cli

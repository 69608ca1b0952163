// `trainscope-cli export-python RUN|--preset NAME|--config FILE [-o FILE]`: the run as a plain
// PyTorch script (core/train/teaching/python_script.h).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "cli/output_file.h"
#include "core/config/config_json.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/train/teaching/python_script.h"

namespace trainscope::cli {

ExportPythonCommand::ExportPythonCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "export-python",
          "Write a plain PyTorch 1.13 script that trains as a run, preset or config does (the "
          "same per-step losses on the CPU); run it as `python3 FILE --out DIR`")) {
  nonEmptyPath(sub_->add_option("run", run_, "A run folder (its config.json)"));
  sub_->add_option("--preset", preset_, "A built-in preset instead of a run");
  nonEmptyPath(sub_->add_option("--config", config_file_, "A config file instead of a run"));
  sub_->add_option("--set", sets_, "KEY=VALUE override, repeatable")
      ->allow_extra_args(false)
      ->type_name("KEY=VALUE");
  nonEmptyPath(sub_->add_option("-o,--output", output_,
                                "Write the script to FILE (default: print it); a file TrainScope "
                                "did not write is never replaced"));
}

bool ExportPythonCommand::parsed() const { return sub_->parsed(); }

int ExportPythonCommand::run() const {
  namespace fs = std::filesystem;
  const int given = !run_.empty() + !preset_.empty() + !config_file_.empty();
  if (given != 1) {
    printError("export-python takes one of RUN, --preset NAME or --config FILE");
    return kExitUsage;
  }
  const fs::path out = output_.empty() ? fs::path() : checkOutputFile(output_, "-o", startsWith(kPythonScriptMarker));
  PythonScriptSource source;
  fs::path config_file = config_file_;
  if (!run_.empty()) {
    std::error_code ec;
    const fs::path dir = fs::absolute(run_, ec).lexically_normal();
    if (!fs::exists(dir, ec))
      throw Error(ErrorCode::Config, run_, run_ + " does not exist");
    if (!fs::is_directory(dir, ec))
      throw Error(ErrorCode::Config, run_,
                  run_ + " is not a run folder (a file: for a config file use --config)");
    config_file = dir / "config.json";
    if (!fs::is_regular_file(config_file, ec))
      throw Error(ErrorCode::Config, run_,
                  dir.string() + " is not a TrainScope run folder: it has no config.json");
    source.description = "the run " + dir.string();
  } else if (!preset_.empty()) {
    source.description = "the preset " + preset_;
  } else {
    source.description = "the config file " + fs::absolute(config_file).lexically_normal().string();
  }
  const TrainConfig config = resolveConfig(preset_, config_file, sets_);  // Error: exit 2
  const std::string script = pythonScript(config, source);
  if (out.empty()) {
    std::fputs(script.c_str(), stdout);
  } else {
    writeFileAtomic(out, script);
    std::fprintf(stderr, "wrote %s; run it as: python3 %s --out DIR\n", out.c_str(), out.c_str());
  }
  return kExitOk;
}

}  // namespace trainscope::cli

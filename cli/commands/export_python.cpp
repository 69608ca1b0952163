// `trainscope-cli export-python RUN|--preset NAME|--config FILE [-o FILE]`: the run as a plain
// PyTorch script (core/train/teaching/python_script.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "cli/output_file.h"
#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/run/run_reader.h"
#include "core/train/teaching/python_script.h"

namespace trainscope::cli {
namespace {

/// What a script cannot reproduce of the run in `dir`: a resume from a checkpoint (run.json
/// `resumed_from`) and the settings changed or steps rolled back while it trained
/// (events.jsonl); each is also printed as a warning.
std::vector<std::string> runCaveats(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  const RunChanges c = readRunChanges(dir);
  if (!c.resumed_from.empty())
    out.push_back("this run was resumed from " + c.resumed_from + " at step " +
                  std::to_string(c.resumed_step) +
                  "; the script trains from the start, so its steps differ from steps.csv.");
  if (!c.changes.empty()) {
    std::string text = "settings changed or steps rolled back while this run trained (" + c.changes[0];
    for (size_t i = 1; i < c.changes.size() && i < 3; ++i) text += "; " + c.changes[i];
    if (c.changes.size() > 3) text += "; and " + std::to_string(c.changes.size() - 3) + " more";
    out.push_back(text + "); the script trains with the settings the run started with, so its "
                  "losses differ from steps.csv after the first of them (`trainscope-cli train "
                  "--replay` repeats them).");
  }
  for (const std::string& t : out) std::fprintf(stderr, "%s: warning: %s\n", kProgram, t.c_str());
  return out;
}

}  // namespace

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
  if (given > 1 || (given == 0 && sets_.empty())) {  // --set alone: the default preset, as train
    printError("export-python takes one of RUN, --preset NAME or --config FILE");
    return kExitUsage;
  }
  const fs::path out = output_.empty() ? fs::path() : checkOutputFile(output_, "-o", startsWith(kPythonScriptMarker));
  PythonScriptSource source;
  fs::path config_file = config_file_;
  if (!run_.empty()) {
    const fs::path dir = checkRunFolder(run_, "; for a config file use --config");
    config_file = dir / "config.json";
    source.description = "the run " + dir.string();
    source.caveats = runCaveats(dir);
  } else if (!preset_.empty()) {
    source.description = "the preset " + preset_;
  } else if (!config_file.empty()) {
    source.description = "the config file " + fs::absolute(config_file).lexically_normal().string();
  } else {
    source.description = "the default preset";
  }
  for (const std::string& s : sets_) source.description += ", with --set " + s;
  const TrainConfig config = resolveConfig(preset_, config_file, sets_);  // Error: exit 2
  if (!run_.empty() && isOwnDataSource(config.data.source))
    source.own_data = readOwnDataRecord(config_file.parent_path(), config);  // Error: exit 2
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

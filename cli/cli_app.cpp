// trainscope-cli: argument parsing and dispatch to the subcommands (cli/commands/), exit codes.
#include "cli/cli_app.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands/commands.h"
#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/system/child_process.h"
#include "core/system/device_info.h"

namespace trainscope::cli {

namespace {
std::string& messageTag() {
  static std::string tag;
  return tag;
}
}  // namespace

void setMessageTag(const std::string& tag) { messageTag() = tag; }

CLI::Option* nonEmptyPath(CLI::Option* option) {
  return option->check(CLI::Validator(
      [](std::string& value) {
        if (value.empty()) return std::string("an empty path names no file or directory");
        // Paths are recorded in JSON files (config.json, run.json), which hold UTF-8 text:
        // nlohmann_json refuses other bytes, which used to end a run half-written.
        try {
          (void)nlohmann::json(value).dump();
        } catch (const nlohmann::json::exception&) {
          std::string shown;
          for (unsigned char c : value) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            shown += c >= 0x20 && c < 0x7f ? std::string(1, static_cast<char>(c)) : hex;
          }
          return "the path " + shown +
                 " is not valid UTF-8; TrainScope records paths in its JSON files (config.json, "
                 "run.json), which hold UTF-8 text: rename it";
        }
        return std::string();
      },
      ""));
}

void printError(const std::string& message) {
  const std::string& tag = messageTag();
  std::fprintf(stderr, "%s%s: error: %s\n", kProgram, tag.empty() ? "" : (" (" + tag + ")").c_str(),
               message.c_str());
  std::fflush(stderr);
}

int exitCodeFor(StopReason reason) {
  switch (reason) {
    case StopReason::Completed:
    case StopReason::EarlyStop:
    case StopReason::Pruned:  // a sweep's decision, not a fault
      return kExitOk;
    case StopReason::NonFinite:
    case StopReason::Diverged:
      return kExitNonFinite;
    case StopReason::Interrupted:
      return kExitInterrupted;
    case StopReason::Stopped:
    case StopReason::Error:
      return kExitFailure;
  }
  return kExitFailure;
}

int exitCodeFor(const Error& error) {
  switch (error.code()) {
    case ErrorCode::Config:
    case ErrorCode::Data:
    case ErrorCode::Checkpoint:
      return kExitUsage;
    case ErrorCode::Io:
    case ErrorCode::Internal:
      return kExitFailure;
  }
  return kExitFailure;
}

void noteDefaultPreset(const TrainConfig& config) {
  const bool cnn = config.model.kind == "cnn";
  std::string sizes;
  for (int64_t h : cnn ? config.model.cnn.channels : config.model.hidden)
    sizes += (sizes.empty() ? "" : ",") + std::to_string(h);
  std::fprintf(stderr,
               "note: no --preset or --config: starting from the default preset %s, so "
               "training.epochs is %lld, data.val_fraction %g and model.kind %s (%s [%s]) unless "
               "--set changes them; give --preset or --config to start elsewhere\n",
               defaultPresetName().c_str(), static_cast<long long>(config.training.epochs),
               config.data.val_fraction, config.model.kind.c_str(),
               cnn ? "model.cnn.channels" : "model.hidden", sizes.c_str());
}

std::string errorMessage(const Error& error) {
  std::string message = error.what();
  if (!error.subject().empty() && message.find(error.subject()) == std::string::npos)
    message += " (" + error.subject() + ")";
  return message;
}

int runCli(int argc, char** argv) {
  CLI::App app{"TrainScope: train neural networks with libtorch and record every step.", kProgram};
  app.footer(
      "Exit codes: 0 completed (or early stop), 1 failure, 2 bad input (arguments, config, "
      "data, checkpoint), 3 stopped on a non-finite loss or gradient, or on a divergence, 4 "
      "verify-repro found a "
      "difference, 130 interrupted (Ctrl-C/SIGTERM).");
  app.require_subcommand(0, 1);
  bool version = false;
  app.add_flag("--version", version, "Print the TrainScope and libtorch versions and exit");

  TrainCommand train(app);
  PresetsCommand presets_cmd(app);
  ConfigCommand config_cmd(app);
  DeviceCommand device(app);
  InspectCommand inspect(app);
  InspectModelCommand inspect_model(app);
  LrFindCommand lr_find(app);
  DataCommand data_cmd(app);
  EvaluateCommand evaluate(app);
  VerifyReproCommand verify_repro(app);
  AmpCompareCommand amp_compare(app);
  LaunchCommand launch(app);
  RunsCommand runs_cmd(app);
  CompareCommand compare_cmd(app);
  FollowCommand follow_cmd(app);
  ExportPythonCommand export_python(app);
  ExportCommand export_model(app);
  ReportCommand report_cmd(app);
  SweepCommand sweep_cmd(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints help (exit 0) or the parse error; every parse error is a usage error (2).
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (version) {
      // Versions only: no device probing (that is `device`'s job).
      std::printf("%s %s (libtorch %s)\n", kProgram, trainscopeVersion(),
                  libtorchVersion().c_str());
      return kExitOk;
    }
    if (train.parsed())
      return train.run(joinCommandLine(std::vector<std::string>(argv, argv + argc)));
    if (presets_cmd.parsed()) return presets_cmd.run();
    if (config_cmd.parsed()) return config_cmd.run();
    if (device.parsed()) return device.run();
    if (inspect.parsed()) return inspect.run();
    if (inspect_model.parsed()) return inspect_model.run();
    if (lr_find.parsed()) return lr_find.run();
    if (data_cmd.parsed()) return data_cmd.run();
    if (evaluate.parsed()) return evaluate.run();
    if (verify_repro.parsed()) return verify_repro.run();
    if (amp_compare.parsed()) return amp_compare.run();
    if (launch.parsed()) return launch.run();
    if (runs_cmd.parsed()) return runs_cmd.run();
    if (compare_cmd.parsed()) return compare_cmd.run();
    if (follow_cmd.parsed()) return follow_cmd.run();
    if (export_python.parsed()) return export_python.run();
    if (export_model.parsed()) return export_model.run();
    if (report_cmd.parsed()) return report_cmd.run();
    if (sweep_cmd.parsed()) return sweep_cmd.run();
  } catch (const Error& e) {
    printError(errorMessage(e));
    return exitCodeFor(e);
  } catch (const std::exception& e) {
    printError(e.what());
    return kExitFailure;
  }
  std::fprintf(stderr, "%s", app.help().c_str());
  return kExitUsage;
}

}  // namespace trainscope::cli

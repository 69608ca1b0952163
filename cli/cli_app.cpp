#include "cli/cli_app.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "cli/progress.h"
#include "cli/signal_watcher.h"
#include "core/config/config_json.h"
#include "core/io/run_dir.h"
#include "core/system/device_info.h"
#include "core/system/device_info_json.h"
#include "core/train/trainer.h"

namespace fs = std::filesystem;

namespace trainscope::cli {

namespace {

constexpr const char* kProgram = "trainscope-cli";

/// Arguments of `train`.
struct TrainArgs {
  std::string preset;
  std::string config_file;
  std::vector<std::string> sets;
  int64_t epochs = 0;
  std::string out;
  bool overwrite = false;
  bool json = false;
};

void printError(const std::string& message) {
  std::fprintf(stderr, "%s: error: %s\n", kProgram, message.c_str());
  std::fflush(stderr);
}

/// True when clearing `dir` would destroy something that is clearly not a run directory:
/// the file system root, the home directory, or the current directory or one of its parents.
bool isDangerousToClear(const fs::path& dir) {
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(dir, ec);
  if (ec) return true;
  if (target == target.root_path()) return true;
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    if (fs::weakly_canonical(home, ec) == target) return true;
  }
  const fs::path cwd = fs::current_path(ec);
  if (ec) return true;
  // Is `target` the current directory or an ancestor of it?
  auto t = target.begin(), c = cwd.begin();
  for (; t != target.end() && c != cwd.end(); ++t, ++c)
    if (*t != *c) return false;
  return t == target.end() || (t != target.end() && t->empty());
}

/// Validates --out. Returns 0 when the run may use `dir`, else an exit code (message printed).
int prepareOutDir(const fs::path& dir, bool overwrite) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    printError("--out " + dir.string() + " exists and is not a directory");
    return kExitUsage;
  }
  if (!isNonEmptyDirectory(dir)) return kExitOk;
  if (!overwrite) {
    printError("--out " + dir.string() +
               " is not empty; refusing to mix runs (use --overwrite to replace its contents, "
               "or choose another directory)");
    return kExitUsage;
  }
  if (isDangerousToClear(dir)) {
    printError("--out " + dir.string() +
               " is the root, home or current directory (or a parent of it); --overwrite will "
               "not clear it");
    return kExitUsage;
  }
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    fs::remove_all(entry.path(), ec);
    if (ec) {
      printError("--overwrite: cannot remove " + entry.path().string() + ": " + ec.message());
      return kExitFailure;
    }
  }
  if (ec) {
    printError("--overwrite: cannot list " + dir.string() + ": " + ec.message());
    return kExitFailure;
  }
  return kExitOk;
}

int runPresets() {
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

int runDevice(bool json) {
  const DeviceInfo info = probeDevices();
  if (json) {
    std::printf("%s\n", toJson(info).dump(2).c_str());
    return kExitOk;
  }
  std::printf("trainscope      %s\n", info.trainscope_version.c_str());
  std::printf("libtorch        %s\n", info.torch_version.c_str());
  std::printf("default device  %s\n", info.default_device.c_str());
  if (info.cuda_available) {
    std::printf("CUDA            available, %d device%s\n", info.cuda_device_count,
                info.cuda_device_count == 1 ? "" : "s");
    for (const auto& d : info.cuda_devices) std::printf("                %s\n", d.c_str());
  } else {
    std::printf("CUDA            not available%s%s\n",
                info.cuda_unavailable_reason.empty() ? "" : ": ",
                info.cuda_unavailable_reason.c_str());
  }
  std::printf("CPU             %s, %d logical core%s\n",
              info.cpu_name.empty() ? "unknown" : info.cpu_name.c_str(), info.cpu_cores,
              info.cpu_cores == 1 ? "" : "s");
  std::printf("threads         %d per run by default\n", info.default_threads);
  std::printf("BLAS            %s\n",
              info.blas_library.empty() ? "unknown" : info.blas_library.c_str());
  return kExitOk;
}

int runTrain(const TrainArgs& args, bool epochs_given, const std::string& command_line) {
  // Block SIGINT/SIGTERM first: every thread started from here on (libtorch's pool, the
  // watcher) inherits the mask, so only the watcher's sigtimedwait ever sees the signals.
  SignalWatcher::blockSignals();

  std::vector<std::string> sets = args.sets;
  if (epochs_given) sets.push_back("training.epochs=" + std::to_string(args.epochs));

  TrainConfig config;
  try {
    config = resolveConfig(args.preset, args.config_file, sets);
  } catch (const Error& e) {
    printError(errorMessage(e));
    return exitCodeFor(e);
  }
  if (config.training.non_finite && *config.training.non_finite == "pause") {
    // Nobody can resume a paused headless run.
    std::fprintf(stderr,
                 "%s: note: training.non_finite is \"pause\", which needs someone to resume; "
                 "using \"stop\" instead\n",
                 kProgram);
    config.training.non_finite = "stop";
  }

  fs::path run_dir;
  bool dir_created_here = false, runs_root_created_here = false;
  try {
    if (!args.out.empty()) {
      run_dir = args.out;
      std::error_code ec;
      dir_created_here = !fs::exists(run_dir, ec);
      if (int rc = prepareOutDir(run_dir, args.overwrite); rc != kExitOk) return rc;
    } else {
      std::error_code ec;
      runs_root_created_here = !fs::exists("runs", ec);
      run_dir = createUniqueRunDir("runs", config.name);
      dir_created_here = true;
    }
  } catch (const Error& e) {
    printError(errorMessage(e));
    return exitCodeFor(e);
  }

  TrainerOptions options;
  options.run_dir = run_dir;
  options.front_end = "cli";
  options.command_line = command_line;
  options.default_non_finite = "stop";
  Trainer trainer(config, options);

  ProgressOptions progress;
  progress.style = detectProgressStyle(STDERR_FILENO);
  progress.json = args.json;
  ProgressPrinter printer(progress);

  std::atomic<bool> interrupted{false};
  // A signal that arrives while data is loading may precede the engine's readiness for
  // commands: repeat the stop when the run reports that it started.
  printer.setRunStartedHook([&] {
    if (interrupted) trainer.stop(StopReason::Interrupted);
  });
  trainer.addObserver(&printer);

  SignalWatcher watcher([&](int sig) {
    interrupted = true;
    std::fprintf(stderr,
                 "\n%s received: stopping after the current step (send it again to quit "
                 "at once)\n",
                 strsignal(sig));
    std::fflush(stderr);
    trainer.stop(StopReason::Interrupted);
  });

  RunSummary summary;
  try {
    summary = trainer.run();
  } catch (const Error& e) {
    watcher.stop();
    printer.clearBar();
    printError(errorMessage(e));
    if (dir_created_here) {
      std::error_code ec;
      fs::remove(run_dir, ec);  // only removes it while still empty
      if (runs_root_created_here) fs::remove("runs", ec);
    }
    return watcher.interrupted() ? kExitInterrupted : exitCodeFor(e);
  } catch (const std::exception& e) {
    watcher.stop();
    printer.clearBar();
    printError(e.what());
    return kExitFailure;
  }
  watcher.stop();
  printer.clearBar();
  std::fprintf(stderr, "%s\n", summaryLine(summary, run_dir.string()).c_str());
  std::fflush(stderr);

  if (watcher.interrupted() && summary.stop_reason != StopReason::NonFinite &&
      summary.stop_reason != StopReason::Error)
    return kExitInterrupted;
  return exitCodeFor(summary.stop_reason);
}

}  // namespace

int exitCodeFor(StopReason reason) {
  switch (reason) {
    case StopReason::Completed:
    case StopReason::EarlyStop:
      return kExitOk;
    case StopReason::NonFinite:
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

std::string errorMessage(const Error& error) {
  std::string message = error.what();
  if (!error.subject().empty() && message.find(error.subject()) == std::string::npos)
    message += " (" + error.subject() + ")";
  return message;
}

std::string joinCommandLine(const std::vector<std::string>& args) {
  std::string line;
  for (const auto& arg : args) {
    if (!line.empty()) line += ' ';
    const bool plain = !arg.empty() && arg.find_first_not_of(
                                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789_-+=.,/:@%") == std::string::npos;
    if (plain) {
      line += arg;
    } else {
      line += '\'';
      for (char c : arg) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
      line += '\'';
    }
  }
  return line;
}

int runCli(int argc, char** argv) {
  CLI::App app{"TrainScope: train neural networks with libtorch and record every step.", kProgram};
  app.footer(
      "Exit codes: 0 completed (or early stop), 1 failure, 2 bad input (arguments, config, "
      "data), 3 stopped on a non-finite loss or gradient, 130 interrupted (Ctrl-C/SIGTERM).");
  app.require_subcommand(0, 1);
  bool version = false;
  app.add_flag("--version", version, "Print the TrainScope and libtorch versions and exit");

  TrainArgs train_args;
  CLI::App* train = app.add_subcommand(
      "train", "Train a model from a preset and/or a config file, writing a run directory");
  train->add_option("--preset", train_args.preset,
                    "Built-in preset to start from (see `presets`; default: " +
                        defaultPresetName() + " when no --config is given)");
  train->add_option("--config", train_args.config_file,
                    "JSON config file (may be partial); its keys override the preset");
  train
      ->add_option("--set", train_args.sets,
                   "KEY=VALUE override, repeatable (VALUE parsed as JSON where possible, e.g. "
                   "--set model.hidden=[256,128] --set training.seed=null)")
      ->allow_extra_args(false)
      ->type_name("KEY=VALUE");
  CLI::Option* epochs_opt = train->add_option("--epochs", train_args.epochs,
                                              "Number of epochs (same as --set training.epochs=N)");
  train->add_option("--out", train_args.out,
                    "Run directory to write (default: runs/<name>-<YYYYmmdd-HHMMSS>); an "
                    "existing non-empty directory is refused unless --overwrite");
  train->add_flag("--overwrite", train_args.overwrite,
                  "Clear an existing non-empty --out directory first");
  train->add_flag("--json", train_args.json,
                  "Print one JSON object per epoch on stdout (progress stays on stderr)");

  CLI::App* presets_cmd = app.add_subcommand("presets", "List the built-in presets");
  bool device_json = false;
  CLI::App* device = app.add_subcommand("device", "Show the devices and libraries in use");
  device->add_flag("--json", device_json, "Print the device information as JSON");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints help (exit 0) or the parse error; every parse error is a usage error (2).
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (version) {
      const DeviceInfo info = probeDevices();
      std::printf("%s %s (libtorch %s)\n", kProgram, trainscopeVersion(),
                  info.torch_version.c_str());
      return kExitOk;
    }
    if (train->parsed()) {
      return runTrain(train_args, epochs_opt->count() > 0,
                      joinCommandLine(std::vector<std::string>(argv, argv + argc)));
    }
    if (presets_cmd->parsed()) return runPresets();
    if (device->parsed()) return runDevice(device_json);
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

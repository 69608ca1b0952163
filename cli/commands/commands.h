#pragma once
/// The subcommands of trainscope-cli, one file each (train.cpp, presets.cpp, device.cpp,
/// inspect.cpp). Each
/// registers its options on the CLI11 app and runs when it was parsed. Internal to the CLI
/// library (CLI11 stays a private dependency).
#include <cstdint>
#include <string>
#include <vector>

#include "core/train/lr_finder.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace trainscope::cli {

/// The program name used in messages.
inline constexpr const char* kProgram = "trainscope-cli";

/// Prints "trainscope-cli: error: <message>" on stderr.
void printError(const std::string& message);

/// `train`: train from a preset and/or config file, writing a run directory (`--init-weights
/// FILE` starts from weights saved by Python's torch.save); or, with `--resume CHECKPOINT`,
/// continue a checkpoint's run in a new run directory.
class TrainCommand {
 public:
  explicit TrainCommand(CLI::App& app);
  bool parsed() const;
  /// Runs the training; returns the exit code. `command_line` is recorded in run.json.
  int run(const std::string& command_line) const;

 private:
  CLI::App* sub_ = nullptr;
  CLI::Option* epochs_opt_ = nullptr;
  std::string preset_;
  std::string config_file_;
  std::vector<std::string> sets_;
  int64_t epochs_ = 0;
  std::string out_;
  bool overwrite_ = false;
  bool json_ = false;
  std::string resume_;
  std::string init_weights_;
};

/// `inspect CHECKPOINT [--json]`: describe a checkpoint file.
class InspectCommand {
 public:
  explicit InspectCommand(CLI::App& app);
  bool parsed() const;
  /// Prints the description; throws Error(Checkpoint) for a bad file (exit 2).
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::string file_;
  bool json_ = false;
};

/// `presets`: list the built-in presets.
class PresetsCommand {
 public:
  explicit PresetsCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
};

/// `lr-find [--preset NAME | --config FILE] [--set KEY=VALUE]... [--start-lr X] [--end-lr Y]
/// [--steps N]`: the learning-rate range test; prints "step,lr,loss,smoothed_loss" rows and
/// a last line `suggested_lr=X`.
class LrFindCommand {
 public:
  explicit LrFindCommand(CLI::App& app);
  bool parsed() const;
  /// Runs the sweep; throws Error (Config/Data) for bad input (exit 2).
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::string preset_;
  std::string config_file_;
  std::vector<std::string> sets_;
  LrFinderOptions options_;
};

/// `device [--json]`: the devices and libraries in use.
class DeviceCommand {
 public:
  explicit DeviceCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  bool json_ = false;
};

/// Where verify-repro and amp-compare take their config from: --preset/--config/--set (as
/// `train`), or --checkpoint (its config; no --set).
struct CompareSource {
  std::string preset;
  std::string config_file;
  std::string checkpoint;
  std::vector<std::string> sets;
  int64_t steps = 100;
  /// Registers --preset, --config, --checkpoint (when `with_checkpoint`), --set, --steps.
  void addOptions(CLI::App* sub, bool with_checkpoint, int64_t default_steps);
};

/// `verify-repro`: train K steps twice and compare (core/train/repro.h). Exit 0 identical,
/// 4 differ, 2 bad input.
class VerifyReproCommand {
 public:
  explicit VerifyReproCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  CompareSource source_;
  bool json_ = false;
};

/// `amp-compare`: train N steps with AMP off and on and compare loss and speed.
class AmpCompareCommand {
 public:
  explicit AmpCompareCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  CompareSource source_;
  bool json_ = false;
};

}  // namespace trainscope::cli

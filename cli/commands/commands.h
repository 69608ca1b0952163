#pragma once
/// The subcommands of trainscope-cli, one file each (train.cpp, presets.cpp, device.cpp,
/// inspect.cpp). Each
/// registers its options on the CLI11 app and runs when it was parsed. Internal to the CLI
/// library (CLI11 stays a private dependency).
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/train/probes/lr_finder.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace trainscope {
struct RunRow;
}  // namespace trainscope

namespace trainscope::cli {

/// The program name used in messages.
inline constexpr const char* kProgram = "trainscope-cli";

/// Prints "trainscope-cli: error: <message>" on stderr ("trainscope-cli (TAG): error: ..."
/// once setMessageTag(TAG) was called).
void printError(const std::string& message);

/// Adds a check to an option naming a file or directory: an empty value ("--resume ''") is a
/// usage error (exit 2) instead of meaning "not given". Returns `option`.
CLI::Option* nonEmptyPath(CLI::Option* option);

/// Prints `cells` under `headers` as aligned text on stdout; cells longer than `max_width` are
/// cut with "..." (the last column is printed whole).
void printTable(const std::vector<std::string>& headers,
                const std::vector<std::vector<std::string>>& cells, size_t max_width = 48);

/// Names this process in error messages: a data-parallel rank sets "rank N".
void setMessageTag(const std::string& tag);

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
  std::string replay_;
  bool allow_changed_data_ = false;
  bool dry_run_ = false;
};

/// `launch --nproc-per-node N [--nnodes M --node-rank K --master-addr A --master-port P]
/// [--grace-seconds S] -- train ...`: starts N ranks of `train` on this machine with the
/// environment torchrun sets (MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE, LOCAL_RANK,
/// LOCAL_WORLD_SIZE, GROUP_RANK), each in its own process group, forwards SIGINT/SIGTERM to
/// them once, and waits. Exit code: 130 when interrupted, else the code of the first rank that
/// failed (128 + N for a rank killed by signal N), else 0. After a failure the other ranks get
/// --grace-seconds to stop by themselves (they fail within distributed.timeout_seconds, naming
/// the lost rank), then SIGTERM, then SIGKILL.
class LaunchCommand {
 public:
  explicit LaunchCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  int nproc_per_node_ = 1;
  int nnodes_ = 1;
  int node_rank_ = 0;
  std::string master_addr_ = "127.0.0.1";
  int master_port_ = 29500;
  double grace_seconds_ = 5;
  std::vector<std::string> command_;
};

/// `inspect FILE [--json]`: describe a TrainScope checkpoint, or the state_dict (names, shapes,
/// dtypes) of any other torch.save file that `train --init-weights` takes.
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

/// `inspect-model FILE [--input-shape SHAPE | --preset P --config F --set K=V...] [--json]`:
/// the import report of a TorchScript file (core/model/torchscript.h) and, with a shape or
/// data, one batch through it. A file that cannot be trained, a shape or data it does not take:
/// Error(Config) naming the file and what to do in Python (exit 2).
class InspectModelCommand {
 public:
  explicit InspectModelCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::string file_;
  std::string input_shape_;
  std::string preset_;
  std::string config_file_;
  std::vector<std::string> sets_;
  bool json_ = false;
  bool allow_file_access_ = false;
};

/// `train --dry-run` and `inspect-model` with data: the shape report of `config`
/// (core/train/probes/shapes.h) printed as text or one JSON object. Returns kExitOk; throws
/// what shapeReport throws.
int printShapeReport(const TrainConfig& config, bool json);

/// `presets`: list the built-in presets.
class PresetsCommand {
 public:
  explicit PresetsCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
};

/// `config --keys [--json | --markdown]`: every config key (type, default, allowed values,
/// help) from the key table; `config [--preset NAME] [--config FILE] [--set KEY=VALUE]...`:
/// the resolved config as JSON.
class ConfigCommand {
 public:
  explicit ConfigCommand(CLI::App& app);
  bool parsed() const;
  /// Prints the list or the config; throws Error(Config) for a bad config (exit 2).
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  bool keys_ = false;
  bool json_ = false;
  bool markdown_ = false;
  std::string preset_;
  std::string config_file_;
  std::vector<std::string> sets_;
};

/// `runs [DIR...] [--sort KEY] [--desc] [--filter TEXT|KEY=TEXT]... [--columns K,K,...|all]
/// [--json|--csv]`: the experiment log, one row per run folder in DIR (default: runs), from
/// core/run/run_table.h. Folders that are not runs show as such; a DIR that does not exist is
/// exit 2.
class RunsCommand {
 public:
  explicit RunsCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::vector<std::string> dirs_;
  std::string sort_;
  bool desc_ = false;
  std::vector<std::string> filters_;
  std::string columns_;
  std::string group_by_;
  bool json_ = false;
  bool csv_ = false;
  /// --group-by: one line per group of rows with equal values of those keys.
  int printGroups(std::vector<RunRow>& rows) const;
};

/// `compare RUN RUN... [--json]`: the config keys that differ among the runs, then their
/// best/final metrics side by side, each with its difference in % from the first run (the
/// baseline).
class CompareCommand {
 public:
  explicit CompareCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::vector<std::string> runs_;
  bool json_ = false;
};

/// `follow RUN [--stall-seconds S] [--json]`: prints the progress of a run another process is
/// writing, as `train` prints its own (epoch lines, events, the summary), until the run ends;
/// exit code as `train`'s for the run's stop reason (0 completed, 3 diverged, 130 interrupted,
/// 1 stopped or failed), 1 for a crashed run, 130 when Ctrl-C ends the following. Read-only
/// (core/run/run_follower.h).
class FollowCommand {
 public:
  explicit FollowCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::string dir_;
  double stall_seconds_ = 60;
  bool json_ = false;
};

/// `export-python RUN|--preset NAME|--config FILE [--set KEY=VALUE]... [-o FILE]`: the run as
/// a plain PyTorch script (core/train/teaching/python_script.h), printed or written to FILE.
class ExportPythonCommand {
 public:
  explicit ExportPythonCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::string run_;
  std::string preset_;
  std::string config_file_;
  std::vector<std::string> sets_;
  std::string output_;
};

/// `export RUN --format onnx|torchscript [--checkpoint best|last] [-o FILE] [--raw-input]
/// [--softmax]`: the run's checkpoint as a file that runs outside TrainScope, with its model
/// card (core/export/export_model.h).
class ExportCommand {
 public:
  explicit ExportCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::string run_;
  std::string format_;
  std::string checkpoint_ = "best";
  std::string output_;
  bool raw_input_ = false;
  bool softmax_ = false;
};

/// `report RUN [--format html|pdf] [--lang en|zh_CN] [-o FILE]`: the run report, drawn by the
/// dashboard executable beside this one (gui/teaching/run_report.h) without a display.
class ReportCommand {
 public:
  explicit ReportCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::string run_;
  std::string format_;
  std::string lang_;
  std::string output_;
};

/// `sweep FILE [--out DIR] [--json] [--dry-run]` runs a sweep file's trials into the sweep
/// folder DIR (default runs/<name>); `sweep --resume DIR [--json]` continues one
/// (core/sweep/orchestrator.h). Prints a line per finished trial and the final table, best
/// first. Exit 0 when every trial ended, 2 for a bad sweep file, 130/143 on SIGINT/SIGTERM.
class SweepCommand {
 public:
  explicit SweepCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::string file_;
  std::string out_;
  std::string resume_;
  bool json_ = false;
  bool dry_run_ = false;
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

/// `data [--preset NAME] [--config FILE] [--set KEY=VALUE]... [--json]`: the import report of
/// the config's data (core/data/data_report.h). Bad data: exit 2.
class DataCommand {
 public:
  explicit DataCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::string preset_;
  std::string config_file_;
  std::vector<std::string> sets_;
  bool json_ = false;
};

/// `evaluate CHECKPOINT [--config DATA_CONFIG] [--set data.KEY=VALUE]... [--split val|test|train]
/// [--json]`: loss, accuracy, per-class precision/recall and the confusion matrix of the
/// checkpoint's model (core/train/probes/evaluation.h). Bad input: exit 2.
class EvaluateCommand {
 public:
  explicit EvaluateCommand(CLI::App& app);
  bool parsed() const;
  int run() const;

 private:
  CLI::App* sub_ = nullptr;
  std::string checkpoint_;
  std::string config_file_;
  std::vector<std::string> sets_;
  std::string split_ = "val";
  std::string scores_;  ///< --scores FILE: the per-sample softmax probabilities as CSV
  bool json_ = false;
  bool allow_changed_data_ = false;
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
  int rounds = 1;  ///< amp-compare's --rounds (verify-repro: one pair)
  /// Registers --preset, --config, --checkpoint (when `with_checkpoint`), --set, --steps.
  void addOptions(CLI::App* sub, bool with_checkpoint, int64_t default_steps);
};

/// `verify-repro`: train K steps twice and compare (core/train/probes/repro.h). Exit 0 identical,
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

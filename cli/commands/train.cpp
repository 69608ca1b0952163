// `trainscope-cli train`: resolve the config, prepare the run directory, train with progress
// output, map the end of the run to an exit code (ARCHITECTURE §6).
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>

#include "cli/cli_app.h"
#include "cli/model_time_limit.h"
#include "cli/commands/commands.h"
#include "cli/commands/replay_cli.h"
#include "cli/progress.h"
#include "cli/signal_watcher.h"
#include "core/config/config_json.h"
#include "core/config/live_settings.h"
#include "core/distributed/dist_env.h"
#include "core/train/state/checkpoint.h"
#include "core/run/run_dir.h"
#include "core/run/run_lock.h"
#include "core/system/cancel.h"
#include "core/train/loop/replay.h"
#include "core/train/probes/shapes.h"
#include "core/system/number_format.h"
#include "core/train/trainer.h"

namespace fs = std::filesystem;

namespace trainscope::cli {

namespace {

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
  // A folder a live run holds is never mixed into or cleared, --overwrite or not.
  if (const auto holder = RunDirLock::holder(dir)) {
    printError("--out " + dir.string() + " is being written by a running TrainScope process (" +
               *holder + "); wait for it to end, stop it, or choose another --out");
    return kExitUsage;
  }
  if (!overwrite) {
    printError("--out " + dir.string() +
               " is not empty; refusing to mix runs (use --overwrite to replace a TrainScope "
               "run directory, or choose another directory)");
    return kExitUsage;
  }
  // --overwrite replaces a run directory only, never a folder of the user's own files.
  if (const std::string why = whyNotRunDirectory(dir); !why.empty()) {
    printError("--out " + dir.string() + " is not a TrainScope run directory (" + why +
               "); --overwrite only replaces one, so nothing was touched: choose another "
               "--out");
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

}  // namespace

TrainCommand::TrainCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "train", "Train a model from a preset and/or a config file, writing a run directory")) {
  sub_->add_option("--preset", preset_,
                   "Built-in preset to start from (see `presets`; default: " + defaultPresetName() +
                       " when no --config is given)");
  nonEmptyPath(sub_->add_option(
      "--config", config_file_,
      "JSON config file (may be partial; may name its base preset with \"preset\"); "
      "its keys override the preset (see `config --keys`)"));
  sub_->add_option("--set", sets_,
                   "KEY=VALUE override, repeatable (VALUE parsed as JSON where possible, e.g. "
                   "--set model.hidden=[256,128] --set training.seed=null)")
      ->allow_extra_args(false)
      ->type_name("KEY=VALUE");
  epochs_opt_ =
      sub_->add_option("--epochs", epochs_, "Number of epochs (same as --set training.epochs=N)");
  nonEmptyPath(
      sub_->add_option("--out", out_,
                       "Run directory to write (default: runs/<name>-<YYYYmmdd-HHMMSS>); an "
                       "existing non-empty directory is refused unless --overwrite"));
  sub_->add_flag("--overwrite", overwrite_,
                 "Replace an existing --out that is a TrainScope run directory: config.json and "
                 "a run.json written by TrainScope, and nothing but run files (metrics.csv, "
                 "steps.csv, events.jsonl, layers.csv, summary.json, split.json, model.pt, "
                 "notes.json, report.html/.pdf, events.out.tfevents.*, checkpoints/*.pt); any "
                 "other non-empty directory is refused (exit 2) and left untouched");
  sub_->add_flag("--json", json_,
                 "Print one JSON object per epoch on stdout, then one with the facts of "
                 "summary.json and \"type\": \"summary\" (progress stays on stderr)");
  nonEmptyPath(
      sub_->add_option("--resume", resume_,
                       "Continue the run of a checkpoint in a new run directory (its config is "
                       "used; --epochs sets the new total; --set may change optimizer.lr, "
                       "training.clip.enabled, training.clip.max_norm, training.amp, "
                       "training.epochs, training.early_stopping.* and checkpoint.*, recorded as "
                       "config_changed at the resume step; no --preset or --config)"));
  nonEmptyPath(sub_->add_option(
                   "--init-weights", init_weights_,
                   "Start from the weights in FILE, saved by Python's torch.save (a state_dict, "
                   "or a dict with 'model_state_dict' such as a TrainScope checkpoint); names "
                   "and shapes must match the model exactly (load_state_dict strict=True)"))
      ->type_name("FILE");
  nonEmptyPath(
      sub_->add_option("--replay", replay_,
                       "Rerun the run in RUN_DIR as it happened: its config.json (the starting "
                       "settings) plus every live change recorded in its events.jsonl (learning "
                       "rate, clipping, AMP) at the same step, and the same stop; bit-identical on "
                       "the CPU. Only --out, --overwrite, --allow-changed-data and --json may accompany it"))
      ->type_name("RUN_DIR");
  sub_->add_flag("--allow-changed-data", allow_changed_data_,
                 "With --resume or --replay: go on when a data file changed since the source run "
                 "read it (size or SHA-256; refused otherwise, exit 2), recording a data_changed "
                 "warning in the run");
  sub_->add_flag("--dry-run", dry_run_,
                 "Shape first: load the data, build the model and run the first training batch "
                 "through it layer by layer in eval mode (dropout off, batch norm on its running "
                 "statistics), printing x and y (shape, dtype, device, value "
                 "range), every layer's output shape and parameters and the output; a model that "
                 "does not fit the data is named with both shapes (exit 2). Nothing is trained "
                 "or written (--json: one JSON object)");
}

bool TrainCommand::parsed() const { return sub_->parsed(); }


int TrainCommand::run(const std::string& command_line) const {
  // Block SIGINT/SIGTERM first: every thread started from here on (libtorch's pool, the
  // watcher) inherits the mask, so only the watcher's sigtimedwait ever sees the signals.
  SignalWatcher::blockSignals();
  // From here on an interrupt stops whatever runs: a file being loaded (the readers throw
  // Cancelled between chunks: exit 130 within a fraction of a second), or the run at its next
  // step.
  std::atomic<Trainer*> active_trainer{nullptr};
  SignalWatcher watcher([&](int sig) {
    requestCancel();
    // A sweep prunes its trial with SIGINT after writing why into this file.
    if (const char* file = std::getenv(kPruneFileEnv); file && sig == SIGINT) {
      std::ifstream in(file);
      std::string why((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
      if (!why.empty()) {
        std::fprintf(stderr, "\npruned by the sweep: %s\n", why.c_str());
        std::fflush(stderr);
        if (Trainer* t = active_trainer.load()) t->stop(StopReason::Pruned, why);
        return;
      }
    }
    std::fprintf(stderr,
                 "\n%s received: stopping after the current step (send it again to quit "
                 "at once)\n",
                 strsignal(sig));
    std::fflush(stderr);
    if (Trainer* t = active_trainer.load()) t->stop(StopReason::Interrupted);
  });

  std::vector<std::string> sets = sets_;
  if (epochs_opt_->count() > 0) sets.push_back("training.epochs=" + std::to_string(epochs_));

  TrainConfig config;
  ResumeSettings resume;  // --resume: what --set changes
  ReplayPlan replay;      // --replay
  try {
    if (!resume_.empty() && !init_weights_.empty()) {
      printError(
          "--init-weights cannot be combined with --resume: a resumed run continues with the "
          "checkpoint's weights");
      return kExitUsage;
    }
    if (!replay_.empty()) {
      if (!preset_.empty() || !config_file_.empty() || !sets.empty() || !resume_.empty() ||
          !init_weights_.empty()) {
        printError(
            "--replay takes everything from the run directory: only --out, --overwrite, "
            "--allow-changed-data and --json may accompany it (not --preset, --config, --set, --epochs, --resume or "
            "--init-weights)");
        return kExitUsage;
      }
      replay = planReplay(replay_);
      config = replay.config;
      if (int rc = checkReplayOut(replay, out_); rc != kExitOk) return rc;
    } else if (!resume_.empty()) {
      if (!preset_.empty() || !config_file_.empty()) {
        printError(
            "--resume takes its config from the checkpoint: only --epochs, --set, --out, "
            "--overwrite and --json may accompany it (not --preset or --config)");
        return kExitUsage;
      }
      resume = resumeSettings(checkpointConfig(inspectCheckpoint(resume_)), sets);
      config = resume.config;
      if (!out_.empty()) {
        // --overwrite would delete the checkpoint before it is read.
        std::error_code ec;
        const fs::path out = fs::weakly_canonical(out_, ec);
        const fs::path file = fs::weakly_canonical(resume_, ec);
        const std::string o = out.string() + "/";
        if (file.string().compare(0, o.size(), o) == 0) {
          printError("--out " + out_ + " contains the checkpoint " + resume_ +
                     "; a resumed run writes a new run directory: choose another --out");
          return kExitUsage;
        }
      }
    } else {
      config = resolveConfig(preset_, config_file_, sets);
      if (preset_.empty() && config_file_.empty() && !sets.empty()) noteDefaultPreset(config);
    }
    if (dry_run_) {
      if (!resume_.empty() || !replay_.empty() || !init_weights_.empty() || !out_.empty()) {
        printError("--dry-run writes nothing and takes the run's config from --preset, --config, "
                   "--set and --epochs only (not --resume, --replay, --init-weights or --out)");
        return kExitUsage;
      }
      const ModelTimeLimit limit;  // a model whose own code never returns: a message, exit 2
      return printShapeReport(config, json_);
    }
  } catch (const Error& e) {
    printError(errorMessage(e));
    return watcher.interrupted() ? kExitInterrupted : exitCodeFor(e);
  }
  if (config.training.non_finite && *config.training.non_finite == "pause") {
    // Nobody can resume a paused headless run.
    std::fprintf(stderr,
                 "%s: note: training.non_finite is \"pause\", which needs someone to resume; "
                 "using \"stop\" instead\n",
                 kProgram);
    config.training.non_finite = "stop";
  }

  // Data parallel: the environment a launcher (`launch`, torchrun) sets. Rank 0 alone checks
  // --out and writes the run directory; the other ranks write nothing and print only errors.
  std::optional<DistEnv> dist;
  try {
    dist = distEnvFromEnvironment();
  } catch (const Error& e) {
    printError(errorMessage(e));
    return exitCodeFor(e);
  }
  if (dist) {
    setMessageTag("rank " + std::to_string(dist->rank));
    if (!distributedAvailable()) {
      printError(distributedUnavailableReason());
      return kExitUsage;
    }
  }
  const bool writes_files = !dist || dist->rank == 0;

  fs::path run_dir;
  bool dir_created_here = false, runs_root_created_here = false;
  // The folder is claimed (created and locked) at once, before the data loads: a second run
  // started on the same --out a moment later is refused naming this process.
  bool claimed = false;
  try {
    if (!writes_files) {
      // nothing to prepare: this rank writes no files
    } else if (!out_.empty()) {
      run_dir = out_;
      std::error_code ec;
      dir_created_here = !fs::exists(run_dir, ec);
      if (int rc = prepareOutDir(run_dir, overwrite_); rc != kExitOk) return rc;
    } else {
      std::error_code ec;
      runs_root_created_here = !fs::exists("runs", ec);
      run_dir = createUniqueRunDir("runs", config.name);
      dir_created_here = true;
    }
    if (writes_files) {
      RunDirLock::claim(run_dir);  // the run's writer takes it over
      claimed = true;
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
  options.resume_from = resume_;
  options.resume_changes = resume.changes;
  options.init_weights = init_weights_;
  options.scheduled_commands = replay.commands;
  if (!replay.resume_from.empty()) options.resume_from = replay.resume_from;
  if (!replay.init_weights.empty()) options.init_weights = replay.init_weights;
  if (!replay_.empty()) {
    options.expected_data = replay.data_files;
    options.expected_data_from = "the recorded run (" + replay.run_dir.string() + ")";
  }
  options.allow_changed_data = allow_changed_data_;
  if (!replay_.empty()) printReplayPlan(replay);
  options.distributed = dist;
  if (dist && dist->local_world_size > 1)  // the ranks on this machine share its cores
    options.available_cores =
        std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / dist->local_world_size);
  Trainer trainer(config, options);
  // Live settings a resume changes: the same commands as the dashboard's, at the resume step.
  if (resume.lr) trainer.setLearningRate(*resume.lr);
  if (resume.clip) trainer.setClipping(resume.clip->enabled, resume.clip->max_norm);
  if (resume.amp) trainer.setAmp(*resume.amp);

  ProgressOptions progress;
  progress.style = detectProgressStyle(STDERR_FILENO);
  progress.json = json_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> devnull(nullptr, &std::fclose);
  if (!writes_files) {  // rank 0 reports progress for all; the others only their errors
    devnull.reset(std::fopen("/dev/null", "w"));
    progress.err = devnull ? devnull.get() : stderr;
    progress.style = ProgressStyle::Lines;
    progress.json = false;
  }
  ProgressPrinter printer(progress);

  // A signal that arrives while data is loading may precede the engine's readiness for
  // commands: repeat the stop when the run reports that it started.
  printer.setRunStartedHook([&] {
    if (watcher.interrupted()) trainer.stop(StopReason::Interrupted);
  });
  trainer.addObserver(&printer);
  active_trainer = &trainer;

  RunSummary summary;
  try {
    summary = trainer.run();
  } catch (const Error& e) {
    watcher.stop();
    printer.clearBar();
    printError(errorMessage(e));
    if (claimed) {
      // Nothing was written but the claim's lock file: remove it (it is ours), and the folder
      // when this run created it (fs::remove removes only an empty one).
      // The file goes while the lock is held: a process that opens the path meanwhile
      // creates and locks a new file, never loses its own.
      std::error_code ec;
      bool only_lock = true;
      for (const auto& entry : fs::directory_iterator(run_dir, ec))
        only_lock = only_lock && entry.path().filename() == kRunLockFile;
      if (!ec && only_lock) fs::remove(run_dir / kRunLockFile, ec);
      RunDirLock::releaseClaim(run_dir);
      if (dir_created_here) fs::remove(run_dir, ec);
      if (dir_created_here && runs_root_created_here) fs::remove("runs", ec);
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
  if (writes_files) {
    std::fprintf(stderr, "%s\n", summaryLine(summary, run_dir.string()).c_str());
    if (summary.diagnosis) std::fprintf(stderr, "%s", diagnosisText(*summary.diagnosis).c_str());
  } else if (summary.stop_reason == StopReason::Error) {
    printError(summary.error);
  }
  std::fflush(stderr);

  if (watcher.interrupted() && summary.stop_reason != StopReason::NonFinite &&
      summary.stop_reason != StopReason::Error)
    return kExitInterrupted;
  // A run whose final state could not be saved (disk full) did not do what a script expects
  // of exit 0: its last.pt is missing or older than the run.
  const int code = replay.stop_step && summary.stop_reason == StopReason::Stopped
                       ? kExitOk  // the replay stopped where the recorded run did
                       : exitCodeFor(summary.stop_reason);
  if (code == kExitOk && writes_files && !summary.final_state_saved) {
    printError("the run's final state was not saved: " + summary.checkpoint_error +
               " (exit 1; summary.json has final_state_saved false)");
    return kExitFailure;
  }
  return code;
}

}  // namespace trainscope::cli

#pragma once
/// trainscope-cli: the headless front end over trainscope_core (ARCHITECTURE §6). Commands
/// `train`, `presets`, `device`, `inspect`, `verify-repro`, `amp-compare`, plus `--help` and
/// `--version`. Torch-free.
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/errors.h"
#include "core/run/records.h"

namespace trainscope::cli {

/// Exit codes of trainscope-cli (ARCHITECTURE §6).
inline constexpr int kExitOk = 0;             ///< completed (also early stop)
inline constexpr int kExitFailure = 1;        ///< anything else (run error, unexpected exception)
inline constexpr int kExitUsage = 2;          ///< bad arguments, config, data or checkpoint
inline constexpr int kExitNonFinite = 3;      ///< stopped on a non-finite value or a divergence
inline constexpr int kExitDiffers = 4;        ///< verify-repro: the two runs differ
inline constexpr int kExitInterrupted = 130;  ///< interrupted by Ctrl-C / SIGTERM (128 + SIGINT)

/// Exit code for a run that ended with `reason`: Completed/EarlyStop 0, NonFinite 3,
/// Interrupted 130, Stopped and Error 1.
int exitCodeFor(StopReason reason);

/// Exit code for a core error thrown before training: Config/Data/Checkpoint 2, others 1.
int exitCodeFor(const Error& error);

/// The English message printed for a core error: its message, followed by the key or file it
/// concerns when the message does not already name it.
std::string errorMessage(const Error& error);

/// Prints to stderr that `config` started from the default preset (no --preset or --config was
/// given, only --set), with the settings of it that --set did not change and that decide a run:
/// epochs, validation fraction and model.
void noteDefaultPreset(const TrainConfig& config);

/// Runs trainscope-cli with the given arguments and returns the exit code. Output goes to
/// stdout/stderr. The `train` command blocks SIGINT/SIGTERM in the calling thread (see
/// SignalWatcher::blockSignals) and leaves them blocked, so call this from main() before any
/// other thread is started.
int runCli(int argc, char** argv);

}  // namespace trainscope::cli

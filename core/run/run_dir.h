#pragma once
/// Naming and creating run directories (ARCHITECTURE §4). Torch-free.
#include <filesystem>
#include <string>

namespace trainscope {

/// Creates and returns a new run directory `<root>/<name>-<YYYYmmdd-HHMMSS>` (local time),
/// adding -2, -3, ... when it exists; never reuses one. Throws Error(Io, path).
std::filesystem::path createUniqueRunDir(const std::filesystem::path& root,
                                         const std::string& name);

/// True when `dir` exists and contains at least one entry.
bool isNonEmptyDirectory(const std::filesystem::path& dir);

/// Why `dir` is not a TrainScope run directory, or an empty string when it is one. A run
/// directory is recognised by its content: config.json and run.json (a JSON object with
/// "trainscope_version", as every run writes it), and nothing but what a run writes there:
/// the files config.json, run.json, metrics.csv, steps.csv, events.jsonl, layers.csv,
/// summary.json, split.json, model.pt (a TorchScript run's module), notes.json (the runs
/// browser's), TensorBoard's events.out.tfevents.*, the lock file (run_lock.h), the folder
/// checkpoints/ holding only files named
/// *.pt, and the temporary
/// files of interrupted atomic writes (".<name>.tmp-XXXXXX"). Symbolic links, other files and
/// other folders make it not a run directory; the reason names the first one found. Never
/// throws; reads run.json only.
std::string whyNotRunDirectory(const std::filesystem::path& dir);

/// Removes, in a run directory, the temp files of its run files (".config.json.tmp-...")
/// and of its checkpoints/ folder (removeStaleCheckpointTemps, core/io/atomic_file.h). Never
/// throws.
int removeStaleRunTemps(const std::filesystem::path& run_dir);

/// Removes `run_dir` when it is an empty folder (one createUniqueRunDir made for a run that
/// failed before writing anything); a folder holding anything, a file or a missing path is left
/// as it is. Returns whether it was removed; never throws.
bool removeEmptyRunDir(const std::filesystem::path& run_dir);

/// A sweep folder's record (core/sweep/orchestrator.h): its trials' run folders sit beside it.
inline constexpr const char* kSweepRecordFile = "sweep.json";
/// The environment variable naming the file in which a sweep writes why it prunes a trial
/// before it sends the trial SIGINT: `train` then stops as StopReason::Pruned, saying why.
inline constexpr const char* kPruneFileEnv = "TRAINSCOPE_PRUNE_FILE";
/// The folder of a sweep folder that holds the slurm executor's scripts and Slurm's output: not
/// a run (the runs table skips it).
inline constexpr const char* kSweepSlurmFolder = "slurm";
/// sweep.json's "format".
inline constexpr const char* kSweepFormat = "trainscope-sweep";

}  // namespace trainscope

#pragma once
/// The `slurm` executor: each trial a Slurm batch job (sbatch), a sweep's fixed queue one array
/// job with a %concurrent limit; state from squeue, scancel to prune and to stop. The trials
/// write into the sweep folder, which must be on a file system the cluster's nodes share.
/// Torch-free.
///
/// In DIR/slurm: a script per trial (NNN-....sh: `cd DIR`, the trial's `train` command with its
/// output appended to its .log, its exit code written to NNN-....exit), an array script
/// (array-N.sh: the array task's trial script by SLURM_ARRAY_TASK_ID) and Slurm's own output
/// (slurm-%A_%a.out: a time limit's or a node failure's message).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/sweep/trial_executor.h"

namespace trainscope {

/// The slurm executor of `spec` (spec.slurm's partition, time limit, CPUs per trial and extra
/// sbatch options), its files in `dir`/slurm, running `engine`. Throws Error(Config,
/// "executor.kind") when sbatch, squeue or scancel is not on PATH.
std::unique_ptr<TrialExecutor> makeSlurmExecutor(const SweepSpec& spec,
                                                 const std::filesystem::path& dir,
                                                 const std::filesystem::path& engine);

/// `sbatch --test-only` of the job a sweep of `count` trials submits first (no job is made):
/// Slurm checks the partition, the time limit and the CPUs against what its nodes and
/// partitions allow. Throws Error(Config, "executor") with Slurm's message when it refuses.
void checkSlurmSubmission(const SweepSpec& spec, const std::filesystem::path& dir, size_t count);

/// sbatch's options for `count` trials of `spec` (an array "0-(count-1)%concurrent" when count
/// > 1), before the script: what the sweep submits and `--dry-run` prints.
std::vector<std::string> sbatchOptions(const SweepSpec& spec, const std::filesystem::path& dir,
                                       size_t count);

}  // namespace trainscope

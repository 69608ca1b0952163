#pragma once
/// The replay of a recorded run (`trainscope-cli train --replay RUN_DIR`): its starting config
/// (config.json) plus every live change it recorded (config_changed events in events.jsonl:
/// learning rate, clipping, AMP, the non-finite policy; roll-backs), posted to the command queue at
/// the steps where they took effect, and the same stop. On the CPU the rerun's steps.csv and
/// metrics.csv equal the recorded ones bit for bit, wall-clock columns aside. config.json alone
/// reproduces only the starting settings. Torch-free.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/config/train_config.h"
#include "core/run/records.h"
#include "core/train/loop/run_control.h"

namespace trainscope {

/// What a replay runs: hand it to a Trainer (config; TrainerOptions::scheduled_commands,
/// resume_from, init_weights).
struct ReplayPlan {
  std::filesystem::path run_dir;  ///< the recorded run directory
  /// config.json: the settings the run started with. training.non_finite "pause" becomes
  /// "skip" (a replay has nobody to resume it; a paused non-finite step is skipped all the
  /// same, and where the run was stopped there the replay stops too).
  TrainConfig config;
  /// The live changes at their steps, in the order they happened, then the stop (a Stop
  /// command at `stop_step`) when the run was ended before its planned end.
  std::vector<ScheduledCommand> commands;
  int64_t changes = 0;               ///< live changes among `commands`
  std::optional<int64_t> stop_step;  ///< where the run was stopped or interrupted (or ended)
  std::string stop_reason;           ///< summary.json's stop_reason; empty without summary.json
  /// run.json `resumed_from.file`: a resumed run replays from the same checkpoint.
  std::filesystem::path resume_from;
  /// run.json `init_weights.file`: the weights the run started from.
  std::filesystem::path init_weights;
  /// run.json `data.files`: the data files the run read, which the replay must find unchanged
  /// (TrainerOptions::expected_data); empty for runs written before.
  std::vector<DataFile> data_files;
};

/// Reads `run_dir`'s config.json, events.jsonl, run.json and summary.json (without
/// summary.json, e.g. after a crash, the run stops at steps.csv's last step). The stop: a run
/// whose summary says "stopped", "interrupted" or "error" stops after its global_step; runs
/// that completed or ended by early stopping, a non-finite value or a divergence end by
/// themselves. Throws Error(Config, path) naming the path and the problem: `run_dir` missing
/// or not a folder, config.json or events.jsonl missing or unreadable, a config_changed event
/// of a key a replay cannot apply. A roll-back to a snapshot (rolled_back, with the learning
/// rate and clipping it set) is replayed as a RollBack command after the step where steps.csv's
/// steps went back.
ReplayPlan planReplay(const std::filesystem::path& run_dir);

}  // namespace trainscope

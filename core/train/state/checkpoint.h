#pragma once
/// TrainScope checkpoint files (ARCHITECTURE §5): a dict written with torch::pickle_save, so
/// Python's torch.load reads it. This header is torch-free: front ends inspect a checkpoint
/// through plain values; saving and restoring the training state happen inside the Trainer
/// (TrainerOptions::resume_from, Trainer::saveCheckpoint).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/io/checkpoint_format.h"
#include "core/run/records.h"

namespace trainscope {

/// What a checkpoint holds, as plain values (no tensors): for the GUI's "load?" question and
/// `trainscope-cli inspect`.
struct CheckpointInfo {
  std::filesystem::path file;
  std::vector<std::string> keys;  ///< top-level keys of the dict, in file order
  int64_t format_version = 0;
  int64_t epoch = 0;                ///< completed epochs
  int64_t global_step = 0;          ///< completed optimizer steps
  int64_t batch_in_epoch = 0;       ///< batches done of the next epoch (0 at an epoch end)
  std::optional<double> best_loss;  ///< lowest validation loss so far, if any
  int64_t best_epoch = 0;           ///< epoch of best_loss, 0 when none
  std::string config_json;          ///< the run's resolved config (JSON text, seed filled in)
  std::string config_summary;       ///< one line: "name: source, mlp [..] relu, adam lr 0.001, ..."
  std::string optimizer;            ///< "sgd" | "adam" | "adamw"
  std::string source_run_dir;       ///< run directory that wrote it (may no longer exist)
  std::string torch_version;        ///< libtorch version that wrote it
  std::string trainscope_version;
  std::string saved_at;                   ///< local time, ISO 8601
  std::vector<CheckpointTensor> tensors;  ///< model_state_dict entries, then optimizer buffers
  std::vector<EpochRecord> history;       ///< per-epoch records so far (redraws the curves)
  /// The data files the run read (`data.files`; empty in checkpoints of older builds).
  std::vector<DataFile> data_files;
};

/// Reads `file` and describes it without touching any training state. Throws
/// Error(ErrorCode::Checkpoint, file) with an English message naming the file and the problem
/// for an empty, truncated or random file, a zip that is not a TrainScope checkpoint, or a
/// newer format_version.
CheckpointInfo inspectCheckpoint(const std::filesystem::path& file);

/// The run config stored in a checkpoint (what a resumed run must use; set training.epochs for
/// a new total). Throws Error(Checkpoint, info.file) when it is not a valid config.
TrainConfig checkpointConfig(const CheckpointInfo& info);

}  // namespace trainscope

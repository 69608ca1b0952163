#pragma once
/// Capturing the whole TrainState into a checkpoint dict and restoring it (ARCHITECTURE §5).
/// Internal to core (torch types). The file format itself is io/checkpoint_file.h.
#include <ATen/core/Dict.h>
#include <ATen/core/List.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/train/state/train_state.h"

namespace trainscope {

/// What the checkpoint records besides the TrainState.
struct CheckpointContext {
  std::string config_json;     ///< the run's resolved config
  std::string optimizer_name;  ///< "sgd" | "adam" | "adamw" (decides the optimizer layout)
  std::string source_run_dir;  ///< the run directory of the run being saved (may be empty)
  /// The run's data (checkpoint key `data`: source, task, input_shape, image_shape, x_dtype,
  /// outputs, class_names, preprocessing); default-empty in tests that build states by hand.
  DataSummary data{};
  /// The live loss doctor's gradient norms (saved in `loss_doctor_state_dict`); null leaves
  /// them out (in-memory snapshots: a roll-back starts the evidence afresh).
  const DoctorGrads* doctor_grads = nullptr;
};

/// The checkpoint dict of `state`: model_state_dict (Model::state_dict(): PyTorch order and
/// names), optimizer_state_dict in torch.optim's layout (state per parameter index with
/// momentum_buffer or step/exp_avg/exp_avg_sq[/max_exp_avg_sq]; param_groups with every
/// hyperparameter as Python floats and "params": [indices]), counters, best loss, the current
/// epoch's loss meter, RNG states (torch CPU generator now; the shuffle generator at the start
/// of the current epoch), history, versions and saved_at. Tensors are copies: later training
/// does not change a captured dict. `with_history` false leaves "history" out (in-memory
/// snapshots: the history is append-only, so they keep its length and take its first entries
/// back from the run at restore time instead of a copy that grows with every epoch).
c10::impl::GenericDict captureState(const TrainState& state, const CheckpointContext& context,
                                    bool with_history = true);

/// The checkpoint's "history" (format_version 2): the first `n` epoch records of `history` as
/// columns, one 1-D tensor [n] per EpochRecord field under its metrics.csv name (epoch and step
/// int64, the rest float64); a field an epoch may lack (val_accuracy, train_accuracy, val_r2,
/// val_mae, val_rmse) is NaN there and "present"[name] (bool [n]) says which epochs have one.
/// Its size grows by about 100 bytes an epoch and reads back without decoding an object per
/// epoch (a 60,000-epoch history as a list of dicts was refused).
c10::impl::GenericDict historyColumns(const std::vector<EpochRecord>& history, size_t n);

/// The history a checkpoint or snapshot holds: the records of `history` (thinned past
/// kEpochCapacity epochs, core/run/epoch_thinning.h) up to epoch `last`, with `best` (best_epoch's
/// record, which the thinning may have dropped) merged in epoch order when it is not past `last`.
/// At most kEpochCapacity + 2 records.
std::vector<EpochRecord> historyWithBest(const std::vector<EpochRecord>& history,
                                         const std::optional<EpochRecord>& best,
                                         int64_t last = std::numeric_limits<int64_t>::max());

/// captureState + an atomic write to `file`. Throws Error(Io, file).
void saveCheckpoint(const TrainState& state, const CheckpointContext& context,
                    const std::filesystem::path& file);

/// Restores `state` (model, optimizer buffers and hyperparameters, RNG states, counters,
/// meters, history) from a checkpoint dict of a run with optimizer `optimizer_name`. Everything
/// is parsed and checked before `state` changes: on any problem (missing keys, mismatched
/// parameter names or shapes — listed with both shapes —, another optimizer, bad RNG state) it
/// throws Error(Checkpoint, file) and `state` is untouched.
void restoreState(TrainState& state, const c10::impl::GenericDict& dict,
                  const std::string& optimizer_name, const std::filesystem::path& file);

/// readCheckpointDict(file) + restoreState.
void loadCheckpoint(TrainState& state, const std::string& optimizer_name,
                    const std::filesystem::path& file);

/// What a resumed run does before its first step: loadCheckpoint, then checks that the
/// checkpoint fits this run (batch_in_epoch < `batches_per_epoch`; completed epochs <
/// `total_epochs`, else Error(Config, "training.epochs") asking for more epochs). Returns the
/// checkpoint's source run directory. Throws Error(Checkpoint, file) as loadCheckpoint.
std::string resumeState(TrainState& state, const std::string& optimizer_name,
                        const std::filesystem::path& file, int64_t batches_per_epoch,
                        int64_t total_epochs);

/// The `history` of a checkpoint dict as EpochRecords: the columns of format_version 2
/// (historyColumns, core/train/state/train_state_io.h: 1-D tensors of one length, dtypes as
/// written) or the list of one dict per epoch that older builds wrote. Throws
/// Error(Checkpoint, file) naming the key.
std::vector<EpochRecord> readHistory(const c10::impl::GenericDict& dict,
                                     const std::filesystem::path& file);

/// The EpochRecord fields a history epoch may lack, by their metrics.csv names (val_accuracy,
/// train_accuracy, val_r2, val_mae, val_rmse): the writer and the reader of `history` share it.
const std::vector<std::pair<const char*, std::optional<double> EpochRecord::*>>&
historyOptionalFields();

}  // namespace trainscope

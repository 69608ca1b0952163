#pragma once
/// Automatic checkpoints of a run (ARCHITECTURE §4-5): last.pt, best.pt and epoch-NNNN.pt in
/// <run dir>/checkpoints/, as `checkpoint.*` asks. Internal to core (torch types via TrainState).
#include <filesystem>
#include <vector>

#include "core/config/train_config.h"
#include "core/train/state/train_state_io.h"

namespace trainscope {

class Checkpointer {
 public:
  /// `folder` empty: automatic checkpoints are off (a run without a run directory).
  Checkpointer(CheckpointConfig config, std::filesystem::path folder);

  /// At an epoch end, after validation and the monitors: last.pt (save_last), best.pt when
  /// `improved` and the run has a validation split (save_best), epoch-NNNN.pt every
  /// every_epochs epochs, deleting the oldest beyond keep_last. A model with a TorchScript
  /// form (model.kind torchscript) is also saved as TorchScript: <run dir>/model.pt at every
  /// epoch end and checkpoints/best-model.pt beside best.pt. Returns the files written.
  /// Throws Error(Io) for a failed write (earlier files of this call stay written).
  std::vector<std::filesystem::path> atEpochEnd(const TrainState& state,
                                                const CheckpointContext& context, bool improved,
                                                bool has_validation);

  /// When a run is stopped or interrupted: last.pt of the state it stopped in (save_last), and
  /// <run dir>/model.pt for a TorchScript model. Returns the files written. Throws Error(Io).
  std::vector<std::filesystem::path> atStop(const TrainState& state,
                                            const CheckpointContext& context);

 private:
  void pruneEpochFiles();

  CheckpointConfig config_;
  std::filesystem::path folder_;
};

/// The "checkpoint_saved" event for `file`, saved at `step` in `epoch`; `what` says whether it
/// was an automatic save or one asked for.
Event checkpointSavedEvent(int64_t step, int64_t epoch, const std::filesystem::path& file,
                           bool automatic);

}  // namespace trainscope

#pragma once
/// Automatic checkpoints of a run (ARCHITECTURE §4-5): last.pt, best.pt and epoch-NNNN.pt in
/// <run dir>/checkpoints/, as `checkpoint.*` asks. Internal to core (torch types via TrainState).
#include <filesystem>
#include <optional>
#include <vector>

#include "core/system/clock.h"

#include "core/config/train_config.h"
#include "core/train/state/train_state_io.h"

namespace trainscope {

class Checkpointer {
 public:
  /// `folder` empty: automatic checkpoints are off (a run without a run directory).
  Checkpointer(CheckpointConfig config, std::filesystem::path folder);

  /// At an epoch end, after validation and the monitors. When `improved` and the run has a
  /// validation split (save_best) the state is captured for best.pt. When the save is due
  /// (interval_seconds passed since the last write, interval 0, or `final`: the run ends after
  /// this epoch) last.pt (save_last), the pending best.pt and, for a model with a TorchScript
  /// form (model.kind torchscript), <run dir>/model.pt are written; a TorchScript model's
  /// best.pt and checkpoints/best-model.pt are written at once (the module is not copied).
  /// epoch-NNNN.pt every every_epochs epochs regardless of the interval, deleting the oldest
  /// beyond keep_last. Returns the files written. Throws Error(Io) for a failed write
  /// (earlier files of this call stay written; a best.pt that failed stays pending).
  std::vector<std::filesystem::path> atEpochEnd(const TrainState& state,
                                                const CheckpointContext& context, bool improved,
                                                bool has_validation, bool final);

  /// When a run is stopped or interrupted: last.pt of the state it stopped in (save_last), a
  /// pending best.pt, and <run dir>/model.pt for a TorchScript model. Returns the files
  /// written. Throws Error(Io).
  std::vector<std::filesystem::path> atStop(const TrainState& state,
                                            const CheckpointContext& context);

  /// When the engine pauses: what atStop writes, unless nothing changed since the last write
  /// (the same global step and no pending best.pt). Throws Error(Io).
  std::vector<std::filesystem::path> atPause(const TrainState& state,
                                             const CheckpointContext& context);

 private:
  bool due() const;
  /// last.pt from `dict` (or a fresh capture), the pending best.pt, model.pt; restarts the
  /// interval.
  std::vector<std::filesystem::path> writeDue(const TrainState& state,
                                              const CheckpointContext& context,
                                              std::optional<c10::impl::GenericDict> dict);
  void pruneEpochFiles();

  CheckpointConfig config_;
  std::filesystem::path folder_;
  SteadyClock::time_point last_write_ = SteadyClock::now();
  int64_t last_written_step_ = -1;
  /// The state of the latest improvement not yet in best.pt.
  std::optional<c10::impl::GenericDict> pending_best_;
};

/// The "checkpoint_saved" event for `file`, saved at `step` in `epoch`; `what` says whether it
/// was an automatic save or one asked for.
Event checkpointSavedEvent(int64_t step, int64_t epoch, const std::filesystem::path& file,
                           bool automatic);

}  // namespace trainscope

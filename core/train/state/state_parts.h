#pragma once
/// The checkpoint as a list of parts, flashlight's FL_SAVE_LOAD idea: each stateful part of a
/// training run writes its own keys of the checkpoint dict and reads them back, so saving and
/// restoring loop over stateParts(). Internal to core (torch types).
///
/// Loading is two-phase, so a failed load changes nothing: every part's `load` reads and checks
/// its keys against the state and returns a commit; only when every part has loaded are the
/// commits run, and a commit does not throw.
#include <ATen/core/Dict.h>

#include <functional>
#include <string>
#include <vector>

#include "core/io/checkpoint_reader.h"
#include "core/train/state/train_state.h"
#include "core/train/state/train_state_io.h"

namespace trainscope {

/// What a part's save gets besides the state.
struct PartSave {
  const CheckpointContext& context;
  bool with_history = true;  ///< false: in-memory snapshots (captureState)
};

/// What a part's load gets besides the state and the dict.
struct PartLoad {
  const CheckpointReader& reader;
  const std::string& optimizer_name;  ///< the run's optimizer.name
};

/// Applies what a part's load read. Does not throw.
using StateCommit = std::function<void(TrainState&)>;

struct StatePart {
  const char* name;  ///< "model", "optimizer", ... (for documentation and tests)
  /// Adds the part's keys to `dict` (tensors copied).
  void (*save)(const TrainState& state, const PartSave& save, c10::impl::GenericDict& dict);
  /// Reads and checks the part's keys of `dict`; throws Error(Checkpoint, file) naming the key.
  /// May try values on `state` (a scheduler's loadStateDict) if it puts back what was there.
  /// Null for keys that are only written (format, versions, config).
  StateCommit (*load)(TrainState& state, const c10::impl::GenericDict& dict, const PartLoad& load);
};

/// The parts, in the order their keys are written (ARCHITECTURE §5) and loaded: format, model,
/// optimizer, scaler, progress (counters, best loss, loss meter), config, data (shape, task and
/// preprocessing: written only), rng, source run,
/// history, scheduler, early stopping, overfitting, loss doctor, accuracy meter, versions.
const std::vector<StatePart>& stateParts();

// The schedule and monitors' parts (core/train/state/train_state_extras.cpp).
void saveScheduler(const TrainState&, const PartSave&, c10::impl::GenericDict&);
StateCommit loadScheduler(TrainState&, const c10::impl::GenericDict&, const PartLoad&);
void saveEarlyStopping(const TrainState&, const PartSave&, c10::impl::GenericDict&);
StateCommit loadEarlyStopping(TrainState&, const c10::impl::GenericDict&, const PartLoad&);
void saveOverfitting(const TrainState&, const PartSave&, c10::impl::GenericDict&);
StateCommit loadOverfitting(TrainState&, const c10::impl::GenericDict&, const PartLoad&);
void saveLossDoctor(const TrainState&, const PartSave&, c10::impl::GenericDict&);
StateCommit loadLossDoctor(TrainState&, const c10::impl::GenericDict&, const PartLoad&);
void saveAccuracyMeter(const TrainState&, const PartSave&, c10::impl::GenericDict&);
StateCommit loadAccuracyMeter(TrainState&, const c10::impl::GenericDict&, const PartLoad&);

}  // namespace trainscope

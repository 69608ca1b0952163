#pragma once
/// In-memory snapshots of the whole training state, so that a run whose weights have
/// gone bad can roll back and continue (lower learning rate, clipping on). Bounded: the run's
/// first snapshot plus the newest `keep`. Each is a captureState() dict (train_state_io.h): model
/// and optimizer tensors copied, RNG and counters; the epoch history is not copied (its epoch
/// count and best record are kept), so a snapshot's size and cost do not grow with the run. Internal to core (torch
/// types).
#include <ATen/core/Dict.h>

#include <cstdint>
#include <deque>
#include <optional>

#include "core/train/state/train_state_io.h"

namespace trainscope {

class SnapshotRing {
 public:
  /// `every`: take one when global_step is a multiple of it (0 = never); `keep`: newest kept.
  SnapshotRing(int64_t every, int keep) : every_(every), keep_(keep) {}

  /// True when a snapshot is due at global step `step`: none taken yet (the run's start), or
  /// `step` is a multiple of `every` not captured yet.
  bool due(int64_t step) const;
  /// Captures `state` (call when due(state.global_step)); drops the oldest beyond `keep`.
  void capture(const TrainState& state, const CheckpointContext& context);

  /// Restores the newest snapshot taken at a step < `before_step` into `state` (restoreState:
  /// model, optimizer, RNG, counters, history) and drops the newer ones. Returns its step, or
  /// nullopt when there is none (state untouched). Throws Error(Checkpoint) as restoreState.
  std::optional<int64_t> restoreBefore(TrainState& state, int64_t before_step,
                                       const std::string& optimizer_name);

  /// Steps of the snapshots held, oldest first.
  std::vector<int64_t> steps() const;

 private:
  struct Snapshot {
    int64_t step;
    int64_t epochs;                          ///< epochs completed when it was taken
    std::optional<EpochRecord> best_record;  ///< TrainState::best_record then
    c10::impl::GenericDict dict;  ///< captureState without "history"
  };
  int64_t every_;
  int keep_;
  std::optional<Snapshot> first_;
  std::deque<Snapshot> recent_;
};

}  // namespace trainscope

#include "core/train/state/snapshots.h"

namespace trainscope {

bool SnapshotRing::due(int64_t step) const {
  if (!first_) return true;
  if (every_ <= 0 || step % every_ != 0) return false;
  return (recent_.empty() ? first_->step : recent_.back().step) != step;
}

void SnapshotRing::capture(const TrainState& state, const CheckpointContext& context) {
  CheckpointContext without_grads = context;  // a roll-back starts the doctor's evidence afresh
  without_grads.doctor_grads = nullptr;
  Snapshot s{state.global_step, state.epochs_completed, state.best_record,
             captureState(state, without_grads, /*with_history=*/false)};
  if (!first_) {
    first_ = std::move(s);
    return;
  }
  recent_.push_back(std::move(s));
  while (static_cast<int>(recent_.size()) > keep_) recent_.pop_front();
}

std::optional<int64_t> SnapshotRing::restoreBefore(TrainState& state, int64_t before_step,
                                                   const std::string& optimizer_name) {
  while (!recent_.empty() && recent_.back().step >= before_step) recent_.pop_back();
  const Snapshot* s = !recent_.empty()                         ? &recent_.back()
                      : (first_ && first_->step < before_step) ? &*first_
                                                               : nullptr;
  if (!s) return std::nullopt;
  // The epochs before the snapshot are the run's records up to its epoch (the history is only
  // appended to and thinned, and a roll-back drops the snapshots newer than the one it
  // restores), with its best epoch's record.
  c10::impl::GenericDict dict = s->dict.copy();
  const std::vector<EpochRecord> h = historyWithBest(state.history, s->best_record, s->epochs);
  dict.insert_or_assign("history", historyColumns(h, h.size()));
  restoreState(state, dict, optimizer_name, "in-memory snapshot");
  return s->step;
}

std::vector<int64_t> SnapshotRing::steps() const {
  std::vector<int64_t> out;
  if (first_) out.push_back(first_->step);
  for (const auto& s : recent_) out.push_back(s.step);
  return out;
}

}  // namespace trainscope

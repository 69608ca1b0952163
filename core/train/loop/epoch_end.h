#pragma once
/// What happens at an epoch end after validation (ARCHITECTURE §3: validation -> scheduler ->
/// monitors -> checkpoints), and live learning-rate changes. Internal to core (torch types).
#include <torch/optim/optimizer.h>

#include <vector>

#include "core/config/config_fwd.h"
#include "core/run/records.h"
#include "core/train/state/train_state.h"

namespace trainscope {

/// Sets the learning rate of every parameter group (what the next step uses).
void setLearningRate(torch::optim::Optimizer& optimizer, double lr);

/// Creates the run's scheduler (over optimizer.lr), early stopping (when enabled) and the
/// overfitting-onset detector in `state`. Call after the optimizer exists, before a resume.
void prepareSchedules(TrainState& state, const TrainConfig& config);

/// What the epoch end decided.
struct EpochEndResult {
  std::vector<Event> events;  ///< overfitting / early_stop, in order
  bool stop = false;          ///< early stopping fired: end the run (StopReason::EarlyStop)
};

/// After validation of epoch r.epoch: steps the scheduler with r.val_loss (the optimizer gets
/// the next epoch's lr; r.lr keeps the lr the epoch used), updates early stopping (keeping a copy
/// of the best weights when restore_best_weights) and the overfitting detector, and sets
/// r.early_stop_at. Events carry `step` = r.step.
EpochEndResult afterValidation(TrainState& state, EpochRecord& r, const TrainingConfig& config);

/// restore_best_weights: copies the kept best weights back into the model, bitwise. Returns
/// false when none were kept.
bool restoreBestWeights(TrainState& state);

/// A live learning-rate change to `lr` (> 0): with a scheduler, rescales it as if the run had
/// started with optimizer.lr = lr; otherwise sets the lr. Returns the config_changed event
/// (what "optimizer.lr", value = lr; the message gives the old and new values).
Event changeLearningRate(TrainState& state, double lr, int64_t step, int64_t epoch);

}  // namespace trainscope

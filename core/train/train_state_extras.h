#pragma once
/// The checkpoint keys of the schedule and monitors (ARCHITECTURE §5 `scheduler_state_dict`,
/// plus `early_stopping_state_dict`, `overfitting_state_dict`, `train_accuracy_meter`,
/// `loss_doctor_state_dict` {"initial_losses": [the first finite step losses]}).
/// Internal to core/train/train_state_io.cpp.
#include <ATen/core/Dict.h>

#include <filesystem>

#include "core/io/value_dict.h"
#include "core/train/train_state.h"

namespace trainscope {

/// A ValueDict as a checkpoint dict: numbers as Python floats, lists as lists of floats,
/// strings as str.
c10::impl::GenericDict toGenericDict(const ValueDict& v);
/// The reverse of toGenericDict. Throws Error(Checkpoint, file) naming `key` for other values.
ValueDict toValueDict(const c10::IValue& v, const std::string& key,
                      const std::filesystem::path& file);

/// Adds the keys of the state's scheduler, early stopping (with the best weights it keeps),
/// overfitting detector, training-accuracy meter and the loss doctor's initial losses to `d`
/// (those present in the state).
void captureExtras(const TrainState& state, c10::impl::GenericDict& d);

/// Restores what captureExtras wrote into the state's existing scheduler and monitors (keys
/// absent from older files leave them fresh; no `loss_doctor_state_dict`: no initial losses,
/// the doctor falls back to the history). On any problem restores what it changed and
/// throws Error(Checkpoint, file) naming the key.
void restoreExtras(TrainState& state, const c10::impl::GenericDict& d,
                   const std::filesystem::path& file);

}  // namespace trainscope

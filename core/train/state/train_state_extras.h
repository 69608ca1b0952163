#pragma once
/// ValueDict (the state of schedulers and monitors) <-> checkpoint dict. The schedule and
/// monitors' checkpoint parts (ARCHITECTURE §5 `scheduler_state_dict`, plus
/// `early_stopping_state_dict`, `overfitting_state_dict`, `train_accuracy_meter`,
/// `loss_doctor_state_dict` {"initial_losses": [the first finite step losses]}) are declared in
/// core/train/state/state_parts.h and defined in train_state_extras.cpp. Internal to core.
#include <ATen/core/Dict.h>

#include <filesystem>

#include "core/io/value_dict.h"
#include "core/train/state/train_state.h"

namespace trainscope {

/// A ValueDict as a checkpoint dict: numbers as Python floats, lists as lists of floats,
/// strings as str.
c10::impl::GenericDict toGenericDict(const ValueDict& v);
/// The reverse of toGenericDict. Throws Error(Checkpoint, file) naming `key` for other values.
ValueDict toValueDict(const c10::IValue& v, const std::string& key,
                      const std::filesystem::path& file);

}  // namespace trainscope

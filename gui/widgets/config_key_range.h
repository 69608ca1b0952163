#pragma once
/// Settings widgets take what a config key allows from core's key table (configKeyInfos,
/// core/config/config_file.h) instead of retyping it: ranges of spin boxes, items of combos.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <optional>
#include <string>

#include "core/config/config_file.h"

namespace trainscope {

/// The key table's row for the dotted `key` ("training.batch_size"). Aborts (Q_ASSERT in
/// debug; the first row otherwise) for a key the table lacks: a programming error.
const ConfigKeyInfo& configKeyInfo(const std::string& key);

/// Sets `box`'s range to what integer key `key` allows. `special_min`: a value below core's
/// range the widget uses for null (0 = "auto" threads, 0 = all samples).
void setKeyRange(QSpinBox* box, const std::string& key, std::optional<int> special_min = {});

/// Sets `box`'s range to what number key `key` allows: an open lower bound (x > 0) moved inside
/// by `open_step`, an open upper bound (x < 1) by `open_step_max` (< 0: `open_step`), and
/// `fallback_max` where core sets no upper bound (a spin box needs one).
void setKeyRange(QDoubleSpinBox* box, const std::string& key, double open_step, double fallback_max,
                 double open_step_max = -1);

/// Appends one item per allowed string of `key` (empty text: the caller words them in the
/// current language), each with the string as its data.
void addKeyChoices(QComboBox* combo, const std::string& key);

}  // namespace trainscope

#pragma once
/// Translated descriptions of the built-in presets (core/config/presets.cpp words them in
/// English for the CLI's `presets`; the GUI words them here, by the preset's name).
#include <QString>

#include "core/config/config_fwd.h"

namespace trainscope {

class PresetText {
 public:
  /// The description of `preset` in the interface language. In English it is core's
  /// PresetInfo::description word for word; a preset this file does not know gets core's text.
  static QString description(const PresetInfo& preset);
};

}  // namespace trainscope

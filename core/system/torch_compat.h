#pragma once
/// The one place for differences between libtorch versions (Debian's 1.13 and official 2.x).
#include <torch/version.h>

#include <string>

namespace trainscope::compat {

/// "1.13.1"-style libtorch version from the headers we compiled against.
inline std::string torchVersion() {
#ifdef TORCH_VERSION
  return TORCH_VERSION;
#else
  return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH);
#endif
}

}  // namespace trainscope::compat

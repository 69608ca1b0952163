#include "core/system/clock.h"

#include <ctime>

namespace trainscope {

std::string formatLocalTimeNow(const char* format) {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[64];
  size_t n = std::strftime(buf, sizeof buf, format, &local);
  return std::string(buf, n);
}

}  // namespace trainscope

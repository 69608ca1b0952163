#include "core/system/foreign_code.h"

#include <mutex>

namespace trainscope {
namespace {

std::mutex g_mutex;
int g_depth = 0;
const std::string* g_what = nullptr;  // the outermost scope's description
std::chrono::steady_clock::time_point g_since;

}  // namespace

ForeignCodeScope::ForeignCodeScope(const std::string& what) {
  std::lock_guard<std::mutex> lock(g_mutex);
  outermost_ = g_depth++ == 0;
  if (outermost_) {
    g_what = &what;
    g_since = std::chrono::steady_clock::now();
  }
}

ForeignCodeScope::~ForeignCodeScope() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (--g_depth == 0) g_what = nullptr;
}

std::optional<ForeignCode> foreignCodeRunning() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_depth == 0 || !g_what) return std::nullopt;
  return ForeignCode{*g_what, g_since};
}

}  // namespace trainscope

#include "core/system/foreign_code.h"

#include <mutex>

namespace trainscope {
namespace {

std::mutex g_mutex;
int g_depth = 0;
ForeignCode g_current;

}  // namespace

ForeignCodeScope::ForeignCodeScope(std::string what) {
  std::lock_guard<std::mutex> lock(g_mutex);
  outermost_ = g_depth++ == 0;
  if (outermost_) g_current = {std::move(what), std::chrono::steady_clock::now()};
}

ForeignCodeScope::~ForeignCodeScope() {
  std::lock_guard<std::mutex> lock(g_mutex);
  --g_depth;
}

std::optional<ForeignCode> foreignCodeRunning() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_depth == 0) return std::nullopt;
  return g_current;
}

}  // namespace trainscope

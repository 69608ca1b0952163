#include "core/system/cancel.h"

#include <atomic>

namespace trainscope {
namespace {
std::atomic<bool> g_cancel{false};
}  // namespace

void requestCancel() { g_cancel.store(true); }

bool cancelRequested() { return g_cancel.load(std::memory_order_relaxed); }

void throwIfCancelled(const std::string& file) {
  if (cancelRequested()) throw Cancelled(file);
}

}  // namespace trainscope

#pragma once
/// Code TrainScope cannot interrupt cooperatively: a TorchScript module's own code, run while
/// it loads (`__setstate__`) and in its `forward` (one that never returns hung
/// every front end, SIGTERM ignored). Front ends end the process at once when an interrupt
/// arrives meanwhile (TrainScope writes nothing while that code runs: its files stay whole), and
/// import checks give up after a stated time. Torch-free, Qt-free.
#include <chrono>
#include <optional>
#include <string>

namespace trainscope {

/// Marks, for its lifetime, that foreign code runs ("loading /x/net.pt", "net.pt's forward").
/// Nests; the outermost description is kept. `what` is not copied (a scope opens at every
/// training step's forward): it must outlive the scope.
class ForeignCodeScope {
 public:
  explicit ForeignCodeScope(const std::string& what);
  ~ForeignCodeScope();
  ForeignCodeScope(const ForeignCodeScope&) = delete;
  ForeignCodeScope& operator=(const ForeignCodeScope&) = delete;

 private:
  bool outermost_ = false;
};

/// What foreign code runs now and since when (a copy); nullopt when none.
struct ForeignCode {
  std::string what;
  std::chrono::steady_clock::time_point since;
};
std::optional<ForeignCode> foreignCodeRunning();

}  // namespace trainscope

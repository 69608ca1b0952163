#include "cli/model_time_limit.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "core/system/number_format.h"
#include "core/system/foreign_code.h"

namespace trainscope::cli {

double ModelTimeLimit::seconds() {
  if (const char* s = std::getenv("TRAINSCOPE_MODEL_CHECK_SECONDS")) {
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end != s && *end == '\0' && v > 0) return v;
  }
  return 60.0;
}

ModelTimeLimit::ModelTimeLimit()
    : thread_([this] {
        const auto limit = std::chrono::duration<double>(seconds());
        while (!quit_) {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
          const auto f = foreignCodeRunning();
          if (!f || std::chrono::steady_clock::now() - f->since < limit) continue;
          printError("the model's own code (" + f->what + ") has not returned after " +
                     formatNumber(seconds()) +
                     " s: a forward or __setstate__ that never returns? (the limit of an import "
                     "check; TRAINSCOPE_MODEL_CHECK_SECONDS changes it)");
          std::_Exit(kExitUsage);
        }
      }) {}

ModelTimeLimit::~ModelTimeLimit() {
  quit_ = true;
  if (thread_.joinable()) thread_.join();
}

}  // namespace trainscope::cli

// trainscope-cli-engine: the headless front end's engine (started by trainscope-cli, see
// cli/front/main.cpp). All logic lives in trainscope_cli_lib.
#include <csignal>

#include "cli/cli_app.h"

int main(int argc, char** argv) {
  // `train ... | head`: once the reader is gone, stdout writes fail with EPIPE (and are
  // ignored) instead of SIGPIPE killing the run before it saved anything; the run trains on
  // and writes its run directory as usual.
  std::signal(SIGPIPE, SIG_IGN);
  // A file size limit (ulimit -f): writes past it fail with EFBIG, handled as a full disk (exit
  // 1, files cut back to whole records) instead of SIGXFSZ killing the run mid-record.
  std::signal(SIGXFSZ, SIG_IGN);
  return trainscope::cli::runCli(argc, argv);
}

// trainscope-cli-engine: the headless front end's engine (started by trainscope-cli, see
// cli/front/main.cpp). All logic lives in trainscope_cli_lib.
#include <csignal>

#include "cli/cli_app.h"

int main(int argc, char** argv) {
  // `train ... | head`: once the reader is gone, stdout writes fail with EPIPE (and are
  // ignored) instead of SIGPIPE killing the run before it saved anything; the run trains on
  // and writes its run directory as usual.
  std::signal(SIGPIPE, SIG_IGN);
  return trainscope::cli::runCli(argc, argv);
}

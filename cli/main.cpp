// trainscope-cli: the headless front end. All logic lives in trainscope_cli_lib.
#include "cli/cli_app.h"

int main(int argc, char** argv) { return trainscope::cli::runCli(argc, argv); }

// trainscope-cli: a thin front that starts in about a millisecond. `--help` and `--version`
// (alone) are answered from texts the engine printed at build time (front_texts.h); every
// other command line is handed unchanged to the engine, trainscope-cli-engine beside this
// executable, with execv: the same process id, arguments (argv[0] included), environment,
// signals and exit code, so scripts see no difference. Torch-free and Qt-free by design.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>

#include "front_texts.h"

int main(int argc, char** argv) {
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::fputs(kEngineHelp, stdout);
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    std::fputs(kEngineVersion, stdout);
    return 0;
  }
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    std::fprintf(stderr, "trainscope-cli: cannot find its own executable (/proc/self/exe): %s\n",
                 std::strerror(errno));
    return 1;
  }
  std::string engine(self, static_cast<size_t>(n));
  engine = engine.substr(0, engine.rfind('/') + 1) + "trainscope-cli-engine";
  ::execv(engine.c_str(), argv);
  std::fprintf(stderr, "trainscope-cli: cannot start the engine %s: %s\n", engine.c_str(),
               std::strerror(errno));
  return 1;
}

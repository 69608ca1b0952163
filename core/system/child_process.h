#pragma once
/// Child processes of the CLI (launch's ranks, a sweep's trials): started in a process group of
/// their own with every signal unblocked, and their exit statuses in words. POSIX; torch-free.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace trainscope {

/// How a child is started.
struct ChildSpec {
  std::string exe;                ///< absolute path of the program
  std::vector<std::string> args;  ///< its arguments (argv[1..])
  std::vector<std::pair<std::string, std::string>> env;  ///< set on top of this environment
  /// Its stdout and stderr appended to this file (created); empty: this process's own.
  std::filesystem::path output;
  bool truncate_output = false;  ///< `output` emptied first instead of appended to
  /// SIGTERM when this process dies (Linux's PR_SET_PDEATHSIG): a trial stops, saving its
  /// last.pt, when its sweep is killed with kill -9.
  bool term_with_parent = false;
};

/// Forks and execs `spec` in its own process group (a terminal's Ctrl-C reaches it only through
/// its parent), with every signal unblocked. Returns its pid. Throws Error(Io, exe) when fork
/// fails; a program that cannot be exec'd exits 127 with a message on its stderr.
pid_t startChild(const ChildSpec& spec);

/// The shell's exit code for a waitpid status: the exit code, or 128 + N when killed by signal N.
int childExitCode(int status);

/// "exited with code 2" or "was killed by signal 9 (Killed)".
std::string describeChildStatus(int status);

/// The program file of this process (/proc/self/exe). Throws Error(Io) when it cannot be read.
std::filesystem::path ownExecutable();

}  // namespace trainscope

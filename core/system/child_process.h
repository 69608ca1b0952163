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
  /// Its stdout and stderr to this descriptor (a pipe's write end) when >= 0; `output` ignored.
  int output_fd = -1;
  /// SIGTERM when this process dies (Linux's PR_SET_PDEATHSIG): a trial stops, saving its
  /// last.pt, when its sweep is killed with kill -9.
  bool term_with_parent = false;
  /// SIGINT and SIGTERM stay blocked across exec (their dispositions reset to default), for a
  /// TrainScope child whose SignalWatcher takes them: one sent while it starts (libtorch loads
  /// for a fraction of a second) waits instead of being lost, also when this process was
  /// started with SIGINT ignored (a shell's `&`). Other children start with no signal blocked.
  bool stop_signals_pending = false;
};

/// Forks and execs `spec` in its own process group (a terminal's Ctrl-C reaches it only through
/// its parent), with every signal unblocked. Returns its pid. Throws Error(Io, exe) when fork
/// fails; a program that cannot be exec'd exits 127 with a message on its stderr.
pid_t startChild(const ChildSpec& spec);

/// The shell's exit code for a waitpid status: the exit code, or 128 + N when killed by signal N.
int childExitCode(int status);

/// "exited with code 2" or "was killed by signal 9 (Killed)".
std::string describeChildStatus(int status);

/// What a program said and how it ended (runProgram).
struct ProgramResult {
  int exit_code = 0;    ///< childExitCode of its status
  std::string how;      ///< describeChildStatus of its status
  std::string output;   ///< its stdout and stderr together
};

/// Runs `spec` (its `output` ignored) to its end, its stdout and stderr read through a pipe, and
/// says how it ended. Throws Error(Io, exe) when it cannot be started.
ProgramResult runProgram(ChildSpec spec);

/// The first regular file `name` in the directories of $PATH, or empty when there is none.
std::filesystem::path findProgram(const std::string& name);

/// The command line as one string, arguments quoted for a POSIX shell where needed ('...' with
/// ' as '\''): run.json's command, a Slurm trial's script.
std::string joinCommandLine(const std::vector<std::string>& args);

/// The program file of this process (/proc/self/exe). Throws Error(Io) when it cannot be read.
std::filesystem::path ownExecutable();

}  // namespace trainscope

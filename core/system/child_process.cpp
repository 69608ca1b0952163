#include "core/system/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/errors.h"

namespace trainscope {

pid_t startChild(const ChildSpec& spec) {
  // Everything the child needs is prepared before fork: after it only async-signal-safe calls.
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(spec.exe.c_str()));
  for (const auto& a : spec.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // The environment with spec.env on top (setenv after fork is not async-signal-safe).
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const auto& [name, value] : spec.env)
      replaced = replaced || entry.rfind(name + "=", 0) == 0;
    if (!replaced) env_text.push_back(entry);
  }
  for (const auto& [name, value] : spec.env) env_text.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  const std::string output = spec.output.string();
  const bool truncate = spec.truncate_output;
  const int output_fd = spec.output_fd;
  const bool stop_pending = spec.stop_signals_pending;
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0)
    throw Error(ErrorCode::Io, spec.exe,
                "cannot start " + spec.exe + ": fork failed: " + strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);
    if (spec.term_with_parent) {
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (getppid() != parent) _exit(143);  // the parent died before prctl
    }
    sigset_t mask;
    sigemptyset(&mask);
    if (stop_pending) {
      sigaddset(&mask, SIGINT);
      sigaddset(&mask, SIGTERM);
    }
    pthread_sigmask(SIG_SETMASK, &mask, nullptr);
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;  // not SIG_IGN inherited from a shell's `&`
    sigaction(SIGINT, &default_action, nullptr);
    sigaction(SIGTERM, &default_action, nullptr);
    if (output_fd >= 0) {
      dup2(output_fd, 1);
      dup2(output_fd, 2);
    } else if (!output.empty()) {
      const int fd = open(output.c_str(),
                          O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : O_APPEND), 0644);
      if (fd < 0) {
        dprintf(2, "cannot open %s: %s\n", output.c_str(), strerror(errno));
        _exit(127);
      }
      dup2(fd, 1);
      dup2(fd, 2);
    }
    execve(spec.exe.c_str(), argv.data(), envp.data());
    dprintf(2, "cannot run %s: %s\n", spec.exe.c_str(), strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);  // also here: no race with the child's own call
  return pid;
}

int childExitCode(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

std::string describeChildStatus(int status) {
  if (WIFSIGNALED(status))
    return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  return "exited with code " + std::to_string(childExitCode(status));
}

ProgramResult runProgram(ChildSpec spec) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    throw Error(ErrorCode::Io, spec.exe, "cannot start " + spec.exe + ": " + strerror(errno));
  spec.output_fd = fds[1];
  pid_t pid = -1;
  try {
    pid = startChild(spec);
  } catch (...) {
    close(fds[0]);
    close(fds[1]);
    throw;
  }
  close(fds[1]);
  ProgramResult result;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n > 0) {
      result.output.append(buffer, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = childExitCode(status);
  result.how = describeChildStatus(status);
  return result;
}

std::filesystem::path findProgram(const std::string& name) {
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string d = dirs.substr(start, end - start);
    start = end + 1;
    if (d.empty()) continue;
    const std::filesystem::path exe = std::filesystem::path(d) / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(exe, ec) && access(exe.c_str(), X_OK) == 0) return exe;
  }
  return {};
}

std::string joinCommandLine(const std::vector<std::string>& args) {
  std::string line;
  for (const auto& arg : args) {
    if (!line.empty()) line += ' ';
    const bool plain = !arg.empty() && arg.find_first_not_of(
                                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789_-+=.,/:@%") == std::string::npos;
    if (plain) {
      line += arg;
    } else {
      line += '\'';
      for (char c : arg) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
      line += '\'';
    }
  }
  return line;
}

std::filesystem::path ownExecutable() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    throw Error(ErrorCode::Io, "/proc/self/exe",
                "cannot find this program's own executable (/proc/self/exe): " + ec.message());
  return exe;
}

}  // namespace trainscope

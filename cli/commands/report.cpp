// `trainscope-cli report RUN [--format html|pdf] [--lang zh_CN|en] [-o FILE]`: the run report.
// The report is drawn by the dashboard's own plot and text code
// (gui/teaching/run_report.h), so this command runs the `trainscope` executable installed
// beside it with --report on Qt's offscreen platform: no display is needed.
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "cli/output_file.h"
#include "core/errors.h"
#include "core/io/written_marks.h"

extern char** environ;

namespace trainscope::cli {
namespace {

namespace fs = std::filesystem;

/// The dashboard executable: beside trainscope-cli (installed: both in bin/) or in the build
/// tree's gui/ folder.
fs::path findDashboard() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error(ErrorCode::Io, "/proc/self/exe", "report: cannot find its own executable");
  const fs::path dir = self.parent_path();
  for (const fs::path& candidate : {dir / "trainscope", dir.parent_path() / "gui" / "trainscope"})
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  throw Error(ErrorCode::Io, "trainscope",
              "report draws the run with the dashboard's plots, but the dashboard (trainscope) "
              "is not beside " + self.string() + " (looked for " + (dir / "trainscope").string() +
                  " and " + (dir.parent_path() / "gui" / "trainscope").string() + ")");
}

/// A PDF report names TrainScope as its creator (QPdfWriter writes it in UTF-16BE).
bool isOurPdf(const std::string& bytes) {
  if (bytes.compare(0, 5, "%PDF-") != 0) return false;
  std::string wanted = "/Creator (\xfe\xff";
  for (const char* c = kRunReportPdfCreator; *c; ++c) wanted += std::string(1, '\0') + *c;
  return bytes.find(wanted) != std::string::npos;
}

}  // namespace

ReportCommand::ReportCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "report",
          "Write a run's report: one file with its result, diagnosis, plots, settings, device, "
          "data, model and events (HTML with the plots inside, or PDF)")) {
  nonEmptyPath(sub_->add_option("run", run_, "The run folder")->required());
  sub_->add_option("--format", format_, "html or pdf (default: by -o's suffix, else html)")
      ->check(CLI::IsMember({"html", "pdf"}));
  sub_->add_option("--lang", lang_, "The report's language: en (default) or zh_CN")
      ->check(CLI::IsMember({"en", "zh_CN"}));
  nonEmptyPath(sub_->add_option("-o,--output", output_,
                                "The file (default: RUN/report.html or .pdf); a file TrainScope "
                                "did not write is never replaced"));
}

bool ReportCommand::parsed() const { return sub_->parsed(); }

int ReportCommand::run() const {
  std::error_code ec;
  const fs::path dir = checkRunFolder(run_, "");
  std::string format = format_;
  const std::string suffix = output_.empty() ? "" : fs::path(output_).extension().string();
  const std::string by_suffix = suffix == ".pdf" ? "pdf" : (suffix == ".html" || suffix == ".htm") ? "html" : "";
  if (!output_.empty() && fs::is_directory(output_, ec))
    throw Error(ErrorCode::Config, "-o", "-o " + output_ + " is a directory; give a file name in it");
  if (!output_.empty() && by_suffix.empty())
    throw Error(ErrorCode::Config, "-o", "-o " + output_ + ": name an .html or .pdf file");
  if (format.empty()) format = by_suffix.empty() ? "html" : by_suffix;
  if (!by_suffix.empty() && by_suffix != format)
    throw Error(ErrorCode::Config, "--format",
                "--format " + format + " but -o " + output_ + " names a ." + by_suffix + " file");
  const std::string file = output_.empty() ? (dir / ("report." + format)).string() : output_;
  const fs::path out = checkOutputFile(
      file, "-o", format == "pdf" ? std::function<bool(const std::string&)>(isOurPdf)
                                  : startsWith(kRunReportHtmlMarker));
  const fs::path dashboard = findDashboard();

  std::vector<std::string> args = {dashboard.string(), "--report", dir.string(), "--report-file",
                                   out.string(), "--lang", lang_.empty() ? "en" : lang_};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "QT_QPA_PLATFORM=", 16) != 0) env_text.emplace_back(*e);
  env_text.emplace_back("QT_QPA_PLATFORM=offscreen");  // drawn without a display
  std::vector<char*> envp;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  // Ctrl-C or SIGTERM to this process alone (kill PID) stops the dashboard too, before it
  // renames its file into place: the signals are blocked here and waited for beside the child,
  // which starts with them unblocked and at their defaults.
  sigset_t stop_signals, old_mask;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, &old_mask);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &stop_signals);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, dashboard.c_str(), nullptr, &attr, argv.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    throw Error(ErrorCode::Io, dashboard.string(),
                "report: cannot run " + dashboard.string() + ": " + std::strerror(rc));
  }
  int status = 0;
  bool interrupted = false;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const timespec tick{0, 50 * 1000 * 1000};
    if (sigtimedwait(&stop_signals, nullptr, &tick) > 0 && !interrupted) {
      interrupted = true;
      ::kill(pid, SIGTERM);  // QSaveFile: a killed dashboard leaves no file behind
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  if (interrupted) {
    printError("report: interrupted; nothing was written");
    return kExitInterrupted;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    std::fprintf(stderr, "wrote %s\n", out.c_str());
    return kExitOk;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == kExitUsage) return kExitUsage;
  if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM))
    return kExitInterrupted;
  printError("report: " + dashboard.string() + " failed writing the report");
  return kExitFailure;
}

}  // namespace trainscope::cli

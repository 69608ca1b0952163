#pragma once
/// Progress output of `trainscope-cli train`: a throttled one-line progress bar on a terminal,
/// plain per-epoch lines otherwise, optional JSON lines on stdout, event lines and the final
/// summary line. Numbers via core/system/number_format.h (locale-independent); the --json epoch
/// object is core's epochToJson (core/run/records_json.h). Torch-free.
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "core/run/records.h"
#include "core/train/trainer.h"

namespace trainscope::cli {

/// The final one-line summary (stop reason, epochs, steps, best epoch/val_loss, final
/// val_loss/accuracy, test metrics when present, wall seconds, seed, run dir). No newline.
/// The loss doctor's reading, printed after the summary line: "diagnosis: <kind>: <summary>",
/// then one indented line per evidence item and the numbered checks (ends with a newline).
std::string diagnosisText(const Diagnosis& d);
std::string summaryLine(const RunSummary& summary, const std::string& run_dir);

/// How progress is shown on stderr.
enum class ProgressStyle {
  Bar,   ///< single redrawn line (stderr is a terminal)
  Lines  ///< one plain line per epoch
};

/// Picks Bar when `fd` is a terminal and TERM is not "dumb", else Lines.
ProgressStyle detectProgressStyle(int fd);

/// Options of a ProgressPrinter.
struct ProgressOptions {
  ProgressStyle style = ProgressStyle::Lines;
  /// One JSON object per epoch on `out`, then, when the run ends, summary.json's object with
  /// "type": "summary".
  bool json = false;
  std::FILE* out = stdout;          ///< JSON lines
  std::FILE* err = stderr;          ///< progress, events, messages
  double min_redraw_seconds = 0.1;  ///< bar redraws at most this often (about 10 per second)
  /// Epoch lines (stderr) at most this often; the first and the last epoch always print, so a
  /// run of 800 one-step epochs does not scroll 800 lines by. --json output is never thinned.
  double min_epoch_line_seconds = 0.5;
};

/// The CLI's TrainerObserver. Called on the training thread: every callback is quick (a step
/// callback only reads the clock and, at most ten times a second, writes one line).
class ProgressPrinter : public TrainerObserver {
 public:
  explicit ProgressPrinter(ProgressOptions options);

  /// Called from onRunStarted (on the training thread) before anything is printed; the CLI
  /// uses it to re-issue a stop requested by a signal that arrived before the run began.
  void setRunStartedHook(std::function<void()> hook) { run_started_hook_ = std::move(hook); }

  void onRunStarted(const RunInfo& info) override;
  void onStep(const StepRecord& record) override;
  void onEpoch(const EpochRecord& record) override;
  void onEvent(const Event& event) override;
  void onRunFinished(const RunSummary& summary) override;

  /// Clears the progress bar line if one is showing (before printing other stderr lines).
  void clearBar();

  /// The RunInfo received (default-constructed before the run started).
  const RunInfo& runInfo() const { return info_; }
  /// True once onRunStarted has been called.
  bool started() const { return started_; }

 private:
  void drawBar(const StepRecord& record);
  void printLine(const std::string& line);

  ProgressOptions options_;
  RunInfo info_;
  bool started_ = false;
  bool bar_visible_ = false;
  std::chrono::steady_clock::time_point last_draw_{};
  std::chrono::steady_clock::time_point last_epoch_line_{};
  int64_t samples_seen_ = 0;
  // Windowed throughput for the bar: samples and elapsed seconds at the previous redraw.
  int64_t window_samples_ = 0;
  double window_start_seconds_ = 0;
  double samples_per_second_ = 0;
  std::function<void()> run_started_hook_;
};

}  // namespace trainscope::cli

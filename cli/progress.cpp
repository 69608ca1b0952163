#include "cli/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/system/number_format.h"
#include "core/run/records_json.h"
#include "core/run/run_description.h"

namespace trainscope::cli {

namespace {

/// Terminal width of `fd`, 80 when unknown.
int terminalColumns(std::FILE* stream) {
  winsize ws{};
  if (ioctl(fileno(stream), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

}  // namespace

std::string diagnosisText(const Diagnosis& d) {
  std::string text = "diagnosis: " + d.kind + ": " + d.summary + "\n";
  for (const auto& e : d.evidence) text += "  evidence: " + e.text + "\n";
  for (size_t i = 0; i < d.checks.size(); ++i)
    text += "  check " + std::to_string(i + 1) + ": " + d.checks[i].text + "\n";
  return text;
}

std::string summaryLine(const RunSummary& s, const std::string& run_dir) {
  std::string line = "finished: " + toString(s.stop_reason);
  line += ", " + std::to_string(s.epochs_completed) + " epoch" +
          (s.epochs_completed == 1 ? "" : "s") + ", " + std::to_string(s.global_step) + " step" +
          (s.global_step == 1 ? "" : "s");
  if (s.best_epoch > 0 && s.best_val_loss)
    line += ", best epoch " + std::to_string(s.best_epoch) + " (val_loss " +
            formatHuman(*s.best_val_loss) + ")";
  if (s.final_metrics) {
    line += ", final val_loss " + formatHuman(s.final_metrics->val_loss);
    if (s.final_metrics->val_accuracy)
      line += " val_accuracy " + formatHuman(*s.final_metrics->val_accuracy);
    if (s.final_metrics->val_r2)  // regression
      line += " val_r2 " + formatHuman(*s.final_metrics->val_r2) + " val_mae " +
              formatHuman(s.final_metrics->val_mae.value_or(0)) + " val_rmse " +
              formatHuman(s.final_metrics->val_rmse.value_or(0));
  }
  if (s.test_loss) {
    line += ", test_loss " + formatHuman(*s.test_loss);
    if (s.test_accuracy) line += " test_accuracy " + formatHuman(*s.test_accuracy);
    // Which weights: best.pt's, with the final weights' beside them.
    if (s.test_weights == "best") {
      line += " (best.pt, epoch " + std::to_string(s.test_epoch) + "; last weights: test_loss " +
              (s.last_test_loss ? formatHuman(*s.last_test_loss) : std::string("-"));
      if (s.last_test_accuracy) line += " test_accuracy " + formatHuman(*s.last_test_accuracy);
      line += ")";
    } else if (s.test_weights == "last") {
      line += " (last weights, epoch " + std::to_string(s.test_epoch) + ")";
    }
  }
  line += ", " + formatFixed(s.wall_seconds, 1) + " s";
  line += ", seed " + std::to_string(s.seed);
  if (!run_dir.empty()) line += ", run dir " + run_dir;
  if (s.stop_reason == StopReason::Error && !s.error.empty()) line += "; error: " + s.error;
  return line;
}

ProgressStyle detectProgressStyle(int fd) {
  if (!isatty(fd)) return ProgressStyle::Lines;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return ProgressStyle::Lines;
  return ProgressStyle::Bar;
}

ProgressPrinter::ProgressPrinter(ProgressOptions options) : options_(options) {}

void ProgressPrinter::printLine(const std::string& line) {
  clearBar();
  std::fprintf(options_.err, "%s\n", line.c_str());
  std::fflush(options_.err);
}

void ProgressPrinter::clearBar() {
  if (!bar_visible_) return;
  std::fputs("\r\x1b[K", options_.err);
  std::fflush(options_.err);
  bar_visible_ = false;
}

void ProgressPrinter::onRunStarted(const RunInfo& info) {
  if (run_started_hook_) run_started_hook_();
  info_ = info;
  started_ = true;
  const DataSummary& d = info.data;
  std::string data = d.source + " (" + d.task + "): " + std::to_string(d.n_train) + " train / " +
                     std::to_string(d.n_val) + " val";
  if (d.n_test > 0) data += " / " + std::to_string(d.n_test) + " test";
  printLine("data: " + data + " samples");
  if (!d.augmentation.empty()) printLine("augmentation: " + augmentationSummary(d));
  if (!info.class_weights.empty() || info.sampler != "random")
    printLine(classBalanceLine(info.class_weights, info.sampler));
  if (info.data_workers > 0)
    printLine("loader: " + std::to_string(info.data_workers) + " worker thread" +
              (info.data_workers == 1 ? "" : "s") + ", " + std::to_string(info.prefetch) +
              " batches ahead each (data.workers, data.prefetch)");
  printLine("model: " + info.model.description + " (" + std::to_string(info.model.parameter_count) +
            " parameters)");
  printLine(
      "training: " + std::to_string(info.epochs) + (info.epochs == 1 ? " epoch x " : " epochs x ") +
      std::to_string(info.batches_per_epoch) +
      (info.batches_per_epoch == 1 ? " batch of " : " batches of ") + std::to_string(info.batch_size) +
      (info.grad_accum_steps > 1
           ? " (" + std::to_string(info.grad_accum_steps) +
                 " per optimizer step: " + std::to_string(info.effective_batch_size) + " samples)"
           : std::string()) +
      (info.world_size > 1
           ? " per rank x " + std::to_string(info.world_size) + " ranks (global batch " +
                 std::to_string(info.effective_batch_size) + ")"
           : std::string()) +
      (info.amp ? ", AMP " + info.amp_kind : std::string()) + ", device " + info.device + ", " +
      describeThreads(info.thread_choice) + ", seed " + std::to_string(info.seed) +
      (info.run_dir.empty() ? std::string() : ", run dir " + info.run_dir));
  if (!info.mistakes.empty()) {  // teaching: nobody may take this run for a real one
    std::string names;
    for (const std::string& m : info.mistakes) names += (names.empty() ? "" : ", ") + m;
    printLine("TEACHING: mistakes injected on purpose (teaching.mistakes): " + names);
  }
}

void ProgressPrinter::onStep(const StepRecord& r) {
  samples_seen_ += r.batch_samples;
  if (options_.style != ProgressStyle::Bar) return;
  // Throttle: the engine may call this thousands of times a second; redraw at most ~10 Hz.
  auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_draw_).count() < options_.min_redraw_seconds) return;
  last_draw_ = now;
  drawBar(r);
}

void ProgressPrinter::drawBar(const StepRecord& r) {
  const int64_t bpe = info_.batches_per_epoch > 0 ? info_.batches_per_epoch : r.batches_per_epoch;
  const int64_t epochs = info_.epochs > 0 ? info_.epochs : r.epoch;
  const int64_t total = std::max<int64_t>(1, epochs * bpe);
  const double fraction = std::clamp(static_cast<double>(r.step) / total, 0.0, 1.0);

  // Throughput over the window since the previous redraw (smoothed), falling back to the
  // run average for the first redraw.
  const double window = r.elapsed_seconds - window_start_seconds_;
  if (window > 0) {
    double rate = (samples_seen_ - window_samples_) / window;
    samples_per_second_ = samples_per_second_ > 0 ? 0.5 * samples_per_second_ + 0.5 * rate : rate;
  }
  window_samples_ = samples_seen_;
  window_start_seconds_ = r.elapsed_seconds;
  // ETA from elapsed time and the fraction of all steps done.
  const double eta = fraction > 0 ? r.elapsed_seconds * (1.0 - fraction) / fraction : -1;

  const int columns = terminalColumns(options_.err);
  std::string head = "epoch " + std::to_string(r.epoch) + "/" + std::to_string(epochs) + " ";
  std::string tail = " step " + std::to_string(r.step) + "/" + std::to_string(total) + "  loss " +
                     formatHuman(r.loss) + "  " + formatFixed(samples_per_second_, 0) +
                     " samples/s  ETA " + formatDuration(eta);
  int width = std::clamp(columns - 1 - static_cast<int>(head.size() + tail.size()) - 2, 0, 30);
  std::string line = head;
  if (width >= 5) {
    int filled = static_cast<int>(std::lround(fraction * width));
    line += "[" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
  }
  line += tail;
  if (static_cast<int>(line.size()) > columns - 1)
    line.resize(static_cast<size_t>(std::max(0, columns - 1)));
  std::fprintf(options_.err, "\r%s\x1b[K", line.c_str());
  std::fflush(options_.err);
  bar_visible_ = true;
}

void ProgressPrinter::onEpoch(const EpochRecord& r) {
  if (options_.json) {
    std::fprintf(options_.out, "%s\n", epochToJson(r).dump().c_str());
    std::fflush(options_.out);
  }
  const int64_t epochs = info_.epochs > 0 ? info_.epochs : r.epoch;
  const auto now = std::chrono::steady_clock::now();
  const bool edge = r.epoch == 1 || r.epoch >= epochs;
  if (!edge && std::chrono::duration<double>(now - last_epoch_line_).count() <
                   options_.min_epoch_line_seconds)
    return;
  last_epoch_line_ = now;
  std::string line = "epoch " + std::to_string(r.epoch) + "/" + std::to_string(epochs) + "  step " +
                     std::to_string(r.step) + "  train_loss " + formatHuman(r.train_loss) +
                     "  val_loss " + formatHuman(r.val_loss);
  if (r.val_accuracy) line += "  val_accuracy " + formatHuman(*r.val_accuracy);
  if (r.val_r2) line += "  val_r2 " + formatHuman(*r.val_r2);
  if (r.val_rmse) line += "  val_rmse " + formatHuman(*r.val_rmse);
  line += "  lr " + formatHuman(r.lr) + "  " + formatFixed(r.epoch_seconds, 2) + " s";
  printLine(line);
}

void ProgressPrinter::onEvent(const Event& e) {
  // run_started/finished repeat what the header and the summary line already say.
  if (e.kind == EventKind::RunStarted || e.kind == EventKind::Finished) return;
  if (e.kind == EventKind::ModelWarning) {  // as inspect-model says it
    printLine("warning: " + e.message);
    return;
  }
  if (e.kind == EventKind::DataWarning) {  // said before the first step, as `data` says it
    const bool note = e.what == "note" || e.what == "csv_header";
    printLine((note ? "note: " : "warning: ") + e.message);
    return;
  }
  std::string line = "event: " + toString(e.kind) + " at step " + std::to_string(e.step) +
                     " (epoch " + std::to_string(e.epoch) + ")";
  if (!e.message.empty()) line += ": " + e.message;
  printLine(line);
}

void ProgressPrinter::onRunFinished(const RunSummary& summary) {
  clearBar();
  if (options_.json) {
    // The last --json line: summary.json's object, told apart from the epoch lines by "type".
    nlohmann::json j = toJson(summary);
    j["type"] = "summary";
    std::fprintf(options_.out, "%s\n", j.dump().c_str());
    std::fflush(options_.out);
  }
}

}  // namespace trainscope::cli

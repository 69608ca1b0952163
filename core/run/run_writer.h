#pragma once
/// Writes the run directory of ARCHITECTURE §4 as the run goes: lines appended and flushed, so
/// a crash loses at most the current line; summary.json written atomically at the end.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/io/line_file.h"
#include "core/run/records.h"
#include "core/run/run_lock.h"
#include "core/io/tfevents_writer.h"

namespace trainscope {

struct DistributionRecord;

class RunWriter {
 public:
  /// Creates `dir` if needed, takes its lock (run_lock.h: held until destruction; a folder
  /// another live run holds throws Error(Config, dir) naming that process, before anything is
  /// written), removes the temp files a killed run left there, and writes config.json,
  /// run.json and the CSV headers; with config logging.tensorboard (default true) also a
  /// TensorBoard event file (io/tfevents_writer.h) that receives every step and epoch under
  /// TensorBoard tags (per step: train/loss, grad_norm, grad_norm_clipped, lr, loss_scale; per
  /// epoch: train/epoch_loss, val/loss, val/accuracy, train/accuracy, samples_per_second,
  /// epoch), at the global step. Throws Error(Io, path).
  RunWriter(const std::filesystem::path& dir, const nlohmann::json& config,
            const nlohmann::json& run_info);
  ~RunWriter();
  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;

  /// Rows a resumed run starts with (its source run's, see io/run_resume.h), verbatim, before
  /// any record of its own (and the same steps and epochs in the TensorBoard file).
  void writePrefixRows(const std::vector<std::string>& metrics_rows,
                       const std::vector<std::string>& step_rows);
  void writeStep(const StepRecord& r);
  void writeEpoch(const EpochRecord& r);
  void writeEvent(const Event& e);
  /// A classification validation pass (ValidationDetail::tp_at / fp_at) as TensorBoard's
  /// pr_curves plugin's tensors, one per class (tag "val/pr_curve/<class name>"), when the
  /// event file is written: the first pass, then at most one every kPrCurveSeconds, and the
  /// last pass at writeSummary (a run of many short epochs does not grow the file by 6 x 201
  /// floats per class and epoch). `class_names` in output order.
  void writeValidationDetail(const ValidationDetail& d, const std::vector<std::string>& class_names);
  /// A distributions reading as TensorBoard histograms at its step (tags "weights/<name>",
  /// "gradients/<name>", "activations/<name>"; tensors without finite values left out), when
  /// the event file is written. A full disk is left to the run's own rows to report.
  void writeDistributions(const DistributionRecord& r);
  /// summary.json (atomic); first the pending validation pass's PR curves.
  void writeSummary(const RunSummary& s);
  static constexpr double kPrCurveSeconds = 10.0;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  RunDirLock lock_;
  std::unique_ptr<LineFile> metrics_, steps_, events_;
  std::unique_ptr<TensorBoardWriter> tensorboard_;
  double start_wall_time_ = 0;  ///< Unix seconds when the writer was made (TensorBoard's clock)
  bool in_sweep_ = false;       ///< a sweep's trial: its session end goes to TensorBoard too
  double pr_written_ = 0;       ///< Unix seconds of the last PR curves written (0: none yet)
  /// The PR curves' tensors of the latest pass not yet written: (tag, [6 * T] values), step.
  std::vector<std::pair<std::string, std::vector<float>>> pr_pending_;
  int64_t pr_pending_step_ = 0;
  void writePendingPrCurves();
};

}  // namespace trainscope

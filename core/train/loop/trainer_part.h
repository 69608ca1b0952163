#pragma once
// The parts of a run the trainer calls at fixed points (Lightning's Callback:
// on_train_batch_end, on_train_epoch_end, on_train_end). The trainer loops over its parts, in
// the order they were added, before the observers; the run's files are one part among them.
// Include only from core/train/trainer*.cpp.
#include <filesystem>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/run/records.h"

namespace trainscope {

class LayersCsvWriter;
class RunWriter;

/// One part of a run. Training thread only; every hook may throw (an I/O error ends the run
/// as Error, as a failed write always did).
struct TrainerPart {
  virtual ~TrainerPart() = default;
  /// After each optimizer step's record.
  virtual void onStep(const StepRecord&) {}
  /// After each epoch's record.
  virtual void onEpoch(const EpochRecord&) {}
  /// After each per-layer statistics record (training.layer_stats_every).
  virtual void onLayerStats(const LayerStatsRecord&) {}
  /// Every event of the run, also those for the run's files alone (automatic saves, the
  /// doctor's change of kind), which observers do not get.
  virtual void onEvent(const Event&) {}
  /// At the end of the run, with its summary; the part closes what it holds open.
  virtual void onStop(const RunSummary&) {}
};

/// The run directory's files (core/run/run_writer.h, layers_csv.h): config.json and run.json at
/// the start, then steps.csv, metrics.csv, events.jsonl and layers.csv appended line by line,
/// summary.json at the end.
class RunFilesPart : public TrainerPart {
 public:
  /// Writes config.json and run.json into `dir` and the rows a resumed run starts with.
  /// Throws Error(Io, file).
  RunFilesPart(const std::filesystem::path& dir, const nlohmann::json& config,
               const nlohmann::json& run, const std::vector<std::string>& metrics_rows,
               const std::vector<std::string>& step_rows);
  ~RunFilesPart() override;
  /// Opens layers.csv for the parameter tensors `names` (state_dict order), starting with
  /// `prefix_rows` (a resumed run's rows from its source run). Throws Error(Io, file).
  void openLayers(const std::vector<std::string>& names,
                  const std::vector<std::string>& prefix_rows);
  void onStep(const StepRecord& r) override;
  void onLayerStats(const LayerStatsRecord& r) override;
  void onEpoch(const EpochRecord& r) override;
  void onEvent(const Event& e) override;
  void onStop(const RunSummary& s) override;

 private:
  std::filesystem::path dir_;
  std::unique_ptr<RunWriter> writer_;
  std::unique_ptr<LayersCsvWriter> layers_;  ///< null until openLayers
};

}  // namespace trainscope

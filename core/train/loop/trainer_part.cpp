#include "core/train/loop/trainer_part.h"

#include "core/run/layers_csv.h"
#include "core/run/run_writer.h"

namespace trainscope {

RunFilesPart::RunFilesPart(const std::filesystem::path& dir, const nlohmann::json& config,
                           const nlohmann::json& run, const std::vector<std::string>& metrics_rows,
                           const std::vector<std::string>& step_rows)
    : dir_(dir), writer_(std::make_unique<RunWriter>(dir, config, run)) {
  writer_->writePrefixRows(metrics_rows, step_rows);
}

RunFilesPart::~RunFilesPart() = default;

void RunFilesPart::openLayers(const std::vector<std::string>& names,
                              const std::vector<std::string>& prefix_rows) {
  layers_ = std::make_unique<LayersCsvWriter>(dir_, names, prefix_rows);
}

void RunFilesPart::onStep(const StepRecord& r) { writer_->writeStep(r); }
void RunFilesPart::onLayerStats(const LayerStatsRecord& r) {
  if (layers_) layers_->write(r);
}
void RunFilesPart::onEpoch(const EpochRecord& r) { writer_->writeEpoch(r); }
void RunFilesPart::onEvent(const Event& e) { writer_->writeEvent(e); }

void RunFilesPart::onStop(const RunSummary& s) {
  writer_->writeSummary(s);
  writer_.reset();  // close the files before anyone reads them
  layers_.reset();
}

}  // namespace trainscope

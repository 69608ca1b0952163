#include "core/train/loop/trainer_part.h"

#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/model/model.h"
#include "core/run/evaluation_file.h"
#include "core/run/layers_csv.h"
#include "core/run/run_writer.h"
#include "core/train/state/train_state.h"

namespace trainscope {

void PartHost::emit(EventKind kind, const std::string& message, int64_t epoch,
                    const std::string& file) {
  emit(Event{runState().global_step, epoch, kind, message, std::nullopt, "", file});
}

RunFilesPart::RunFilesPart(PartHost& host, const std::filesystem::path& dir,
                           const nlohmann::json& config, const nlohmann::json& run,
                           RunPrefix prefix)
    : host_(host),
      dir_(dir),
      prefix_(std::move(prefix)),
      writer_(std::make_unique<RunWriter>(dir, config, run)) {
  writer_->writePrefixRows(prefix_.metrics_rows, prefix_.step_rows);
  prefix_.metrics_rows.clear();
  prefix_.step_rows.clear();
}

RunFilesPart::~RunFilesPart() = default;

void RunFilesPart::onRunStart() {
  if (host_.runConfig().training.layer_stats_every <= 0) return;
  std::vector<std::string> names;
  for (const auto& item : host_.runState().model->named_parameters()) names.push_back(item.first);
  // A resumed run starts with the source run's rows up to the checkpoint, as steps.csv does.
  const bool same = prefix_.layers_header == layersCsvHeader(names);
  layers_ = std::make_unique<LayersCsvWriter>(
      dir_, names, same ? prefix_.layer_rows : std::vector<std::string>{});
  prefix_.layer_rows.clear();
}

void RunFilesPart::onStep(const StepRecord& r) { writer_->writeStep(r); }
void RunFilesPart::onLayerStats(const LayerStatsRecord& r) {
  if (layers_) layers_->write(r);
}
void RunFilesPart::onEpoch(const EpochRecord& r) { writer_->writeEpoch(r); }
void RunFilesPart::onEvent(const Event& e) { writer_->writeEvent(e); }

void RunFilesPart::writeValidationDetail(const ValidationDetail& d) {
  if (d.classes.empty()) return;
  const std::vector<std::string>& names = host_.runData().summary.class_names;
  if (!evaluation_) evaluation_ = std::make_unique<EvaluationFile>(dir_, names);
  evaluation_->add(d);
  writer_->writeValidationDetail(d, names);
}

void RunFilesPart::writeDistributions(const DistributionRecord& r) {
  if (writer_) writer_->writeDistributions(r);
}

void RunFilesPart::onStop(const RunSummary& s) {
  if (evaluation_) evaluation_->flush();
  writer_->writeSummary(s);
  writer_.reset();  // close the files before anyone reads them
  layers_.reset();
}

}  // namespace trainscope

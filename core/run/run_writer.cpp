#include "core/run/run_writer.h"

#include <cerrno>
#include <cstring>

#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/run/records_json.h"
#include "core/run/run_dir.h"

namespace trainscope {

RunWriter::RunWriter(const std::filesystem::path& dir, const nlohmann::json& config,
                     const nlohmann::json& run_info)
    : dir_(dir), lock_(dir) {  // the lock first: a second writer is refused before any write
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec)
    throw Error(ErrorCode::Io, dir_.string(),
                "cannot create run directory " + dir_.string() + ": " + ec.message());
  removeStaleRunTemps(dir_);  // ours, of a run killed here: no live process writes here now
  writeFileAtomic(dir_ / "config.json", config.dump(2) + "\n");
  writeFileAtomic(dir_ / "run.json", run_info.dump(2) + "\n");
  metrics_ = std::make_unique<LineFile>(dir_ / "metrics.csv");
  metrics_->append(metricsCsvHeader());
  steps_ = std::make_unique<LineFile>(dir_ / "steps.csv");
  steps_->append(stepsCsvHeader());
  events_ = std::make_unique<LineFile>(dir_ / "events.jsonl");
}

RunWriter::~RunWriter() = default;

void RunWriter::writePrefixRows(const std::vector<std::string>& metrics_rows,
                                const std::vector<std::string>& step_rows) {
  for (const auto& row : metrics_rows) metrics_->append(row);
  for (const auto& row : step_rows) steps_->append(row);
}

void RunWriter::writeStep(const StepRecord& r) { steps_->append(toCsvRow(r)); }
void RunWriter::writeEpoch(const EpochRecord& r) { metrics_->append(toCsvRow(r)); }
void RunWriter::writeEvent(const Event& e) { events_->append(toJson(e).dump()); }
void RunWriter::writeSummary(const RunSummary& s) {
  writeFileAtomic(dir_ / "summary.json", toJson(s).dump(2) + "\n");
}

}  // namespace trainscope

#include "core/io/run_writer.h"

#include <cerrno>
#include <cstring>

#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/train/records_json.h"

namespace trainscope {

RunWriter::RunWriter(const std::filesystem::path& dir, const nlohmann::json& config,
                     const nlohmann::json& run_info)
    : dir_(dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec)
    throw Error(ErrorCode::Io, dir_.string(),
                "cannot create run directory " + dir_.string() + ": " + ec.message());
  writeFileAtomic(dir_ / "config.json", config.dump(2) + "\n");
  writeFileAtomic(dir_ / "run.json", run_info.dump(2) + "\n");
  metrics_ = open("metrics.csv", metricsCsvHeader());
  steps_ = open("steps.csv", stepsCsvHeader());
  events_ = open("events.jsonl", nullptr);
}

RunWriter::~RunWriter() {
  for (std::FILE* f : {metrics_, steps_, events_})
    if (f) std::fclose(f);
}

std::FILE* RunWriter::open(const char* name, const char* header) {
  std::filesystem::path path = dir_ / name;
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f)
    throw Error(ErrorCode::Io, path.string(),
                "cannot open " + path.string() + ": " + std::strerror(errno));
  if (header) append(f, header, name);
  return f;
}

void RunWriter::append(std::FILE* f, const std::string& line, const char* name) {
  // One write + flush per line: a crash loses at most the line being written.
  if (std::fputs(line.c_str(), f) < 0 || std::fputc('\n', f) == EOF || std::fflush(f) != 0) {
    std::filesystem::path path = dir_ / name;
    throw Error(ErrorCode::Io, path.string(),
                "cannot write " + path.string() + ": " + std::strerror(errno));
  }
}

void RunWriter::writePrefixRows(const std::vector<std::string>& metrics_rows,
                                const std::vector<std::string>& step_rows) {
  for (const auto& row : metrics_rows) append(metrics_, row, "metrics.csv");
  for (const auto& row : step_rows) append(steps_, row, "steps.csv");
}

void RunWriter::writeStep(const StepRecord& r) { append(steps_, toCsvRow(r), "steps.csv"); }
void RunWriter::writeEpoch(const EpochRecord& r) { append(metrics_, toCsvRow(r), "metrics.csv"); }
void RunWriter::writeEvent(const Event& e) { append(events_, toJson(e).dump(), "events.jsonl"); }
void RunWriter::writeSummary(const RunSummary& s) {
  writeFileAtomic(dir_ / "summary.json", toJson(s).dump(2) + "\n");
}

}  // namespace trainscope

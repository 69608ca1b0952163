#pragma once
/// Writes the run directory of ARCHITECTURE §4 as the run goes: lines appended and flushed, so
/// a crash loses at most the current line; summary.json written atomically at the end.
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/train/records.h"

namespace trainscope {

class RunWriter {
 public:
  /// Creates `dir` if needed and writes config.json, run.json and the CSV headers.
  /// Throws Error(Io, path).
  RunWriter(const std::filesystem::path& dir, const nlohmann::json& config,
            const nlohmann::json& run_info);
  ~RunWriter();
  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;

  void writeStep(const StepRecord& r);
  void writeEpoch(const EpochRecord& r);
  void writeEvent(const Event& e);
  /// summary.json (atomic).
  void writeSummary(const RunSummary& s);
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::FILE* open(const char* name, const char* header);
  void append(std::FILE* f, const std::string& line, const char* name);

  std::filesystem::path dir_;
  std::FILE* metrics_ = nullptr;
  std::FILE* steps_ = nullptr;
  std::FILE* events_ = nullptr;
};

}  // namespace trainscope

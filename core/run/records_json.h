#pragma once
/// Text forms of the records, shared by the run directory writer and the CLI's --json output,
/// so every consumer sees the same numbers. Locale-independent. Torch-free.
#include <nlohmann/json.hpp>
#include <string>

#include "core/system/number_format.h"  // formatNumber: every number in the CSV files
#include "core/run/json_fields.h"  // jsonNumber, jsonDouble
#include "core/run/records.h"

namespace trainscope {


/// metrics.csv header and rows.
const char* metricsCsvHeader();
std::string toCsvRow(const EpochRecord& r);
/// The epoch as a JSON object (CLI `--json` lines, summary.json `final_metrics`): keys are the
/// metrics.csv column names, in column order; val_accuracy is null for regression.
nlohmann::ordered_json epochToJson(const EpochRecord& r);

/// steps.csv header and rows.
const char* stepsCsvHeader();
std::string toCsvRow(const StepRecord& r);

/// events.jsonl object: {"step","epoch","kind","message"[,"value","what"]}.
nlohmann::json toJson(const Event& e);

/// summary.json's fields, one declaration each (core/run/json_fields.h), in file order.
const std::vector<JsonField<RunSummary>>& summaryJsonFields();
/// summary.json object (ARCHITECTURE §4).
nlohmann::json toJson(const RunSummary& s);

}  // namespace trainscope

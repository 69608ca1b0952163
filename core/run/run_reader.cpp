#include "core/run/run_reader.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/config/train_config.h"
#include "core/data/batches.h"
#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/system/number_format.h"
#include "core/system/overloaded.h"
#include "core/run/csv_columns.h"
#include "core/run/records_json.h"
#include "core/run/run_description.h"
#include "core/run/run_lock.h"

namespace trainscope {
namespace {

/// The cells of one unquoted CSV line ("a,,b" -> "a", "", "b"; "a," -> "a", "").
std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> cells;
  if (line.empty()) return cells;
  size_t start = 0;
  for (;;) {
    const size_t comma = line.find(',', start);
    if (comma == std::string::npos) {
      cells.emplace_back(line, start);
      return cells;
    }
    cells.emplace_back(line, start, comma - start);
    start = comma + 1;
  }
}

/// A CSV file of the run directory read as a header and rows of cells (the files never quote).
struct Table {
  std::string name;  ///< the file, for messages
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int64_t> lines;  ///< 1-based line number of each row

  int column(const std::string& key, bool required) const {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == key) return static_cast<int>(i);
    if (required)
      throw Error(ErrorCode::Io, name, name + ": the header has no \"" + key + "\" column");
    return -1;
  }
  Error bad(size_t row, const char* what) const {
    std::string line;
    for (size_t i = 0; i < rows[row].size(); ++i) line += (i ? "," : "") + rows[row][i];
    return Error(
        ErrorCode::Io, name,
        name + ", line " + std::to_string(lines[row]) + ": not a " + what + " row: " + line);
  }
  /// Cell `c` of row `row` as a number; an empty cell (or no column `c` < 0) gives nullopt.
  std::optional<double> number(size_t row, int c, const char* what) const {
    if (c < 0 || c >= static_cast<int>(rows[row].size()) || rows[row][c].empty())
      return std::nullopt;
    auto v = parseNumber(rows[row][c]);
    if (!v) throw bad(row, what);
    return v;
  }
  /// Cell `c` of row `row` as a number that must be there.
  double required(size_t row, int c, const char* what) const {
    const auto v = number(row, c, what);
    if (!v) throw bad(row, what);
    return *v;
  }
  int64_t integer(size_t row, int c, const char* what) const {
    if (c < 0 || c >= static_cast<int>(rows[row].size())) throw bad(row, what);
    auto v = parseInteger(rows[row][c]);
    if (!v) throw bad(row, what);
    return *v;
  }
};

/// The complete lines of `file` (each ended by a newline, which is not kept). A last line
/// without its newline is a row the writer had not finished (a run killed mid-write, or one
/// still being written) and is left out, as the next complete read will have it whole.
std::vector<std::string> completeLines(const std::filesystem::path& file) {
  // one read (a runs table reads hundreds of these files), never of a FIFO or device
  const std::string text = readRegularFile(file);
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    lines.emplace_back(text, start, nl - start);
  return lines;  // text after the last newline: unfinished
}

/// The table of a header line and the lines after it (`first_line`: the 1-based line number of
/// lines[0], for messages).
Table tableOf(const std::string& name, const std::string& header,
              const std::vector<std::string>& lines, int64_t first_line) {
  Table t;
  t.name = name;
  t.header = splitCsv(header);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    t.rows.push_back(splitCsv(lines[i]));
    t.lines.push_back(first_line + static_cast<int64_t>(i));
  }
  return t;
}

Table readTable(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::vector<std::string> lines = completeLines(file);
  if (lines.empty()) throw Error(ErrorCode::Io, name, name + " is empty");
  const std::string header = std::move(lines[0]);
  lines.erase(lines.begin());
  return tableOf(name, header, lines, 2);
}

/// The rows of `rows` that count (currentRows on `step`) with step <= max_step, in step order.
template <class Record>
std::vector<Record> current(const std::vector<Record>& rows, int64_t max_step) {
  std::vector<int64_t> steps;
  for (const Record& r : rows) steps.push_back(r.step);
  std::vector<Record> kept;
  for (size_t i : currentRows(steps))
    if (rows[i].step <= max_step) kept.push_back(rows[i]);
  return kept;
}

nlohmann::json parseJsonFile(const std::filesystem::path& file) {
  const std::string name = file.string();
  const std::string text = readRegularFile(file);
  try {
    return parseJson(text);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCode::Io, name, name + ": not JSON (" + e.what() + ")");
  }
}

}  // namespace

std::vector<size_t> currentRows(const std::vector<int64_t>& steps) {
  std::vector<size_t> kept;
  for (size_t i = 0; i < steps.size(); ++i) {
    while (!kept.empty() && steps[kept.back()] >= steps[i]) kept.pop_back();
    kept.push_back(i);
  }
  return kept;
}

namespace {

/// The rows of `t` read by `columns` (core/run/csv_columns.h): a required column missing from
/// the header, or an empty or malformed cell where one is required, throws Error(Io, file)
/// naming the column or the line; `what` names the file kind in messages.
template <class Record>
std::vector<Record> recordRows(const Table& t, const std::vector<CsvColumn<Record>>& columns,
                               const char* what) {
  std::vector<int> index;
  for (const CsvColumn<Record>& c : columns) index.push_back(t.column(c.name, c.required_column));
  std::vector<Record> rows;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    Record r;
    for (size_t k = 0; k < columns.size(); ++k) {
      const CsvColumn<Record>& c = columns[k];
      const int at = index[k];
      std::visit(Overloaded{[&](int64_t Record::*m) { r.*m = t.integer(i, at, what); },
                            [&](double Record::*m) {
                              if (at < 0) r.*m = c.absent_as ? r.*c.absent_as : 0;
                              else if (c.required_cell) r.*m = t.required(i, at, what);
                              else r.*m = t.number(i, at, what).value_or(0);
                            },
                            [&](std::optional<double> Record::*m) {
                              r.*m = t.number(i, at, what);
                            }},
                 c.member);
    }
    rows.push_back(r);
  }
  return rows;
}

std::vector<StepRecord> stepRows(const Table& t) {
  std::vector<StepRecord> rows = recordRows(t, stepsCsvColumns(), "steps.csv");
  for (StepRecord& r : rows) r.applied = std::isfinite(r.loss) && std::isfinite(r.grad_norm);
  return rows;
}

std::vector<EpochRecord> epochRows(const Table& t) {
  return recordRows(t, metricsCsvColumns(), "metrics.csv");
}

}  // namespace

std::vector<StepRecord> readStepsCsvRows(const std::filesystem::path& file) {
  return stepRows(readTable(file));
}

std::vector<StepRecord> parseStepsCsvRows(const std::string& file, const std::string& header,
                                          const std::vector<std::string>& lines,
                                          int64_t first_line) {
  return stepRows(tableOf(file, header, lines, first_line));
}

std::vector<EpochRecord> parseMetricsCsvRows(const std::string& file, const std::string& header,
                                             const std::vector<std::string>& lines,
                                             int64_t first_line) {
  return epochRows(tableOf(file, header, lines, first_line));
}

std::vector<StepRecord> readStepsCsv(const std::filesystem::path& file, int64_t max_step) {
  return current(readStepsCsvRows(file), max_step);
}

namespace {

/// summary.json's global_step when the file holds one (the run's final step), else no limit.
int64_t lastStep(const std::filesystem::path& dir) {
  std::string text;
  try {
    text = readRegularFile(dir / "summary.json");
  } catch (const Error&) {
  }
  if (!text.empty()) {
    const nlohmann::json s = parseJson(text, false);
    if (s.is_object() && s.contains("global_step") && s["global_step"].is_number_integer())
      return s["global_step"].get<int64_t>();
  }
  return std::numeric_limits<int64_t>::max();
}

}  // namespace

std::vector<StepRecord> readRunSteps(const std::filesystem::path& dir) {
  return readStepsCsv(dir / "steps.csv", lastStep(dir));
}


std::vector<EpochRecord> readMetricsCsv(const std::filesystem::path& file, int64_t max_step) {
  return current(epochRows(readTable(file)), max_step);
}

std::vector<LayerStatsRecord> readLayersCsv(const std::filesystem::path& file, int64_t max_step) {
  const Table t = readTable(file);
  const int c_step = t.column("step", true);
  // A tensor's name from the first group's column (`<name>.grad_norm`); then every group's.
  const std::vector<LayerCsvColumn>& groups = layersCsvColumns();
  const std::string first_suffix = groups.front().suffix;
  std::vector<std::string> names;
  std::vector<std::vector<int>> index;  // [tensor][group]
  for (const std::string& h : t.header)
    if (h.size() > first_suffix.size() &&
        h.compare(h.size() - first_suffix.size(), first_suffix.size(), first_suffix) == 0) {
      const std::string name = h.substr(0, h.size() - first_suffix.size());
      names.push_back(name);
      std::vector<int>& at = index.emplace_back();
      for (const LayerCsvColumn& g : groups) at.push_back(t.column(name + g.suffix, true));
    }
  const char* what = "layers.csv";
  std::vector<LayerStatsRecord> rows;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    LayerStatsRecord r;
    r.step = t.integer(i, c_step, what);
    r.names = names;
    for (size_t k = 0; k < names.size(); ++k)
      for (size_t g = 0; g < groups.size(); ++g)
        (r.*groups[g].member).push_back(t.number(i, index[k][g], what).value_or(std::nan("")));
    rows.push_back(r);
  }
  return current(rows, max_step);
}

std::optional<Event> parseEventLine(const std::string& file, const std::string& line,
                                   int64_t line_no) {
  if (line.empty()) return std::nullopt;
  try {
    const nlohmann::json j = parseJson(line);
    const auto kind = eventKindFromString(j.at("kind").get<std::string>());
    if (!kind) return std::nullopt;
    Event e;
    e.step = j.at("step").get<int64_t>();
    e.epoch = j.at("epoch").get<int64_t>();
    e.kind = *kind;
    e.message = j.at("message").get<std::string>();
    if (j.contains("value")) e.value = jsonDouble(j.at("value"));
    e.what = j.value("what", "");
    e.file = j.value("file", "");
    if (j.contains("values"))
      for (const nlohmann::json& v : j.at("values"))
        e.values.push_back(jsonDouble(v).value_or(std::nan("")));  // null: not measured
    return e;
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCode::Io, file,
                file + ", line " + std::to_string(line_no) + ": not an event (" + e.what() +
                    "): " + line);
  }
}

namespace {

/// The kind of an events.jsonl line as TrainScope writes it (`"kind":"..."`, no spaces), read
/// without parsing the line; nullopt when it is not written that way or the kind is unknown.
std::optional<EventKind> writtenKind(const std::string& line) {
  static const std::string key = "\"kind\":\"";
  const size_t at = line.find(key);
  if (at == std::string::npos) return std::nullopt;
  const size_t start = at + key.size(), end = line.find('"', start);
  if (end == std::string::npos) return std::nullopt;
  return eventKindFromString(line.substr(start, end - start));
}

}  // namespace

std::vector<Event> readEventsJsonl(const std::filesystem::path& file,
                                   const std::function<bool(EventKind)>& wanted) {
  const std::string name = file.string();
  const std::vector<std::string> lines = completeLines(file);
  std::vector<Event> events;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (wanted) {
      const auto kind = writtenKind(lines[i]);
      if (kind && !wanted(*kind)) continue;
    }
    if (auto e = parseEventLine(name, lines[i], static_cast<int64_t>(i) + 1))
      if (!wanted || wanted(e->kind)) events.push_back(std::move(*e));
  }
  return events;
}

RunSummary readSummaryJson(const std::filesystem::path& file) {
  const std::string name = file.string();
  const nlohmann::json j = parseJsonFile(file);
  try {
    if (!j.is_object()) (void)j.at("stop_reason");  // throws: not an object
    RunSummary s;
    readJsonFields(summaryJsonFields(), j, s);
    return s;
  } catch (const std::domain_error& e) {  // an unknown stop_reason
    throw Error(ErrorCode::Io, name, name + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCode::Io, name, name + ": not a summary.json (" + e.what() + ")");
  }
}

RunRecord readRun(const std::filesystem::path& dir) {
  RunRecord run;
  run.dir = std::filesystem::absolute(dir);
  const std::string name = run.dir.string();
  if (!std::filesystem::exists(run.dir)) throw Error(ErrorCode::Io, name, name + " does not exist");
  if (!std::filesystem::is_directory(run.dir))
    throw Error(ErrorCode::Io, name, name + " is not a run directory (it is not a folder)");
  for (const char* file : {"config.json", "run.json"})
    if (!std::filesystem::is_regular_file(run.dir / file))
      throw Error(ErrorCode::Io, name, name + " is not a run directory (it has no " + file + ")");
  run.config = parseJsonFile(run.dir / "config.json");
  const nlohmann::json info = parseJsonFile(run.dir / "run.json");
  try {
    run.info = runInfoFromJson(info, run.config);
  } catch (const nlohmann::json::exception& e) {
    const std::string file = (run.dir / "run.json").string();
    throw Error(ErrorCode::Io, file, file + ": not a run.json (" + e.what() + ")");
  }
  run.info.run_dir = name;
  const auto has = [&](const char* file) {
    return std::filesystem::is_regular_file(run.dir / file);
  };
  if (has("summary.json")) run.summary = readSummaryJson(run.dir / "summary.json");
  const int64_t last = run.summary ? run.summary->global_step : std::numeric_limits<int64_t>::max();
  if (has("metrics.csv")) run.epochs = readMetricsCsv(run.dir / "metrics.csv", last);
  if (has("steps.csv")) run.steps = readStepsCsv(run.dir / "steps.csv", last);
  if (has("layers.csv")) {
    run.layers = readLayersCsv(run.dir / "layers.csv", last);
    size_t k = 0;  // both in step order
    for (LayerStatsRecord& r : run.layers) {
      while (k < run.steps.size() && run.steps[k].step < r.step) ++k;
      if (k < run.steps.size() && run.steps[k].step == r.step) r.epoch = run.steps[k].epoch;
    }
  }
  if (has("events.jsonl")) run.events = readEventsJsonl(run.dir / "events.jsonl");
  return run;
}

int64_t stepsPerEpoch(const RunRecord& run, const TrainConfig& config) {
  if (!run.epochs.empty() && run.epochs.front().epoch > 0)
    return run.epochs.front().step / run.epochs.front().epoch;
  return optimizerStepsPerEpoch(
      batchesPerEpoch(run.info.data.n_train, config.training.batch_size, run.info.world_size,
                      config.training.drop_last),
      config.training.grad_accum_steps);
}

bool beingWritten(const RunRecord& run) {
  return !run.summary && RunDirLock::holder(run.dir).has_value();
}

RunSummary interruptedSummary(const RunRecord& run) {
  RunSummary s;
  s.stop_reason = StopReason::Interrupted;
  s.epochs_completed = run.epochs.empty() ? 0 : run.epochs.back().epoch;
  s.global_step = run.steps.empty() ? 0 : run.steps.back().step;
  s.seed = run.info.seed;
  if (!run.epochs.empty()) s.final_metrics = run.epochs.back();
  return s;
}

RunChanges readRunChanges(const std::filesystem::path& dir) {
  RunChanges out;
  try {
    std::ifstream in(dir / "run.json");
    const nlohmann::json run = parseJson(in);
    if (run.contains("resumed_from") && run["resumed_from"].is_object()) {
      out.resumed_from = run["resumed_from"].value("file", "a checkpoint");
      out.resumed_step = run["resumed_from"].value("step", int64_t{0});
    }
  } catch (const std::exception&) {
  }
  try {
    std::error_code ec;
    if (std::filesystem::exists(dir / "events.jsonl", ec))
      for (const Event& e : readEventsJsonl(dir / "events.jsonl", [](EventKind k) {
             return k == EventKind::ConfigChanged || k == EventKind::RolledBack;
           }))
        out.changes.push_back("step " + std::to_string(e.step) + ": " + e.message);
  } catch (const std::exception&) {
  }
  return out;
}

}  // namespace trainscope

#include "core/run/run_reader.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/io/number_format.h"
#include "core/run/run_description.h"

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

/// A JSON number or one of the strings "nan" / "inf" / "-inf" (jsonNumber's form); null: none.
std::optional<double> jsonDouble(const nlohmann::json& j) {
  if (j.is_null()) return std::nullopt;
  if (j.is_string())
    if (auto v = parseNumber(j.get<std::string>())) return v;
  return j.get<double>();  // any other string throws type_error
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

std::vector<StepRecord> stepRows(const Table& t) {
  const int c_step = t.column("step", true), c_epoch = t.column("epoch", true),
            c_batch = t.column("batch", true), c_loss = t.column("loss", true),
            c_norm = t.column("grad_norm", true), c_clipped = t.column("grad_norm_clipped", false),
            c_lr = t.column("lr", false), c_scale = t.column("loss_scale", false);
  const char* what = "steps.csv";
  std::vector<StepRecord> rows;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    auto required = [&](int c) { return t.required(i, c, what); };
    StepRecord r;
    r.step = t.integer(i, c_step, what);
    r.epoch = t.integer(i, c_epoch, what);
    r.batch = t.integer(i, c_batch, what);
    r.loss = required(c_loss);
    r.grad_norm = required(c_norm);
    r.grad_norm_clipped = c_clipped >= 0 ? required(c_clipped) : r.grad_norm;
    r.lr = c_lr >= 0 ? required(c_lr) : 0;
    r.loss_scale = t.number(i, c_scale, what);
    r.applied = std::isfinite(r.loss) && std::isfinite(r.grad_norm);
    rows.push_back(r);
  }
  return rows;
}

std::vector<EpochRecord> epochRows(const Table& t);

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

namespace {

std::vector<EpochRecord> epochRows(const Table& t) {
  const int c_epoch = t.column("epoch", true), c_step = t.column("step", true),
            c_train = t.column("train_loss", true), c_val = t.column("val_loss", true),
            c_acc = t.column("val_accuracy", false), c_lr = t.column("lr", false),
            c_secs = t.column("epoch_seconds", false),
            c_rate = t.column("samples_per_second", false),
            c_train_acc = t.column("train_accuracy", false), c_r2 = t.column("val_r2", false),
            c_mae = t.column("val_mae", false), c_rmse = t.column("val_rmse", false);
  const char* what = "metrics.csv";
  std::vector<EpochRecord> rows;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    auto required = [&](int c) { return t.required(i, c, what); };
    EpochRecord r;
    r.epoch = t.integer(i, c_epoch, what);
    r.step = t.integer(i, c_step, what);
    r.train_loss = required(c_train);
    r.val_loss = required(c_val);
    r.val_accuracy = t.number(i, c_acc, what);
    r.lr = t.number(i, c_lr, what).value_or(0);
    r.epoch_seconds = t.number(i, c_secs, what).value_or(0);
    r.samples_per_second = t.number(i, c_rate, what).value_or(0);
    r.train_accuracy = t.number(i, c_train_acc, what);
    r.val_r2 = t.number(i, c_r2, what);
    r.val_mae = t.number(i, c_mae, what);
    r.val_rmse = t.number(i, c_rmse, what);
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

std::vector<EpochRecord> readMetricsCsv(const std::filesystem::path& file, int64_t max_step) {
  return current(epochRows(readTable(file)), max_step);
}

std::vector<LayerStatsRecord> readLayersCsv(const std::filesystem::path& file, int64_t max_step) {
  const Table t = readTable(file);
  const int c_step = t.column("step", true);
  const std::string norm_suffix = ".grad_norm";
  std::vector<std::string> names;
  std::vector<int> c_norm, c_ratio;
  for (const std::string& h : t.header)
    if (h.size() > norm_suffix.size() &&
        h.compare(h.size() - norm_suffix.size(), norm_suffix.size(), norm_suffix) == 0) {
      const std::string name = h.substr(0, h.size() - norm_suffix.size());
      names.push_back(name);
      c_norm.push_back(t.column(h, true));
      c_ratio.push_back(t.column(name + ".update_ratio", true));
    }
  const char* what = "layers.csv";
  std::vector<LayerStatsRecord> rows;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    LayerStatsRecord r;
    r.step = t.integer(i, c_step, what);
    r.names = names;
    for (size_t k = 0; k < names.size(); ++k) {
      r.grad_norm.push_back(t.number(i, c_norm[k], what).value_or(std::nan("")));
      r.update_ratio.push_back(t.number(i, c_ratio[k], what).value_or(std::nan("")));
    }
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
    RunSummary s;
    const auto reason = stopReasonFromString(j.at("stop_reason").get<std::string>());
    if (!reason)
      throw Error(ErrorCode::Io, name,
                  name + ": unknown stop_reason " + j.at("stop_reason").dump());
    s.stop_reason = *reason;
    s.epochs_completed = j.at("epochs_completed").get<int64_t>();
    s.global_step = j.at("global_step").get<int64_t>();
    if (j.contains("best_epoch") && !j.at("best_epoch").is_null())
      s.best_epoch = j.at("best_epoch").get<int64_t>();
    if (j.contains("best_val_loss")) s.best_val_loss = jsonDouble(j.at("best_val_loss"));
    if (j.contains("final_metrics") && j.at("final_metrics").is_object()) {
      const nlohmann::json& m = j.at("final_metrics");
      EpochRecord r;
      r.epoch = m.at("epoch").get<int64_t>();
      r.step = m.at("step").get<int64_t>();
      r.train_loss = jsonDouble(m.at("train_loss")).value_or(0);
      r.val_loss = jsonDouble(m.at("val_loss")).value_or(0);
      if (m.contains("val_accuracy")) r.val_accuracy = jsonDouble(m.at("val_accuracy"));
      if (m.contains("lr")) r.lr = jsonDouble(m.at("lr")).value_or(0);
      if (m.contains("epoch_seconds"))
        r.epoch_seconds = jsonDouble(m.at("epoch_seconds")).value_or(0);
      if (m.contains("samples_per_second"))
        r.samples_per_second = jsonDouble(m.at("samples_per_second")).value_or(0);
      if (m.contains("train_accuracy")) r.train_accuracy = jsonDouble(m.at("train_accuracy"));
      for (auto [key, field] : {std::pair{"val_r2", &r.val_r2}, std::pair{"val_mae", &r.val_mae},
                                std::pair{"val_rmse", &r.val_rmse}})
        if (m.contains(key)) *field = jsonDouble(m.at(key));
      s.final_metrics = r;
    }
    if (j.contains("test_loss")) s.test_loss = jsonDouble(j.at("test_loss"));
    if (j.contains("test_accuracy")) s.test_accuracy = jsonDouble(j.at("test_accuracy"));
    s.test_weights = j.value("test_weights", "");
    if (j.contains("test_epoch") && j.at("test_epoch").is_number_integer())
      s.test_epoch = j.at("test_epoch").get<int64_t>();
    if (j.contains("last_test_loss")) s.last_test_loss = jsonDouble(j.at("last_test_loss"));
    if (j.contains("last_test_accuracy"))
      s.last_test_accuracy = jsonDouble(j.at("last_test_accuracy"));
    if (j.contains("wall_seconds")) s.wall_seconds = jsonDouble(j.at("wall_seconds")).value_or(0);
    if (j.contains("seed")) s.seed = j.at("seed").get<int64_t>();
    s.error = j.value("error", "");
    s.skipped_steps = j.value("skipped_steps", int64_t{0});
    s.checkpoints_failed = j.value("checkpoints_failed", int64_t{0});
    s.checkpoint_error = j.value("checkpoint_error", "");
    s.final_state_saved = j.value("final_state_saved", true);
    if (j.contains("diagnosis") && j.at("diagnosis").is_object()) {
      const nlohmann::json& d = j.at("diagnosis");
      Diagnosis dx;
      dx.kind = d.at("kind").get<std::string>();
      dx.summary = d.value("summary", "");
      dx.epoch = s.epochs_completed;
      // Texts, with their codes and numbers where the file has them (`<key>_findings`, written
      // since 0.1; older files: the English text only).
      auto findings = [&](const std::string& key) {
        std::vector<Finding> out;
        if (d.contains(key))
          for (const nlohmann::json& text : d.at(key))
            out.push_back({"", {}, "", text.get<std::string>()});
        const std::string detail_key = key + "_findings";
        if (d.contains(detail_key) && d.at(detail_key).size() == out.size())
          for (std::size_t i = 0; i < out.size(); ++i) {
            const nlohmann::json& f = d.at(detail_key).at(i);
            out[i].code = f.value("code", "");
            out[i].name = f.value("name", "");
            for (const nlohmann::json& v : f.value("values", nlohmann::json::array()))
              out[i].values.push_back(v.is_number() ? v.get<double>() : std::nan(""));
          }
        return out;
      };
      dx.evidence = findings("evidence");
      dx.checks = findings("checks");
      s.diagnosis = dx;
    }
    return s;
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

}  // namespace trainscope

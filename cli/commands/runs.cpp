// `trainscope-cli runs` and `compare`: the experiment log (core/run/run_table.h).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "core/errors.h"
#include "core/io/csv_cell.h"
#include "core/io/json_parse.h"
#include "core/system/number_format.h"
#include "core/run/run_table.h"

namespace trainscope::cli {
namespace {

using json = nlohmann::json;

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(start, comma - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) out.push_back(item);
    start = comma + 1;
  }
  return out;
}

/// The columns asked for: the default ones, "all", or a comma-separated list of keys.
std::vector<std::string> chosenColumns(const std::string& spec) {
  std::vector<std::string> keys;
  if (spec.empty() || spec == "all") {
    for (const auto& c : runColumns())
      if (spec == "all" || c.shown) keys.push_back(c.key);
    return keys;
  }
  for (const auto& k : splitList(spec)) {
    if (!isRunColumnOrConfigKey(k)) {
      std::string names;
      for (const auto& c : runColumns()) names += (names.empty() ? "" : ", ") + c.key;
      throw Error(ErrorCode::Config, "--columns",
                  "--columns: no column '" + k + "', and it is not a config key (see "
                  "`trainscope-cli config --keys`); the columns: " + names);
    }
    keys.push_back(k);  // a config key: filled in from each run's config.json
  }
  return keys;
}

std::string headerOf(const std::string& key) {
  for (const auto& c : runColumns())
    if (c.key == key) return c.header;
  return key;
}

/// A cell's text for CSV: numbers exact (formatNumber), empty for unknown.
std::string exactCell(const RunRow& row, const std::string& key) {
  const json& v = row.values.at(key);
  if (v.is_null()) return "";
  if (v.is_number_float()) return formatNumber(v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

}  // namespace

void printTable(const std::vector<std::string>& headers,
                const std::vector<std::vector<std::string>>& cells, size_t max_width) {
  std::vector<size_t> width(headers.size());
  auto cut = [&](const std::string& s) {
    return s.size() > max_width ? s.substr(0, max_width - 3) + "..." : s;
  };
  const size_t last = headers.empty() ? 0 : headers.size() - 1;  // the last column is whole
  for (size_t c = 0; c < headers.size(); ++c) width[c] = headers[c].size();
  for (const auto& row : cells)
    for (size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], c == last ? row[c].size() : cut(row[c]).size());
  auto line = [&](const std::vector<std::string>& row) {
    std::string out;
    for (size_t c = 0; c < row.size(); ++c) {
      std::string cell = c == last ? row[c] : cut(row[c]);
      if (c + 1 < row.size()) cell.resize(width[c], ' ');
      out += (c ? "  " : "") + cell;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    std::printf("%s\n", out.c_str());
  };
  line(headers);
  for (const auto& row : cells) line(row);
}


RunsCommand::RunsCommand(CLI::App& app)
    : sub_(app.add_subcommand("runs", "The experiment log: one row per run folder")) {
  nonEmptyPath(sub_->add_option("DIR", dirs_,
                                "Folders of runs (default: runs); a run folder itself is one row"));
  sub_->add_option("--sort", sort_, "Sort by this column (e.g. best_val_loss, started, lr)");
  sub_->add_flag("--desc", desc_, "Sort descending (alone: newest first)");
  sub_->add_option("--filter", filters_,
                   "Only rows containing TEXT in any column, or KEY=TEXT in column or config key "
                   "KEY (e.g. status=diverged, optimizer.name=sgd); repeatable: all must match");
  sub_->add_option("--columns", columns_,
                   "Columns to show, comma-separated keys, or 'all' (see --help-columns); any "
                   "config key is a column too (e.g. name,optimizer.weight_decay)");
  sub_->add_flag_callback(
      "--help-columns",
      [] {
        for (const auto& c : runColumns())
          std::printf("%-20s %s%s\n", c.key.c_str(), c.description.c_str(),
                      c.shown ? "" : " (not shown by default)");
        throw CLI::Success();
      },
      "List the columns and exit");
  sub_->add_option("--group-by", group_by_,
                   "One line per group of rows with equal values of these columns or config keys "
                   "(comma-separated, e.g. optimizer.lr,model.hidden: a sweep's configurations "
                   "over seeds): how many rows, and the mean +- standard deviation (n - 1) of the "
                   "best/final metrics, or of the --columns given");
  auto* j = sub_->add_flag("--json", json_, "One JSON array of row objects (every column)");
  auto* c = sub_->add_flag("--csv", csv_, "CSV with a header row of column keys");
  j->excludes(c);
}

bool RunsCommand::parsed() const { return sub_->parsed(); }

int RunsCommand::printGroups(std::vector<RunRow>& rows) const {
  if (csv_) throw Error(ErrorCode::Config, "--group-by", "--group-by prints a table or --json, not --csv");
  const std::vector<std::string> by = splitList(group_by_);
  if (by.empty()) throw Error(ErrorCode::Config, "--group-by", "--group-by names no column");
  addConfigColumns(rows, by, "--group-by");
  std::vector<std::string> metrics =
      columns_.empty() ? std::vector<std::string>{"best_val_loss", "best_val_accuracy",
                                                  "final_val_loss", "final_val_accuracy",
                                                  "test_loss", "test_accuracy"}
                       : chosenColumns(columns_);
  addConfigColumns(rows, metrics, "--columns");
  struct Group {
    json key = json::array();
    std::vector<const RunRow*> rows;
  };
  std::vector<Group> groups;  // in the order first met (rows: by start time)
  for (const RunRow& r : rows) {
    json key = json::array();
    for (const auto& k : by) key.push_back(r.values.at(k));
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.key == key; });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{key, {}});
    it->rows.push_back(&r);
  }
  // mean and sample standard deviation of a column's numbers in a group (null: none)
  auto stats = [](const Group& g, const std::string& k) {
    std::vector<double> v;
    for (const RunRow* r : g.rows)
      if (r->values.at(k).is_number()) v.push_back(r->values.at(k).get<double>());
    json out = {{"n", v.size()}, {"mean", nullptr}, {"std", nullptr}};
    if (v.empty()) return out;
    double sum = 0;
    for (double x : v) sum += x;
    const double mean = sum / v.size();
    out["mean"] = mean;
    if (v.size() > 1) {
      double sq = 0;
      for (double x : v) sq += (x - mean) * (x - mean);
      out["std"] = std::sqrt(sq / (v.size() - 1));
    }
    return out;
  };
  // numbers only, and only columns some group has
  metrics.erase(std::remove_if(metrics.begin(), metrics.end(),
                               [&](const std::string& k) {
                                 return std::none_of(groups.begin(), groups.end(),
                                                     [&](const Group& g) {
                                                       return !stats(g, k)["mean"].is_null();
                                                     });
                               }),
                metrics.end());
  if (json_) {
    json out = json::array();
    for (const Group& g : groups) {
      json o = {{"group", json::object()}, {"runs", g.rows.size()}, {"metrics", json::object()}};
      for (size_t i = 0; i < by.size(); ++i) o["group"][by[i]] = g.key[i];
      for (const auto& k : metrics) o["metrics"][k] = stats(g, k);
      out.push_back(o);
    }
    std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
  }
  std::vector<std::string> headers = by;
  headers.push_back("runs");
  for (const auto& k : metrics) headers.push_back(headerOf(k) + " (mean +- std)");
  std::vector<std::vector<std::string>> cells;
  for (const Group& g : groups) {
    std::vector<std::string> line;
    for (size_t i = 0; i < by.size(); ++i)
      line.push_back(g.key[i].is_null() ? "-"
                     : g.key[i].is_string() ? g.key[i].get<std::string>()
                                            : g.key[i].dump());
    line.push_back(std::to_string(g.rows.size()));
    for (const auto& k : metrics) {
      const json s = stats(g, k);
      line.push_back(s["mean"].is_null() ? "-"
                     : s["std"].is_null()
                         ? formatHuman(s["mean"].get<double>())
                         : formatHuman(s["mean"].get<double>()) + " +- " +
                               formatHuman(s["std"].get<double>()));
    }
    cells.push_back(std::move(line));
  }
  if (cells.empty()) {
    std::printf("no runs to group\n");
    return kExitOk;
  }
  printTable(headers, cells);
  return kExitOk;
}

int RunsCommand::run() const {
  std::vector<std::filesystem::path> folders;
  for (const auto& d : dirs_) folders.emplace_back(d);
  if (folders.empty()) {
    folders.emplace_back("runs");
    std::error_code ec;
    if (!std::filesystem::exists(folders.back(), ec))
      throw Error(ErrorCode::Config, "runs",
                  "./runs does not exist: it is where train writes runs by default; name the "
                  "folder of your runs (trainscope-cli runs DIR)");
  }
  std::vector<RunRow> rows = listRuns(folders);
  const size_t listed = rows.size();
  for (const auto& f : filters_) {
    std::vector<RunRow> kept;
    for (auto& r : rows)
      if (runMatches(r, f)) kept.push_back(std::move(r));
    rows = std::move(kept);
  }
  if (!group_by_.empty()) return printGroups(rows);
  if (!sort_.empty()) sortRuns(rows, sort_, desc_);
  if (sort_.empty() && desc_) std::reverse(rows.begin(), rows.end());  // newest first
  std::vector<std::string> keys = chosenColumns(json_ && columns_.empty() ? "all" : columns_);
  if (columns_.empty()) {
    // Trials of a sweep: the sweep and the values it varies, after the status.
    std::vector<std::string> varied;
    for (const RunRow& r : rows)
      if (!r.values["sweep"].is_null())
        if (const auto sweep = sweepOfRun(r.dir))
          for (const std::string& k : sweep->keys)
            if (std::find(varied.begin(), varied.end(), k) == varied.end()) varied.push_back(k);
    if (!varied.empty()) {
      varied.insert(varied.begin(), "sweep");
      keys.erase(std::remove_if(keys.begin(), keys.end(),
                                [&](const std::string& k) {
                                  return std::find(varied.begin(), varied.end(), k) !=
                                         varied.end();
                                }),
                 keys.end());
      const auto status = std::find(keys.begin(), keys.end(), "status");
      keys.insert(status == keys.end() ? keys.end() : status + 1, varied.begin(), varied.end());
    }
  }
  addConfigColumns(rows, keys, "--columns");
  if (json_) {
    json out = json::array();
    for (const auto& r : rows) {
      json o = json::object();
      for (const auto& k : keys) o[k] = r.values.at(k);
      out.push_back(o);
    }
    std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
  }
  if (csv_) {
    std::string line;
    for (const auto& k : keys) line += (line.empty() ? "" : ",") + k;
    std::printf("%s\n", line.c_str());
    for (const auto& r : rows) {
      line.clear();
      for (size_t i = 0; i < keys.size(); ++i) {  // text escaped against formula injection
        const std::string cell = exactCell(r, keys[i]);
        line += (i ? "," : "") + (r.values.at(keys[i]).is_string() ? csvTextCell(cell) : csvCell(cell));
      }
      std::printf("%s\n", line.c_str());
    }
    return kExitOk;
  }
  if (rows.empty()) {
    if (listed > 0)
      std::printf("no run matches the filters (%zu folders listed)\n", listed);
    else {
      std::printf("no runs in");
      for (const auto& f : folders) std::printf(" %s", f.string().c_str());
      std::printf("\n");
    }
    return kExitOk;
  }
  // The default columns on a terminal: those with a value in some row (notes, test metrics and
  // reasons only when a run has them). --columns shows exactly what it names.
  std::vector<std::string> shown;
  for (const auto& k : keys)
    if (!columns_.empty() ||
        std::any_of(rows.begin(), rows.end(), [&](const RunRow& r) { return runCell(r, k) != "-"; }))
      shown.push_back(k);
  std::vector<std::string> headers;
  for (const auto& k : shown) headers.push_back(headerOf(k));
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows) {
    std::vector<std::string> line;
    for (const auto& k : shown) line.push_back(runCell(r, k));
    cells.push_back(std::move(line));
  }
  printTable(headers, cells);
  return kExitOk;
}

CompareCommand::CompareCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "compare", "Config differences and best/final metrics of runs side by side")) {
  nonEmptyPath(sub_->add_option("RUN", runs_, "Run folders (2 or more); the first is the baseline")
                   ->required()
                   ->expected(2, 1000));
  sub_->add_flag("--json", json_, "One JSON object: runs, differences, metrics");
}

bool CompareCommand::parsed() const { return sub_->parsed(); }

int CompareCommand::run() const {
  std::vector<RunRow> rows;
  for (const auto& r : runs_) {
    std::error_code ec;
    if (!std::filesystem::is_directory(r, ec))
      throw Error(ErrorCode::Config, r,
                  r + (std::filesystem::exists(r, ec) ? " is not a directory" : " does not exist"));
    RunRow row = readRunRow(r);
    if (row.status == "not a run")
      throw Error(ErrorCode::Config, r, r + " is not a run folder: " + row.reason);
    rows.push_back(std::move(row));
  }
  const auto diffs = configDifferences(rows);
  static const char* kMetrics[] = {"best_val_loss",     "best_epoch",         "final_val_loss",
                                   "best_val_accuracy", "final_val_accuracy", "best_val_r2",
                                   "final_val_r2",      "final_val_mae",      "final_val_rmse",
                                   "test_loss",         "test_accuracy",      "epochs_done",
                                   "duration_s"};
  auto percent = [&](const std::string& key, size_t i) -> std::optional<double> {
    const json& base = rows[0].values.at(key);
    const json& v = rows[i].values.at(key);
    if (!base.is_number() || !v.is_number() || base.get<double>() == 0) return std::nullopt;
    return (v.get<double>() - base.get<double>()) / std::fabs(base.get<double>()) * 100.0;
  };
  if (json_) {
    json out;
    out["runs"] = json::array();
    for (const auto& r : rows) out["runs"].push_back({{"dir", r.dir.string()}, {"status", r.status}});
    out["differences"] = json::object();
    for (const auto& d : diffs) {  // each run's value as JSON (null: the run lacks the key)
      json values = json::array();
      for (const auto& v : d.values)
        values.push_back(v == "-" ? json(nullptr) : parseJson(v, false));
      out["differences"][d.key] = values;
    }
    out["metrics"] = json::object();
    for (const char* key : kMetrics) {
      json values = json::array(), pct = json::array();
      for (size_t i = 0; i < rows.size(); ++i) {
        values.push_back(rows[i].values.at(key));
        const auto p = percent(key, i);
        pct.push_back(p ? json(*p) : json(nullptr));
      }
      out["metrics"][key] = {{"values", values}, {"percent_vs_first", pct}};
    }
    std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
  }
  std::vector<std::string> headers{""};
  for (const auto& r : rows) headers.push_back(r.values.at("name").get<std::string>());
  std::vector<std::vector<std::string>> cells;
  cells.push_back({"status"});
  for (const auto& r : rows) cells.back().push_back(r.status);
  for (const auto& d : diffs) {
    std::vector<std::string> line{d.key};
    line.insert(line.end(), d.values.begin(), d.values.end());
    cells.push_back(std::move(line));
  }
  if (diffs.empty()) cells.push_back({"(config)", "the configs are the same (but for the name)"});
  for (const char* key : kMetrics) {
    std::vector<std::string> line{key};
    for (size_t i = 0; i < rows.size(); ++i) {
      std::string cell = runCell(rows[i], key);
      const bool counted = std::string(key) == "best_epoch" || std::string(key) == "epochs_done";
      if (i > 0 && !counted)  // a % of an epoch number means nothing
        if (const auto p = percent(key, i))
          cell += " (" + std::string(*p >= 0 ? "+" : "") + formatFixed(*p, 1) + "%)";
      line.push_back(cell);
    }
    cells.push_back(std::move(line));
  }
  std::printf("baseline: %s\n", rows[0].dir.string().c_str());
  printTable(headers, cells, 60);
  return kExitOk;
}

}  // namespace trainscope::cli

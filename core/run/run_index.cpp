// The folder of runs (see run_table.h): listing the run folders in it, a sweep's folder standing
// for its trials, and the index (.trainscope-runs-index.json) that keeps unchanged rows. Split
// from run_table.cpp (reading one row).
#include <algorithm>
#include <set>

#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/io/json_parse.h"
#include "core/io/file_read.h"
#include "core/io/utf8.h"
#include "core/run/run_dir.h"
#include "core/run/run_lock.h"
#include "core/run/run_table.h"

namespace trainscope {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr const char* kIndexMagic = "trainscope_runs_index";
constexpr int kIndexVersion = 3;  // 2: regression metrics (best_val_r2, final_val_*); 3: sweep

/// What a run folder's row depends on: size and modification time of each file it reads.
std::string signatureOf(const fs::path& dir) {
  std::string sig;
  for (const char* f : {"config.json", "run.json", "summary.json", "metrics.csv", "events.jsonl",
                        kRunNotesFile}) {
    std::error_code ec;
    const auto size = fs::file_size(dir / f, ec);
    if (ec) {
      sig += "-;";
      continue;
    }
    const auto time = fs::last_write_time(dir / f, ec).time_since_epoch().count();
    sig += std::to_string(size) + ":" + std::to_string(time) + ";";
  }
  return sig;
}

json rowToJson(const RunRow& r, const std::string& sig) {
  return {{"sig", sig}, {"status", r.status}, {"reason", r.reason}, {"values", r.values},
          {"config", r.config}};
}

/// The rows of `folder`'s run folders, from the index where a folder's files have not changed
/// since (and no process writes it now), else read again; the index is rewritten when any row
/// was read. The run folders stay the source of truth: a missing, corrupt or foreign index is
/// rebuilt, an unwritable folder just goes without one.
std::vector<RunRow> indexedRows(const fs::path& folder, const std::vector<fs::path>& dirs) {
  const fs::path index_file = folder / kRunsIndexFile;
  json index;
  std::error_code ec;
  // Ours: no file yet, our index (any version), or a file that does not parse (a torn copy of
  // it). A JSON file without our key belongs to someone else and is neither read nor written.
  bool ours = true;
  if (fs::exists(index_file, ec)) {
    try {
      index = parseJson(readRegularFile(index_file), false);
    } catch (const Error&) {
      ours = false;  // a FIFO or folder of that name is not ours: neither read nor written
      index = json(json::value_t::discarded);
    }
    if (!index.is_discarded())
      ours = index.is_object() && index.contains(kIndexMagic);
    if (!index.is_object() || index.value(kIndexMagic, 0) != kIndexVersion) index = json::object();
  }
  json& cached = index["runs"];
  if (!cached.is_object()) cached = json::object();
  json fresh = json::object();
  bool changed = false;
  std::vector<RunRow> rows;
  for (const auto& d : dirs) {
    const std::string name = d.filename().string();
    const std::string sig = signatureOf(d);
    const auto hit = cached.find(name);
    const bool live = RunDirLock::holder(d).has_value();
    if (!live && hit != cached.end() && hit->is_object() && hit->value("sig", "") == sig) {
      try {
        RunRow row;
        row.dir = fs::absolute(d, ec).lexically_normal();
        row.status = hit->at("status").get<std::string>();
        row.reason = hit->at("reason").get<std::string>();
        row.values = hit->at("values");
        row.values["dir"] = toValidUtf8(row.dir.string());  // the folder may have moved
        row.config = hit->at("config");
        fresh[name] = *hit;
        rows.push_back(std::move(row));
        continue;
      } catch (const json::exception&) {
        // an entry this build cannot read: the folder is read again below
      }
    }
    RunRow row = readRunRow(d);
    // (a name that is not UTF-8 cannot be a key of the JSON index: read again each time)
    if (row.status != "running" && isValidUtf8(name)) fresh[name] = rowToJson(row, sig);
    changed = true;
    rows.push_back(std::move(row));
  }
  if (fresh.size() != cached.size()) changed = true;  // folders removed
  if (changed && ours) {
    try {
      writeFileAtomic(index_file,
                      json{{kIndexMagic, kIndexVersion}, {"runs", fresh}}.dump() + "\n");
    } catch (const Error&) {
      // a read-only runs folder: the table works without its index
    }
  }
  return rows;
}

}  // namespace

std::vector<RunRow> listRuns(const std::vector<fs::path>& folders) {
  std::vector<RunRow> rows;
  std::set<fs::path> seen;
  for (const auto& folder : folders) {
    std::error_code ec;
    if (!fs::exists(folder, ec))
      throw Error(ErrorCode::Config, folder.string(), folder.string() + " does not exist");
    if (!fs::is_directory(folder, ec))
      throw Error(ErrorCode::Config, folder.string(), folder.string() + " is not a directory");
    if (fs::exists(folder / "run.json", ec) || fs::exists(folder / "config.json", ec)) {
      RunRow row = readRunRow(folder);
      if (seen.insert(fs::weakly_canonical(row.dir, ec)).second) rows.push_back(std::move(row));
      continue;
    }
    // The folders inside `folder`; a sweep's folder (its sweep.json) stands for its trials.
    std::vector<std::pair<fs::path, std::vector<fs::path>>> groups = {{folder, {}}};
    std::vector<fs::path> sweeps;
    auto list = [&](const fs::path& in, std::vector<fs::path>& dirs, bool find_sweeps) {
      std::error_code e1;
      const bool in_sweep = fs::is_regular_file(in / kSweepRecordFile, e1);
      for (fs::directory_iterator it(in, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.' || name == "trash") continue;
        if (in_sweep && name == kSweepSlurmFolder) continue;  // the slurm executor's scripts
        if (!it->is_directory(ec)) continue;
        std::error_code e2;
        if (find_sweeps && fs::is_regular_file(it->path() / kSweepRecordFile, e2))
          sweeps.push_back(it->path());
        else
          dirs.push_back(it->path());
      }
      if (ec)
        throw Error(ErrorCode::Io, in.string(), "cannot list " + in.string() + ": " + ec.message());
    };
    list(folder, groups[0].second, /*find_sweeps=*/true);
    for (const fs::path& sweep : sweeps) {
      groups.push_back({sweep, {}});
      list(sweep, groups.back().second, /*find_sweeps=*/false);
    }
    for (auto& [in, dirs] : groups) {
      std::sort(dirs.begin(), dirs.end());
      for (auto& row : indexedRows(in, dirs))  // a symlink to a run listed once
        if (seen.insert(fs::weakly_canonical(row.dir, ec)).second) rows.push_back(std::move(row));
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const RunRow& a, const RunRow& b) {
    const json& x = a.values["started"];
    const json& y = b.values["started"];
    if (x.is_string() != y.is_string()) return x.is_string();  // unknown start last (as --sort)
    return x.is_string() && x.get<std::string>() < y.get<std::string>();
  });
  return rows;
}

void writeRunNotes(const fs::path& dir, const std::string& notes,
                   const std::vector<std::string>& tags) {
  const std::string why = whyNotRunDirectory(dir);
  if (!why.empty()) throw Error(ErrorCode::Config, dir.string(), "cannot write notes: " + why);
  json j = {{"notes", notes}, {"tags", json::array()}};
  for (std::string t : tags) {
    t.erase(0, t.find_first_not_of(" \t"));
    t.erase(t.find_last_not_of(" \t") + 1);
    if (!t.empty()) j["tags"].push_back(t);
  }
  writeFileAtomic(dir / kRunNotesFile, j.dump(2) + "\n");
}


}  // namespace trainscope

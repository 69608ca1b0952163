#pragma once
/// The experiment log: one row per run folder, the columns of a lab notebook's
/// table of experiments (data, model, optimizer, lr, batch size, seed, epochs, best and final
/// validation metrics, anomalies, ...), read from the folder's files without writing anything.
/// Used by `trainscope-cli runs` and `compare` and the dashboard's Runs view. Torch-free,
/// Qt-free. A folder with missing, truncated or corrupt files gives a row saying what it is
/// (status "crashed", "incomplete" or "not a run" and the reason); nothing here throws for it.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

/// One column of the table.
struct RunColumn {
  std::string key;          ///< stable name (--sort, --columns, JSON keys), e.g. "best_val_loss"
  std::string header;       ///< short English header for the text table, e.g. "best val loss"
  std::string description;  ///< one line: what the value is
  bool shown = true;        ///< in the default selection of columns
};

/// The columns, in display order: name, started, status, data, model, params, optimizer, lr,
/// batch_size, seed, epochs (done/planned), best_val_loss, best_epoch, final_val_loss,
/// best_val_accuracy, final_val_accuracy, test_loss, test_accuracy, anomalies, amp, threads,
/// world_size, duration_s, trainscope_version, torch_version, notes, tags, reason, dir.
const std::vector<RunColumn>& runColumns();

/// One run folder read back.
struct RunRow {
  std::filesystem::path dir;  ///< absolute
  /// "running" (a live process holds the folder's lock), "completed" (also an early stop),
  /// "stopped", "interrupted", "diverged" (non-finite or finite divergence), "failed" (ended on
  /// an error), "crashed" (no summary.json and no live writer: the process died), "incomplete"
  /// (a file is unreadable: half-copied or corrupt) or "not a run".
  std::string status;
  std::string reason;  ///< why, for crashed / incomplete / not a run / failed; else empty
  /// Column key -> value: numbers as JSON numbers, text as strings, null when unknown.
  nlohmann::json values = nlohmann::json::object();
  nlohmann::json config;  ///< config.json (null when unreadable): for differences
};

/// The sweep a run folder is a trial of: the sweep.json in the folder holding it
/// (core/sweep/orchestrator.h writes it), with the sweep's name and varied config keys.
struct SweepOfRun {
  std::string name;
  std::vector<std::string> keys;  ///< the sweep file's parameters, sorted
};
/// nullopt when the run is no trial of a sweep (or the record is unreadable). Never throws.
std::optional<SweepOfRun> sweepOfRun(const std::filesystem::path& run_dir);

/// Reads the run folder `dir` (config.json, run.json, summary.json, metrics.csv, events.jsonl,
/// notes.json, the lock). Never throws.
RunRow readRunRow(const std::filesystem::path& dir);

/// The index of a folder of runs (see listRuns), a hidden file in that folder.
inline constexpr const char* kRunsIndexFile = ".trainscope-runs-index.json";

/// The rows of every run folder directly inside each of `folders` (a folder that is itself a run
/// is taken as one; a sweep's folder inside, one holding sweep.json, stands for its trials),
/// hidden folders and the trash folder left out, sorted by start time, newest
/// last. A folder that does not exist or is not a directory throws Error(Config, folder).
///
/// Each folder of runs keeps an index, `kRunsIndexFile`, of the rows it read: a run folder whose
/// files (size and modification time of each file a row reads) have not changed and that no
/// process is writing is taken from it, any other is read again, and the index is rewritten
/// atomically when anything changed. The run folders stay the source of truth: a missing,
/// stale or corrupt index is rebuilt; a folder that cannot be written goes without one; a file
/// of that name that is not TrainScope's index is left alone.
std::vector<RunRow> listRuns(const std::vector<std::filesystem::path>& folders);

/// The value of `key` in `row` as text for a table: numbers with 4 significant digits
/// (formatHuman), ints as they are, null as "-". Never throws.
std::string runCell(const RunRow& row, const std::string& key);

/// Sorts `rows` by column `key` (numbers numerically, text lexically, unknown values last);
/// stable. `key` may also be a dotted config key (addConfigColumns). Throws
/// Error(Config, "--sort") for a key that is neither.
void sortRuns(std::vector<RunRow>& rows, const std::string& key, bool descending);

/// Config keys as columns (`runs --columns name,optimizer.weight_decay`): for each of
/// `keys` that is not a column, each row's RunRow::values gets config.json's value at that
/// dotted key (numbers stay numbers, a list or object its JSON, null where the run's config
/// lacks it), so runCell, sortRuns and the CSV and JSON output treat it as a column. Throws
/// Error(Config, `option`) naming a key that is neither a column nor a config key.
void addConfigColumns(std::vector<RunRow>& rows, const std::vector<std::string>& keys,
                      const std::string& option);

/// Whether `key` is a column of runColumns() or a dotted config key ("optimizer.lr").
bool isRunColumnOrConfigKey(const std::string& key);

/// Whether `row` matches `filter`: "TEXT" (case-insensitive, in any shown cell) or "KEY=TEXT"
/// (in that column; KEY a column or a dotted config key such as optimizer.lr). Throws
/// Error(Config, "--filter") naming an unknown KEY.
bool runMatches(const RunRow& row, const std::string& filter);

/// Config keys (dotted, e.g. "optimizer.lr") whose values differ among `rows` (name left out),
/// sorted; each with every row's value as compact JSON text ("-" when a run lacks the key).
struct ConfigDifference {
  std::string key;
  std::vector<std::string> values;  ///< one per row, in the order of `rows`
};
std::vector<ConfigDifference> configDifferences(const std::vector<RunRow>& rows);

/// The notes file a run folder may hold (written by the dashboard, never by a run):
/// notes.json {"notes": text, "tags": [text...]}.
inline constexpr const char* kRunNotesFile = "notes.json";

/// Writes `dir`/notes.json atomically (no other file of the run is touched). Tags are trimmed;
/// empty ones dropped. Throws Error(Config, dir) when `dir` is not a run folder TrainScope
/// wrote (whyNotRunDirectory), Error(Io, file) when it cannot be written.
void writeRunNotes(const std::filesystem::path& dir, const std::string& notes,
                   const std::vector<std::string>& tags);

/// Moves the run folder `dir` into `trash_root`/trash/ (created when missing; a name taken
/// there gets "-2", "-3", ...) and returns the new path. Refuses, with Error(Config, dir), a
/// folder that is not a run folder TrainScope wrote (a user's file inside it) or that a live
/// process is writing. Throws Error(Io, dir) when the move fails (another file system: nothing
/// is deleted then).
std::filesystem::path moveRunToTrash(const std::filesystem::path& dir,
                                     const std::filesystem::path& trash_root);

}  // namespace trainscope

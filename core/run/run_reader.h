#pragma once
/// Reading a run directory's files back (ARCHITECTURE §4): one file at a time, or the whole
/// run (readRun) for redrawing a finished or resumed run, comparing runs, and anyone reading a
/// run outside TrainScope's own process. Torch-free.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/run/records.h"

namespace trainscope {

/// Which rows of a run file count, given the `step` of each row in file order. The files are
/// only appended to, and within one attempt the steps rise; a roll-back to a snapshot (see
/// train/snapshots.h, event "rolled_back") trains the steps after it again, so the step goes
/// back: a row supersedes every earlier row whose step is >= its own. Returns the indices of
/// the rows not superseded (each step once: the latest row written for it), in step order.
std::vector<size_t> currentRows(const std::vector<int64_t>& steps);

/// Every row of a steps.csv in file order, superseded rows included (a roll-back shows as the
/// step going back); how each row is read and the errors thrown are as for readStepsCsv.
std::vector<StepRecord> readStepsCsvRows(const std::filesystem::path& file);

/// The rows of a steps.csv with step <= `max_step` that count (currentRows: after a roll-back,
/// the retrained rows, not the superseded ones), in step order. Columns are found by their
/// header names (step, epoch, batch, loss, grad_norm, grad_norm_clipped, lr, loss_scale), so a
/// file with columns added later still reads; "nan"/"inf"/"-inf" read as such. `applied` is
/// false for rows whose loss or grad_norm is non-finite (the file does not record skips);
/// batches_per_epoch, batch_samples and elapsed_seconds stay 0. Throws Error(Io, file) when the
/// file cannot be opened or its header lacks a required column, and Error(Io, file) naming the
/// line for a row that does not parse.
std::vector<StepRecord> readStepsCsv(const std::filesystem::path& file,
                                     int64_t max_step = std::numeric_limits<int64_t>::max());

/// The steps of the run directory `dir` that count: readStepsCsv(dir/steps.csv) up to the
/// run's final step when summary.json gives it (global_step: rows beyond it were superseded by
/// a roll-back that the run did not train again before it ended). Throws as readStepsCsv.
std::vector<StepRecord> readRunSteps(const std::filesystem::path& dir);

/// The rows of a metrics.csv that count (currentRows on its `step` column), in step order, up
/// to `max_step`. Columns by header name (epoch, step, train_loss, val_loss required; an empty
/// val_accuracy / train_accuracy cell reads as none). early_stop_at stays empty (not recorded).
/// Throws as readStepsCsv.
std::vector<EpochRecord> readMetricsCsv(const std::filesystem::path& file,
                                        int64_t max_step = std::numeric_limits<int64_t>::max());

/// The rows of a layers.csv that count, in step order, up to `max_step`: names from the header's
/// `<name>.grad_norm` columns (state_dict order), an empty cell as NaN; `epoch` stays 0 (the
/// file does not record it; readRun fills it from the steps). Throws as readStepsCsv.
std::vector<LayerStatsRecord> readLayersCsv(const std::filesystem::path& file,
                                            int64_t max_step = std::numeric_limits<int64_t>::max());

/// Every line of an events.jsonl, in file order (a roll-back's events stay: they happened).
/// `kind` from its text form (an unknown kind, from a newer TrainScope, is skipped); value,
/// what and file when present; evidence stays empty (not recorded). Throws Error(Io, file)
/// naming the line for one that is not a JSON object with step, epoch, kind and message.
/// `wanted`, when given, keeps only the events of the kinds it accepts; lines of other kinds
/// are recognised by their `"kind":"..."` text and not parsed (the runs table reads only the
/// anomalies of thousands of lines per run; a line it cannot recognise is parsed in full).
std::vector<Event> readEventsJsonl(const std::filesystem::path& file,
                                   const std::function<bool(EventKind)>& wanted = {});

/// What a run's files say happened to its settings after it started, for those who redo or
/// describe it from config.json (export-python, export): the checkpoint it resumed from
/// (run.json `resumed_from`: file and step; empty file when none) and the settings changed or
/// steps rolled back while it trained (events.jsonl ConfigChanged / RolledBack: "step N:
/// message" each). Never throws: unreadable files give nothing.
struct RunChanges {
  std::string resumed_from;
  int64_t resumed_step = 0;
  std::vector<std::string> changes;
};
RunChanges readRunChanges(const std::filesystem::path& dir);

/// The rows of a steps.csv / metrics.csv given its header line and complete lines that follow
/// it (a follower's appended lines, run_follower.h): every row in order, superseded ones
/// included; `file` and `first_line` (lines[0]'s 1-based number) name a bad row as the read*
/// functions do, and throw alike.
std::vector<StepRecord> parseStepsCsvRows(const std::string& file, const std::string& header,
                                          const std::vector<std::string>& lines,
                                          int64_t first_line);
std::vector<EpochRecord> parseMetricsCsvRows(const std::string& file, const std::string& header,
                                             const std::vector<std::string>& lines,
                                             int64_t first_line);
/// One line of an events.jsonl as readEventsJsonl reads it: nullopt for an empty line or an
/// unknown kind; Error(Io, file) naming line `line_no` for a line that is not an event.
std::optional<Event> parseEventLine(const std::string& file, const std::string& line,
                                   int64_t line_no);

/// summary.json read back (toJson(RunSummary)'s form). The diagnosis's findings come back with
/// their English text only (the file records no codes). Throws Error(Io, file) when it cannot
/// be read or parsed, or a key has the wrong type.
RunSummary readSummaryJson(const std::filesystem::path& file);

/// A whole run directory, as its writer (core/run/run_writer.h) left it.
struct RunRecord {
  std::filesystem::path dir;        ///< absolute
  nlohmann::json config;            ///< config.json: the resolved config (seed filled in)
  RunInfo info;                     ///< run.json plus the config's facts (runInfoFromJson)
  std::vector<EpochRecord> epochs;  ///< metrics.csv, superseded rows dropped, in step order
  std::vector<StepRecord> steps;    ///< steps.csv, superseded rows dropped, in step order
  /// layers.csv (empty when the run wrote none), superseded rows dropped; epochs from `steps`.
  std::vector<LayerStatsRecord> layers;
  std::vector<Event> events;  ///< events.jsonl, in file order
  /// summary.json; nullopt while the run is live, or when it was killed before it ended.
  std::optional<RunSummary> summary;
};

/// Reads the run directory `dir` whole. Rows a roll-back superseded are dropped, and so are
/// rows beyond summary.json's global_step (superseded by a roll-back the run did not train
/// again before it ended). Throws Error(Io, dir) when `dir` is not a run directory (no run.json
/// or config.json: see core/run/run_dir.h), and as the file readers above for a file that
/// does not parse; a missing metrics.csv, steps.csv, layers.csv or events.jsonl reads as empty
/// (a run killed before it wrote them).
RunRecord readRun(const std::filesystem::path& dir);

/// Optimizer steps per epoch of the run `run` (`config`: its config.json, read): from its first
/// epoch row (step / epoch; a resumed run's first row is its own), else as the trainer plans
/// them (batchesPerEpoch of the training samples over the ranks, core/data/batches.h, then the
/// gradient accumulation). 0 for a run without training samples.
int64_t stepsPerEpoch(const RunRecord& run, const TrainConfig& config);

/// True while another process writes the run `run` read back: it has no summary.json and a
/// process holds its folder's lock (RunDirLock, core/run/run_lock.h).
bool beingWritten(const RunRecord& run);

/// The summary of a run that ended without summary.json and that no process writes (killed,
/// crashed): stop reason interrupted, the last epoch and step it recorded, its seed and the
/// last epoch's metrics. The runs table calls such a run "crashed".
RunSummary interruptedSummary(const RunRecord& run);

}  // namespace trainscope

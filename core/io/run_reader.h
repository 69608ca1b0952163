#pragma once
/// Reading a run directory's files back (ARCHITECTURE §4), for redrawing a resumed run's
/// curves and for anyone reading a run. Torch-free.
#include <cstdint>
#include <filesystem>
#include <limits>
#include <vector>

#include "core/train/records.h"

namespace trainscope {

/// Which rows of a run file count, given the `step` of each row in file order. The files are
/// only appended to, and within one attempt the steps rise; a roll-back to a snapshot (see
/// train/snapshots.h, event "rolled_back") trains the steps after it again, so the step goes
/// back: a row supersedes every earlier row whose step is >= its own. Returns the indices of
/// the rows not superseded (each step once: the latest row written for it), in step order.
std::vector<size_t> currentRows(const std::vector<int64_t>& steps);

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

}  // namespace trainscope

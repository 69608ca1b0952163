#pragma once
/// Reading a run directory's files back (ARCHITECTURE §4), for redrawing a resumed run's
/// curves. Torch-free.
#include <cstdint>
#include <filesystem>
#include <limits>
#include <vector>

#include "core/train/records.h"

namespace trainscope {

/// The rows of a steps.csv with step <= `max_step`, in file order. Columns are found by their
/// header names (step, epoch, batch, loss, grad_norm, grad_norm_clipped, lr, loss_scale), so a
/// file with columns added later still reads; "nan"/"inf"/"-inf" read as such. `applied` is
/// false for rows whose loss or grad_norm is non-finite (the file does not record skips);
/// batches_per_epoch, batch_samples and elapsed_seconds stay 0. Throws Error(Io, file) when the
/// file cannot be opened or its header lacks a required column, and Error(Io, file) naming the
/// line for a row that does not parse.
std::vector<StepRecord> readStepsCsv(const std::filesystem::path& file,
                                     int64_t max_step = std::numeric_limits<int64_t>::max());

}  // namespace trainscope

#pragma once
/// The data report's warnings as events of a run: `train` names the problems `data` reports
/// (a validation split that holds training rows is not "healthy").
#include <vector>

#include "core/data/dataset.h"
#include "core/run/records.h"

namespace trainscope {

/// The warnings dataReport gives for `data` (leakage, duplicates, imbalance, few samples, no
/// validation samples of a class, constant features), then the source's own notes (rows
/// dropped, images that could not be decoded and were skipped), as EventKind::DataWarning
/// events at step 0, epoch 0: what the warning's kind ("note" for a note; "csv_header" for
/// the CSV header decision, value 1 header / 0 none, file the table), value its count,
/// message the English sentence ("data: 569 validation samples also occur in the training
/// split ..."). Exact byte comparisons, as the report's: O(n log n) in the training samples.
std::vector<Event> dataWarningEvents(const PreparedData& data);

}  // namespace trainscope

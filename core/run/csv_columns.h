#pragma once
/// The columns of the run directory's CSV files, declared once: steps.csv, metrics.csv and
/// layers.csv. The writer (core/run/records_json.h, layers_csv.h), the JSON form of an epoch and
/// the reader (core/run/run_reader.h) all walk these tables, the way the config key table drives
/// read, write, check and `config --keys`. Torch-free.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/run/records.h"

namespace trainscope {

/// One column of steps.csv or metrics.csv: the record member it holds and how a reader treats a
/// file without it. Numbers are written by formatNumber ("nan", "inf"); an optional member with
/// no value is an empty cell.
template <class Record>
struct CsvColumn {
  using Member = std::variant<int64_t Record::*, double Record::*, std::optional<double> Record::*>;
  const char* name;  ///< the header cell
  Member member;
  /// A file whose header lacks the column is refused (Error(Io, file) naming the column).
  bool required_column = false;
  /// Where the column is there, an empty cell is refused (an integer cell always is); else an
  /// empty cell reads as 0 (double members) or as no value (optional members).
  bool required_cell = false;
  /// The file revision that added the column: 1 the first build's files; older files lack the
  /// columns of later revisions, which then read as `absent_as` (double), 0 or no value.
  int added_in = 1;
  /// A double column missing from the file reads as this member's value (steps.csv's
  /// grad_norm_clipped: grad_norm, as nothing was clipped); null: 0.
  double Record::*absent_as = nullptr;
};

/// steps.csv, in file order: step, epoch, batch, loss, grad_norm, grad_norm_clipped, lr,
/// loss_scale (revision 1), data_wait (2). StepRecord::applied is not a column: a row is applied when loss and grad_norm
/// are finite.
const std::vector<CsvColumn<StepRecord>>& stepsCsvColumns();

/// metrics.csv, in file order: epoch, step, train_loss, val_loss, val_accuracy, lr,
/// epoch_seconds, samples_per_second (revision 1), train_accuracy (2), val_r2, val_mae, val_rmse
/// (3).
const std::vector<CsvColumn<EpochRecord>>& metricsCsvColumns();

/// The header line (no newline) of `columns`: their names joined by commas.
template <class Record>
std::string csvHeader(const std::vector<CsvColumn<Record>>& columns) {
  std::string h;
  for (const CsvColumn<Record>& c : columns) h += (h.empty() ? "" : ",") + std::string(c.name);
  return h;
}

/// One cell as the writer writes it: an integer in decimal, a double by formatNumber, an
/// optional without a value empty.
std::string csvCell(int64_t value);
std::string csvCell(double value);
std::string csvCell(const std::optional<double>& value);

/// The row of `r` (no newline) in `columns`' order.
template <class Record>
std::string csvRow(const Record& r, const std::vector<CsvColumn<Record>>& columns) {
  std::string row;
  bool first = true;
  for (const CsvColumn<Record>& c : columns) {
    if (!first) row += ',';
    first = false;
    std::visit([&](auto member) { row += csvCell(r.*member); }, c.member);
  }
  return row;
}

/// One group of layers.csv columns, repeated for each parameter tensor in state_dict order as
/// `<name><suffix>`; layers.csv starts with the column `step`.
struct LayerCsvColumn {
  const char* suffix;                          ///< ".grad_norm"
  std::vector<double> LayerStatsRecord::*member;  ///< one value per tensor; an empty cell: NaN
  int added_in = 1;                            ///< the file revision that added it
};

/// layers.csv's groups, in file order: .grad_norm, .update_ratio. A tensor's name is found by
/// the first group's suffix; every group's column must then be there.
const std::vector<LayerCsvColumn>& layersCsvColumns();

}  // namespace trainscope

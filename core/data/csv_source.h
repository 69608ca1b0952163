#pragma once
/// The "csv" data source: a table of data.csv.path (and optional validation / test tables) turned
/// into float32 features and class indices or regression targets, by the data.csv.* keys.
/// Torch types: internal to core/data.
#include <cstddef>
#include <cstdint>

#include "core/config/config_fwd.h"

namespace trainscope {

struct SourceData;

/// Reads data.csv.path (core/data/csv_table.h), picks the target column (data.csv.target: a name,
/// a 0-based index, negative from the end, or the last column) and the feature columns (all
/// others unless data.csv.features lists them; minus data.csv.exclude), and decides the task
/// (data.csv.task; auto: a text target, or whole numbers with at most kMaxAutoClasses distinct
/// values, is classification, else regression). Class labels become indices in sorted order
/// (text: by code point, as Python's sorted(); numbers: numerically), recorded as class names.
/// Text feature columns are an error or one-hot encoded (data.csv.categorical; categories sorted,
/// columns named "<column>=<category>"). Missing cells (empty or one of data.csv.missing) in a
/// used column are an error naming file, line and column, or drop their row
/// (data.csv.on_missing: drop_row; the kept rows are recorded in out.pool_rows). Optional
/// data.csv.val_path / test_path tables must have the same columns and only known classes and
/// categories. out: float32 x [N, F], int64 y [N] or float32 y [N, 1], feature names.
/// Throws Error(Data, file) for every problem of a file and Error(Config, key) for a key
/// naming no column.
void loadCsvSource(const DataConfig& config, SourceData& out);

/// The first note loadCsvSource adds: "<file>" + one of these + " (columns a, b, ...), ...":
/// the header decision and the key that overrides it. Run events take it apart by
/// these texts (data_warning "csv_header", core/train/loop/data_warnings.h).
inline constexpr const char* kCsvHeaderNote = ": line 1 read as the header";
inline constexpr const char* kCsvNoHeaderNote = ": no header, line 1 read as data";

/// Whole-number targets with at most this many distinct values are classes (data.csv.task auto).
inline constexpr int64_t kMaxAutoClasses = 20;
/// The most categories a one-hot encoded text column may have (each is a feature): more is an
/// id or free text, refused naming the column before anything is allocated.
inline constexpr std::size_t kMaxOneHotCategories = 1000;

}  // namespace trainscope

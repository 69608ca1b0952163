#pragma once
/// A CSV file read into typed columns: the reader behind the "csv" data source and its import
/// report. Parsed with libcsv (RFC 4180: quoted cells holding delimiters, doubled quotes and line
/// breaks; LF or CRLF line ends; spaces around unquoted cells trimmed); a UTF-8 byte-order mark
/// is skipped; blank lines are skipped. Torch-free, so the GUI can read a header for its
/// target-column combo.
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace trainscope {

/// How to read a CSV file (the `data.csv.*` keys of the same names).
struct CsvReadOptions {
  /// "auto": the first row is a header when none of its cells is a number; a first row of
  /// words and numbers is judged by the next 21 rows as Python's csv.Sniffer.has_header judges
  /// it (each column typed as numbers or as text of one length votes whether line 1 fits), and
  /// is also a header when any cell of it is a word over a column of numbers ("2019,2020,sales"
  /// over numbers, which Sniffer's vote reads as data). A table whose first data row holds only
  /// words needs "no"; "yes"; "no" (columns are then named "column 1" ...).
  std::string header = "auto";
  /// "auto": whichever of ',', ';' and tab splits the first lines (up to 20) into the same
  /// number of cells, the most cells on ties (',' when none occurs); or ",", ";", "\t".
  std::string delimiter = "auto";
  /// Cells that mean "missing" besides an empty cell (e.g. "NA", "?"); compared after trimming.
  std::vector<std::string> missing;
};

/// One column of a CsvTable. Numeric when every cell that is not missing parses completely as a
/// number in the C locale ("1e-3", "-2", "+4", "nan" and "inf" too, "1e999" as inf and
/// "1e-999" as 0; never "1,5"); text otherwise. Text must be UTF-8 (an error names the cell).
struct CsvColumn {
  std::string name;  ///< its header cell, or "column N" (1-based) without a header
  bool numeric = true;
  /// Text columns: one cell per data row ("" where missing). Empty for numeric columns.
  std::vector<std::string> text;
  /// Data rows (0-based) whose cell is missing (empty or one of CsvReadOptions::missing).
  std::vector<int64_t> missing_rows;
  /// The missing cells that held one of CsvReadOptions::missing's tokens (not empty): the
  /// token, as written, and how many cells held it. For messages: a class named "NA" is one.
  std::vector<std::pair<std::string, int64_t>> missing_tokens;
  /// Numeric columns: every value that is not missing is a whole number of magnitude < 2^24
  /// (exact in float32), so the column can hold class labels.
  bool integral = true;
  /// Text columns: the first data row (0-based) whose cell is not a number.
  int64_t first_text_row = -1;
  /// The cell of that row, as written (for messages).
  std::string first_text;
};

/// A whole CSV file: columns of equal length, one entry per data row (the header excluded).
/// The numbers of all columns are one row-major float32 block [rows, columns.size()] (the
/// layout of the feature tensor, so the csv source can compact it in place instead of copying
/// the table: issue 22's memory target); text cells are strings in their column.
struct CsvTable {
  std::string file;  ///< the path as given
  char delimiter = ',';
  bool header = false;
  int64_t rows = 0;  ///< data rows
  std::vector<CsvColumn> columns;
  /// The numbers, row-major [rows, columns.size()], malloc'd (handed on by releaseNumbers):
  /// a numeric column's value as float32, NaN where the cell is missing and in text columns.
  std::unique_ptr<float, decltype(&std::free)> values{nullptr, &std::free};

  /// The number in data row `row` (0-based) of column `col` (see `values`).
  float number(int64_t row, int64_t col) const {
    return values.get()[row * static_cast<int64_t>(columns.size()) + col];
  }
  /// Column `col`'s numbers, one per data row (a copy); empty for a text column.
  std::vector<float> numbers(int64_t col) const;
  /// Gives up `values` to the caller, who frees it with std::free; number() must not be called
  /// after.
  float* releaseNumbers() { return values.release(); }

  /// The file's line number of data row `row` (0-based), for messages: row + 1, + 1 with a
  /// header. (A quoted cell spanning lines shifts the count; rows are records.)
  int64_t lineOf(int64_t row) const { return row + (header ? 2 : 1); }
  /// The index of the column named `name`, or -1.
  int64_t find(const std::string& name) const;
};

/// Reads `file`. Throws Error(Data, file) naming the file (and the line, and the column where
/// there is one) when it cannot be read, is empty, has no data row, has a row with another
/// number of cells than the first (a ragged row), a quoted cell that never ends, or two columns
/// of the same name in its header; or when an option is not one of the values above.
CsvTable readCsv(const std::string& file, const CsvReadOptions& options = {});

}  // namespace trainscope

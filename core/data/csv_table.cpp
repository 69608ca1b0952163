#include "core/data/csv_table.h"

#include <csv.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "core/errors.h"
#include "core/io/utf8.h"
#include "core/system/cancel.h"

namespace trainscope {

namespace {

[[noreturn]] void fail(const std::string& file, const std::string& problem) {
  throw Error(ErrorCode::Data, file, "CSV file " + file + ": " + problem);
}

/// The cell as a number, when all of it is one (C locale, no thousands separators).
std::optional<double> parseNumber(const std::string& cell) {
  const char* first = cell.data();
  const char* last = first + cell.size();
  if (first != last && *first == '+') ++first;  // from_chars takes no leading '+'
  if (first == last) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(first, last, v);
  if (end != last) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {  // a number beyond double: "1e999", "1e-999"
    const char* e = std::find_if(first, last, [](char ch) { return ch == 'e' || ch == 'E'; });
    if (e + 1 < last && e[1] == '-') return 0.0;  // underflow
    return cell[0] == '-' ? -HUGE_VAL : HUGE_VAL;  // overflow: reported as not finite
  }
  if (ec != std::errc()) return std::nullopt;
  return v;
}

/// A quoted column name for messages: 'price'.
std::string inQuotes(const std::string& name) { return "'" + name + "'"; }

/// Cells per line of up to the first 20 lines of `head` for delimiter `d`, quotes respected.
std::vector<int64_t> cellsPerLine(const std::string& head, char d) {
  std::vector<int64_t> counts;
  int64_t cells = 1;
  bool quoted_cell = false, any = false;
  for (std::size_t i = 0; i < head.size() && counts.size() < 20; ++i) {
    const char c = head[i];
    if (c == '"') {
      quoted_cell = !quoted_cell;
    } else if (!quoted_cell && c == d) {
      ++cells;
    } else if (!quoted_cell && (c == '\n' || c == '\r')) {
      if (any) counts.push_back(cells);
      if (c == '\r' && i + 1 < head.size() && head[i + 1] == '\n') ++i;
      cells = 1;
      any = false;
      continue;
    }
    any = true;
  }
  if (any && counts.size() < 20 && head.size() < (std::size_t{1} << 16)) counts.push_back(cells);
  return counts;
}

char detectDelimiter(const std::string& head) {
  char best = ',';
  int64_t best_cells = 1;
  bool best_consistent = false;
  for (char d : {',', ';', '\t'}) {
    const std::vector<int64_t> counts = cellsPerLine(head, d);
    if (counts.empty() || counts.front() < 2) continue;
    const bool consistent = std::all_of(counts.begin(), counts.end(),
                                        [&](int64_t n) { return n == counts.front(); });
    if ((consistent && !best_consistent) ||
        (consistent == best_consistent && counts.front() > best_cells)) {
      best = d;
      best_cells = counts.front();
      best_consistent = consistent;
    }
  }
  return best;
}

/// libcsv's parser state for one pass over the file.
struct Pass {
  const std::string* file = nullptr;
  const CsvReadOptions* options = nullptr;
  CsvTable* table = nullptr;
  /// The header decision is made on the first record (first pass only).
  bool first_pass = true;
  /// Second pass: the columns whose text is collected (they turned out to be text after some
  /// rows had been stored as numbers).
  std::vector<bool> collect;
  std::vector<std::string> cells;  ///< the current record's cells
  int64_t records = 0;             ///< records seen so far (the header included)
  int64_t width = 0;               ///< cells per record (the first record's count)
  int64_t capacity = 0;            ///< rows `table->values` has room for
  std::vector<bool> needs_text;    ///< first pass: text found after numeric rows
  std::vector<std::string> first_cells;  ///< line 1 while the lines after it decide (header?)
  std::vector<std::vector<std::string>> sample;  ///< lines 2..22 held while deciding
  std::string error;               ///< set by a callback; thrown after csv_parse returns

  bool missing(const std::string& cell) const {
    if (cell.empty()) return true;
    const auto& m = options->missing;
    return std::find(m.begin(), m.end(), cell) != m.end();
  }

  void startColumns(bool header) {
    table->header = header;
    width = static_cast<int64_t>(cells.size());
    table->columns.resize(cells.size());
    needs_text.assign(cells.size(), false);
    for (std::size_t c = 0; c < cells.size(); ++c)
      table->columns[c].name = header ? cells[c] : "column " + std::to_string(c + 1);
    if (!header) return;
    for (std::size_t c = 0; c < cells.size(); ++c)
      if (!isValidUtf8(cells[c])) {
        table->columns[c].name = "column " + std::to_string(c + 1);
        checkUtf8(cells[c], 1, c);
        return;
      }
    // Linear in the columns (a header of 10^6 columns took hours pairwise: issue 44 item 7).
    std::unordered_map<std::string_view, std::size_t> first_of;
    first_of.reserve(cells.size());
    for (std::size_t c = 0; c < cells.size() && error.empty(); ++c) {
      if (cells[c].empty()) {
        error = "column " + std::to_string(c + 1) +
                " of the header (line 1) has no name; name it, or set data.csv.header to "
                "\"no\" if line 1 is data";
      } else if (const auto [it, fresh] = first_of.emplace(cells[c], c); !fresh) {
        error = "columns " + std::to_string(it->second + 1) + " and " + std::to_string(c + 1) +
                " of the header (line 1) are both named " + inQuotes(cells[c]) +
                "; give each column its own name";
      }
    }
  }

  /// Text must be UTF-8 (it reaches run.json and JSON output) without NUL bytes (which C
  /// strings, file names and reports cut at: a label "a\0b" became a class of its own): false
  /// and `error` set otherwise.
  bool checkUtf8(const std::string& cell, int64_t line, std::size_t c) {
    const bool nul = cell.find('\0') != std::string::npos;
    if (!nul && isValidUtf8(cell)) return true;
    error = "line " + std::to_string(line) + ", column " +
            (table->columns.size() > c ? inQuotes(table->columns[c].name)
                                       : std::to_string(c + 1)) +
            (nul ? ": the cell holds a NUL byte (a binary file, or text saved as UTF-16?); a "
                   "table holds text: remove it"
                 : ": the cell is not UTF-8 text (a file saved as Latin-1 or Windows-1252?); "
                   "save the file as UTF-8");
    return false;
  }

  /// Room in `table->values` for data row `row`: the block grows by doubling with realloc
  /// (a large block is remapped by the kernel, not copied, so growing costs no second table).
  void reserveRow(int64_t row) {
    if (row < capacity) return;
    const int64_t grown = std::max<int64_t>({row + 1, capacity * 2, 1024});
    const std::size_t bytes = static_cast<std::size_t>(grown) * static_cast<std::size_t>(width) *
                              sizeof(float);
    void* p = std::realloc(table->values.get(), bytes);
    if (!p) {
      error = "does not fit in memory (" + std::to_string(bytes >> 20) + " MB for " +
              std::to_string(grown) + " rows of numbers)";
      return;
    }
    table->values.release();
    table->values.reset(static_cast<float*>(p));
    capacity = grown;
  }

  void addRow() {
    CsvTable& t = *table;
    const int64_t row = t.rows;
    if (first_pass) {
      reserveRow(row);
      if (!error.empty()) return;
    }
    float* numbers = first_pass ? t.values.get() + row * width : nullptr;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      CsvColumn& col = t.columns[c];
      std::string& cell = cells[c];
      const bool is_missing = missing(cell);
      if (!checkUtf8(cell, t.lineOf(row), c)) return;  // numbers are ASCII: only text fails
      if (!first_pass) {
        if (collect[c]) col.text.push_back(is_missing ? std::string() : std::move(cell));
        continue;
      }
      numbers[c] = std::nanf("");
      if (is_missing) {
        col.missing_rows.push_back(row);
        const std::string& token = cell;  // compared as missing() compares it
        if (!token.empty()) {
          auto it = std::find_if(col.missing_tokens.begin(), col.missing_tokens.end(),
                                 [&](const auto& p) { return p.first == token; });
          if (it == col.missing_tokens.end()) {
            col.missing_tokens.emplace_back(token, 1);
          } else {
            ++it->second;
          }
        }
      }
      if (col.numeric) {
        const std::optional<double> v = is_missing ? std::nullopt : parseNumber(cell);
        if (is_missing || v) {
          const float f = is_missing                       ? std::nanf("")
                          : std::fabs(*v) > 3.4028234663852886e38 ? static_cast<float>(std::copysign(INFINITY, *v))
                                                                  : static_cast<float>(*v);
          if (!is_missing && (std::nearbyint(*v) != *v || std::fabs(*v) >= 16777216.0))
            col.integral = false;
          numbers[c] = f;
          continue;
        }
        // The first cell of this column that is not a number: a text column from here on.
        col.numeric = false;
        col.integral = false;
        col.first_text_row = row;
        col.first_text = cell;
        if (row > 0) needs_text[c] = true;  // earlier rows' text is read again in pass two
      }
      if (!needs_text[c]) col.text.push_back(is_missing ? std::string() : std::move(cell));
    }
    ++t.rows;
  }

  /// `cells` as a data row: a row of another width is an error.
  void dataRecord(int64_t line) {
    if (static_cast<int64_t>(cells.size()) != width) {
      error = "line " + std::to_string(line) + " has " + std::to_string(cells.size()) +
              " cell(s), but line 1 has " + std::to_string(width) +
              "; every row needs the same number of cells (is a delimiter or a quote missing, "
              "or one too many?)";
      return;
    }
    addRow();
    cells.clear();
  }

  static bool isNumber(const std::string& s) { return parseNumber(s).has_value(); }

  /// The first record of pass one as header or data; `header` decided by the caller.
  void firstRecord(bool header) {
    startColumns(header);
    if (header || !error.empty()) {
      cells.clear();
      return;
    }
    dataRecord(1);
  }

  void endRecord() {
    if (!error.empty()) return;
    ++records;
    if (records == 1 && first_pass) {
      const bool any_number = std::any_of(cells.begin(), cells.end(), isNumber);
      const bool all_numbers = std::all_of(cells.begin(), cells.end(), isNumber);
      if (options->header == "auto" && any_number && !all_numbers) {
        // Words and numbers ("2019,2020,sales"): the next lines decide (see decideHeader).
        first_cells = std::move(cells);
        cells.clear();
        return;
      }
      firstRecord(options->header == "yes" || (options->header == "auto" && !any_number));
      return;
    }
    if (first_pass && !first_cells.empty()) {
      sample.push_back(std::move(cells));
      cells.clear();
      if (sample.size() == kSniffRows) decideHeader();
      return;
    }
    if (records == 1 && table->header) {  // pass two: the header again
      cells.clear();
      return;
    }
    dataRecord(records);
  }

  /// Lines after line 1 that decide whether a line 1 of words and numbers is a header: as
  /// many as Python's csv.Sniffer.has_header reads (it checks 21 rows after the first).
  static constexpr std::size_t kSniffRows = 21;

  /// Line 1 of words and numbers as header or data, by the columns of the lines after it (held
  /// in `sample`), as Python's csv.Sniffer.has_header judges: a column is typed by those lines
  /// (numbers, or text cells all of one length; missing cells and rows of another width left
  /// out; a column of mixed types or lengths says nothing), and line 1 votes per column: +1
  /// where its cell does not fit the type (a word over numbers, text of another length), -1
  /// where it fits. A header when the votes sum above 0, or when any column has a word over
  /// numbers (a numeric column cannot hold a word in a data row: "2019,2020,sales" over numbers,
  /// which Sniffer's vote of -1 would read as data). Then the held lines are read as data.
  void decideHeader() {
    int votes = 0;
    bool word_over_numbers = false;
    for (std::size_t c = 0; c < first_cells.size(); ++c) {
      bool numbers = true, consistent = true, any = false;
      std::size_t length = 0;
      for (const auto& row : sample) {
        if (row.size() != first_cells.size() || missing(row[c])) continue;
        const bool number = isNumber(row[c]);
        if (!any) {
          numbers = number;
          length = row[c].size();
          any = true;
        } else if (number != numbers || (!number && row[c].size() != length)) {
          consistent = false;
        }
      }
      if (!any || !consistent || missing(first_cells[c])) continue;
      const bool fits = numbers ? isNumber(first_cells[c]) : first_cells[c].size() == length;
      votes += fits ? -1 : 1;
      word_over_numbers = word_over_numbers || (numbers && !fits);
    }
    std::vector<std::vector<std::string>> held = std::move(sample);
    sample.clear();
    cells = std::move(first_cells);
    first_cells.clear();
    firstRecord(word_over_numbers || votes > 0);
    for (std::size_t i = 0; i < held.size() && error.empty(); ++i) {
      cells = std::move(held[i]);
      dataRecord(static_cast<int64_t>(i) + 2);
    }
  }

  /// After the last record: a line 1 of words and numbers still undecided is decided by the
  /// lines there are (none: it is one data row).
  void finish() {
    if (first_cells.empty() || !error.empty()) return;
    decideHeader();
  }
};

void onCell(void* s, std::size_t len, void* data) {
  auto* p = static_cast<Pass*>(data);
  p->cells.emplace_back(s ? static_cast<const char*>(s) : "", s ? len : 0);
}

void onRecord(int, void* data) { static_cast<Pass*>(data)->endRecord(); }

/// libcsv's default trims spaces and tabs around cells; with a tab delimiter only spaces.
int isSpace(unsigned char c) { return c == CSV_SPACE; }
int isSpaceOrTab(unsigned char c) { return c == CSV_SPACE || c == CSV_TAB; }

/// One pass of libcsv over `file`, feeding `pass`.
void parseFile(const std::string& file, char delimiter, Pass& pass) {
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(file, "cannot be opened for reading (missing, or not readable)");
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
    fail(file, "out of memory");
  std::unique_ptr<csv_parser, void (*)(csv_parser*)> guard(&parser, &csv_free);
  csv_set_delim(&parser, static_cast<unsigned char>(delimiter));
  csv_set_space_func(&parser, delimiter == '\t' ? &isSpace : &isSpaceOrTab);
  std::array<char, 1 << 16> buffer{};
  bool first = true;
  while (in) {
    throwIfCancelled(file);  // Ctrl-C / SIGTERM within one 64 KiB block of the file
    in.read(buffer.data(), buffer.size());
    std::size_t n = static_cast<std::size_t>(in.gcount());
    if (n == 0) break;
    const char* start = buffer.data();
    if (first && n >= 3 && static_cast<unsigned char>(start[0]) == 0xEF &&
        static_cast<unsigned char>(start[1]) == 0xBB && static_cast<unsigned char>(start[2]) == 0xBF) {
      start += 3;  // UTF-8 byte-order mark
      n -= 3;
    }
    first = false;
    if (csv_parse(&parser, start, n, &onCell, &onRecord, &pass) != n) {
      if (!pass.error.empty()) fail(file, pass.error);
      if (csv_error(&parser) != CSV_EPARSE)
        fail(file, std::string("cannot be parsed: ") + csv_strerror(csv_error(&parser)));
      fail(file, "line " + std::to_string(pass.records + 1) +
                     ": a quote (\") where none may stand: a cell with quotes must be quoted "
                     "whole, with each quote inside doubled (\"say \"\"hi\"\"\")");
    }
    if (!pass.error.empty()) fail(file, pass.error);
  }
  if (in.bad()) fail(file, "a read error occurred");
  if (csv_fini(&parser, &onCell, &onRecord, &pass) != 0)
    fail(file, "line " + std::to_string(pass.records + 1) +
                   ": a quoted cell is never closed (a \" without its closing \")");
  pass.finish();
  if (!pass.error.empty()) fail(file, pass.error);
}

}  // namespace

std::vector<float> CsvTable::numbers(int64_t col) const {
  std::vector<float> out;
  if (!columns[col].numeric) return out;
  out.reserve(rows);
  for (int64_t r = 0; r < rows; ++r) out.push_back(number(r, col));
  return out;
}

int64_t CsvTable::find(const std::string& name) const {
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c].name == name) return static_cast<int64_t>(c);
  return -1;
}

CsvTable readCsv(const std::string& file, const CsvReadOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) fail(file, "is a folder, not a CSV file");
  // A device or pipe would be read forever (/dev/zero) or block (a FIFO): files only.
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec))
    fail(file, "is not a regular file (a device, pipe or socket); give a CSV file");
  if (options.header != "auto" && options.header != "yes" && options.header != "no")
    throw Error(ErrorCode::Config, "data.csv.header",
                "data.csv.header must be \"auto\", \"yes\" or \"no\", got \"" + options.header +
                    "\"");
  char delimiter = ',';
  if (options.delimiter == "auto") {
    std::ifstream in(file, std::ios::binary);
    if (!in) fail(file, "cannot be opened for reading (missing, or not readable)");
    std::string head(std::size_t{1} << 16, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    delimiter = detectDelimiter(head);
  } else if (options.delimiter == "," || options.delimiter == ";" || options.delimiter == "\t") {
    delimiter = options.delimiter[0];
  } else {
    throw Error(ErrorCode::Config, "data.csv.delimiter",
                "data.csv.delimiter must be \"auto\", \",\", \";\" or \"\\t\", got \"" +
                    options.delimiter + "\"");
  }

  CsvTable table;
  table.file = file;
  table.delimiter = delimiter;
  Pass pass;
  pass.file = &file;
  pass.options = &options;
  pass.table = &table;
  parseFile(file, delimiter, pass);
  if (pass.records == 0) fail(file, "is empty: no rows");
  if (table.rows == 0) fail(file, "has a header but no data rows");
  // Give back the room the doubling left (a large block shrinks in place).
  if (void* p = std::realloc(table.values.get(), static_cast<std::size_t>(table.rows) *
                                                     table.columns.size() * sizeof(float))) {
    table.values.release();
    table.values.reset(static_cast<float*>(p));
  }

  // Columns that turned out to be text after numeric rows: their cells once more, as text.
  if (std::find(pass.needs_text.begin(), pass.needs_text.end(), true) != pass.needs_text.end()) {
    for (std::size_t c = 0; c < table.columns.size(); ++c)
      if (pass.needs_text[c]) table.columns[c].text.clear();
    Pass again;
    again.file = &file;
    again.options = &options;
    again.table = &table;
    again.first_pass = false;
    again.collect = pass.needs_text;
    again.width = pass.width;
    const int64_t rows = table.rows;
    table.rows = 0;
    parseFile(file, delimiter, again);
    if (table.rows != rows) fail(file, "changed while it was read");
  }
  return table;
}

}  // namespace trainscope

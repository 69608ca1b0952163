// The "csv" data source: columns of a CsvTable to features and targets.
#include "core/data/csv_source.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/config/train_config.h"
#include "core/data/csv_table.h"
#include "core/data/sources.h"
#include "core/errors.h"
#include "core/system/number_format.h"

namespace trainscope {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

[[noreturn]] void failCsv(const CsvTable& t, const std::string& problem) {
  throw Error(ErrorCode::Data, t.file, "CSV file " + t.file + ": " + problem);
}

/// "line 7, column 'price'": where a cell is, for messages.
std::string cellAt(const CsvTable& t, int64_t row, int64_t col) {
  return "line " + std::to_string(t.lineOf(row)) + ", column " + quoted(t.columns[col].name);
}

/// The names of the table's columns, for "known columns" hints (the first 12).
std::string columnList(const CsvTable& t) {
  std::string s;
  for (std::size_t i = 0; i < t.columns.size() && i < 12; ++i)
    s += (s.empty() ? "" : ", ") + quoted(t.columns[i].name);
  if (t.columns.size() > 12) s += ", ... (" + std::to_string(t.columns.size()) + " columns)";
  return s;
}

/// A whole number as text ("3", "-1"), for class names made from numeric labels.
std::string wholeNumberText(float v) { return std::to_string(static_cast<int64_t>(v)); }

/// The column `name` of `t`, or an Error(Config, key) listing the columns.
int64_t columnNamed(const CsvTable& t, const std::string& name, const std::string& key) {
  const int64_t c = t.find(name);
  if (c < 0)
    throw Error(ErrorCode::Config, key,
                key + " names column " + quoted(name) + ", which " + t.file + " does not have" +
                    (t.header ? " (its columns: " + columnList(t) + ")"
                              : " (it has no header row: name columns by index, or set "
                                "data.csv.header=yes)"));
  return c;
}

/// What the training table decides for every table of the run.
struct Layout {
  int64_t target = -1;
  std::vector<int64_t> features;  ///< column indices, in output order
  bool classification = false;
  std::vector<std::string> class_names;
  std::map<std::string, int64_t> text_classes;  ///< text target: label -> index
  std::map<float, int64_t> number_classes;      ///< whole-number target: value -> index
  /// Per feature: empty = numeric; else the one-hot categories, sorted.
  std::vector<std::vector<std::string>> categories;
  std::vector<std::string> feature_names;
};

/// The first row (0-based) of numeric column `col` whose number is not finite, or -1.
int64_t firstNonFinite(const CsvTable& t, int64_t col) {
  const CsvColumn& c = t.columns[col];
  for (int64_t r = 0; r < t.rows; ++r)
    if (!std::isfinite(t.number(r, col)) &&
        !std::binary_search(c.missing_rows.begin(), c.missing_rows.end(), r))
      return r;
  return -1;
}

int64_t resolveTarget(const CsvTable& t, const ColumnRef& ref) {
  const int64_t n = static_cast<int64_t>(t.columns.size());
  if (ref.name) return columnNamed(t, *ref.name, "data.csv.target");
  if (!ref.index) return n - 1;
  const int64_t i = *ref.index < 0 ? n + *ref.index : *ref.index;
  if (i < 0 || i >= n)
    throw Error(ErrorCode::Config, "data.csv.target",
                "data.csv.target is column index " + std::to_string(*ref.index) + " but " +
                    t.file + " has " + std::to_string(n) + " columns (0.." +
                    std::to_string(n - 1) + ", or -1 for the last)");
  return i;
}

void decideTask(const CsvTable& t, const CsvConfig& c, Layout& l) {
  const CsvColumn& y = t.columns[l.target];
  const std::string where = "the target column " + quoted(y.name);
  if (!y.numeric) {
    if (c.task == "regression")
      failCsv(t, where + " holds text (" + cellAt(t, y.first_text_row, l.target) + ": \"" +
                  y.first_text + "\"), but data.csv.task is regression, which needs numbers");
    l.classification = true;
    std::set<std::string> labels;
    for (std::size_t r = 0; r < y.text.size(); ++r)
      if (!std::binary_search(y.missing_rows.begin(), y.missing_rows.end(), int64_t(r)))
        labels.insert(y.text[r]);
    for (const std::string& s : labels) {
      l.text_classes.emplace(s, static_cast<int64_t>(l.class_names.size()));
      l.class_names.push_back(s);
    }
  } else {
    const int64_t bad = firstNonFinite(t, l.target);
    if (bad >= 0) failCsv(t, cellAt(t, bad, l.target) + ": the target is not a finite number");
    // The distinct values: all of them for classes; for auto, only whether there are more
    // than kMaxAutoClasses (a real-valued target of a million rows is not sorted into a set).
    std::set<float> values;
    const bool count_all = c.task == "classification";
    const bool count_some = c.task == "auto" && y.integral;
    float lo = INFINITY, hi = -INFINITY;
    for (int64_t r = 0; r < t.rows; ++r) {
      const float v = t.number(r, l.target);
      if (!std::isfinite(v)) continue;  // missing
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      if (count_all || (count_some && static_cast<int64_t>(values.size()) <= kMaxAutoClasses))
        values.insert(v);
    }
    if (c.task == "classification" && !y.integral) {
      for (int64_t r = 0; r < t.rows; ++r)
        if (const float v = t.number(r, l.target); std::isfinite(v) && std::floor(v) != v)
          failCsv(t, where + " holds a fraction (" + cellAt(t, r, l.target) + ": " +
                      formatNumber(v) +
                      ") but data.csv.task is classification, which needs whole numbers or "
                      "text labels; set data.csv.task=regression");
    }
    l.classification = c.task == "classification" ||
                       (c.task == "auto" && y.integral &&
                        static_cast<int64_t>(values.size()) <= kMaxAutoClasses);
    if (l.classification)
      for (float v : values) {
        l.number_classes.emplace(v, static_cast<int64_t>(l.class_names.size()));
        l.class_names.push_back(wholeNumberText(v));
      }
    else if (lo == hi)
      failCsv(t, where + " is constant (every row holds " + formatNumber(lo) +
                  "): there is nothing to learn");
  }
  if (l.classification && l.class_names.size() < 2)
    failCsv(t, where + " is constant (every row holds the class \"" +
                (l.class_names.empty() ? std::string() : l.class_names[0]) +
                "\"): classification needs at least 2 classes");
}

void decideFeatures(const CsvTable& t, const CsvConfig& c, Layout& l) {
  std::set<int64_t> excluded{l.target};
  for (const std::string& name : c.exclude) excluded.insert(columnNamed(t, name, "data.csv.exclude"));
  if (!c.features.empty()) {
    for (const std::string& name : c.features) {
      const int64_t col = columnNamed(t, name, "data.csv.features");
      if (col == l.target)
        throw Error(ErrorCode::Config, "data.csv.features",
                    "data.csv.features lists " + quoted(name) +
                        ", the target column; a model must not see its own target");
      if (std::find(l.features.begin(), l.features.end(), col) != l.features.end())
        throw Error(ErrorCode::Config, "data.csv.features",
                    "data.csv.features lists " + quoted(name) + " twice");
      if (!excluded.count(col)) l.features.push_back(col);
    }
  } else {
    for (int64_t col = 0; col < static_cast<int64_t>(t.columns.size()); ++col)
      if (!excluded.count(col)) l.features.push_back(col);
  }
  if (l.features.empty())
    failCsv(t, "no feature column is left beside the target " + quoted(t.columns[l.target].name) +
                " (columns: " + columnList(t) + ")");
  for (int64_t col : l.features) {
    const CsvColumn& f = t.columns[col];
    if (f.numeric) {
      const int64_t bad = firstNonFinite(t, col);
      if (bad >= 0) failCsv(t, cellAt(t, bad, col) + ": not a finite number (nan or inf)");
      l.categories.emplace_back();
      l.feature_names.push_back(f.name);
      continue;
    }
    if (c.categorical != "one_hot")
      failCsv(t, "column " + quoted(f.name) + " holds text (" + cellAt(t, f.first_text_row, col) +
                  ": \"" + f.first_text +
                  "\"); features must be numbers: set data.csv.categorical=one_hot to encode it, "
                  "or leave it out with data.csv.exclude");
    std::set<std::string> cats;
    for (std::size_t r = 0; r < f.text.size(); ++r)
      if (!std::binary_search(f.missing_rows.begin(), f.missing_rows.end(), int64_t(r)))
        cats.insert(f.text[r]);
    // One feature per category: 50,000 categories made a table of 8.7 GB.
    if (cats.size() > kMaxOneHotCategories)
      failCsv(t, "column " + quoted(f.name) + " holds " + std::to_string(cats.size()) +
                  " different texts; one-hot encoding makes a feature of each (at most " +
                  std::to_string(kMaxOneHotCategories) +
                  "): an id or free text? leave it out with data.csv.exclude");
    l.categories.emplace_back(cats.begin(), cats.end());
    for (const std::string& cat : cats) l.feature_names.push_back(f.name + "=" + cat);
  }
}

Layout decideLayout(const CsvTable& t, const CsvConfig& c) {
  Layout l;
  l.target = resolveTarget(t, c.target);
  decideTask(t, c, l);
  decideFeatures(t, c, l);
  return l;
}

/// With drop_row: what the dropped rows' target held, when those were missing-value tokens
/// ("NA", "null": maybe a class); empty when none.
/// The missing-value tokens a column's cells held, for messages: "\"NA\" (3 rows), ..."; empty
/// when none (only empty cells, or nothing missing).
std::string tokenCounts(const CsvColumn& column) {
  std::string held;
  for (const auto& [token, count] : column.missing_tokens)
    held += (held.empty() ? "" : ", ") + std::string("\"") + token + "\" (" +
            std::to_string(count) + (count == 1 ? " row)" : " rows)");
  return held;
}

std::string droppedTargetNote(const CsvTable& t, const Layout& l) {
  const CsvColumn& target = t.columns[l.target];
  const std::string held = tokenCounts(target);
  if (held.empty()) return "";
  return t.file + ": the target column \"" + target.name + "\" held " + held +
         ", read as missing because data.csv.missing lists it, so those rows were dropped: if it "
         "is a class, set data.csv.missing without it";
}

/// The rows of `t` to keep (data.csv.on_missing drop_row: those without a missing cell in a
/// used column); empty when every row is kept (no index per row then).
std::vector<int64_t> keptRows(const CsvTable& t, const Layout& l, const CsvConfig& c,
                              int64_t& dropped) {
  std::vector<int64_t> used = l.features;
  used.push_back(l.target);
  std::vector<char> missing(t.rows, 0);
  int64_t first_row = -1, first_col = -1;
  for (int64_t col : used)
    for (int64_t r : t.columns[col].missing_rows) {
      missing[r] = 1;
      if (first_row < 0 || r < first_row) first_row = r, first_col = col;
    }
  if (first_row >= 0 && c.on_missing != "drop_row") {
    std::string tokens;
    for (const std::string& m : c.missing) tokens += (tokens.empty() ? "" : ", ") + m;
    // A target whose cells hold a missing-value token ("NA", "null") may have a class of that
    // name: the message names data.csv.missing and what drop_row would remove.
    const CsvColumn& target = t.columns[l.target];
    const std::string held = tokenCounts(target);
    const std::string if_class =
        held.empty()
            ? std::string()
            : "; the target column \"" + target.name + "\" holds " + held +
                  ", read as missing because data.csv.missing lists it: if it is a class, set "
                  "data.csv.missing without it (e.g. --set 'data.csv.missing=[\"?\"]'), since "
                  "drop_row would remove those rows and the class with them";
    failCsv(t, cellAt(t, first_row, first_col) + ": missing value (an empty cell" +
                (tokens.empty() ? std::string() : " or one of data.csv.missing: " + tokens) +
                "); fill it in, or set data.csv.on_missing=drop_row to leave such rows out" +
                if_class);
  }
  dropped = 0;
  std::vector<int64_t> kept;
  if (first_row < 0) return kept;
  for (int64_t r = 0; r < t.rows; ++r)
    if (!missing[r]) kept.push_back(r);
  dropped = t.rows - static_cast<int64_t>(kept.size());
  if (kept.empty()) failCsv(t, "every row has a missing value in a used column");
  return kept;
}

/// The table's kept rows (`kept`; empty = all) as float32 x [N, F] and y (int64 [N] or
/// float32 [N, 1]). When every feature is a number, x is `t`'s own block of numbers compacted
/// in place (the table's numbers are gone after); otherwise a new tensor.
TensorPair encode(CsvTable& t, const Layout& l, const std::vector<int64_t>& kept) {
  const bool all = kept.empty();
  const int64_t n = all ? t.rows : static_cast<int64_t>(kept.size());
  auto row = [&](int64_t i) { return all ? i : kept[i]; };
  const int64_t width = static_cast<int64_t>(l.feature_names.size());
  // Every column is checked before any is written: a failure leaves nothing half-made.
  bool numeric_only = true;
  for (std::size_t f = 0; f < l.features.size(); ++f) {
    const CsvColumn& col = t.columns[l.features[f]];
    if (!l.categories[f].empty()) {
      numeric_only = false;
      continue;
    }
    if (!col.numeric)
      failCsv(t, "column " + quoted(col.name) + " holds text (" +
                  cellAt(t, col.first_text_row, l.features[f]) + ": \"" + col.first_text +
                  "\") but is numeric in the training table");
    const int64_t bad = firstNonFinite(t, l.features[f]);
    if (bad >= 0) failCsv(t, cellAt(t, bad, l.features[f]) + ": not a finite number (nan or inf)");
  }

  const CsvColumn& y = t.columns[l.target];
  at::Tensor targets;
  if (!l.classification) {
    if (!y.numeric)
      failCsv(t, cellAt(t, y.first_text_row, l.target) + ": the target \"" + y.first_text +
                  "\" is not a number (the training table's target is)");
    targets = at::empty({n, 1}, at::kFloat);
    float* py = targets.data_ptr<float>();
    for (int64_t i = 0; i < n; ++i) py[i] = t.number(row(i), l.target);
  } else {
    targets = at::empty({n}, at::kLong);
    int64_t* py = targets.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = row(i);
      int64_t cls = -1;
      if (!l.text_classes.empty() && !y.numeric) {
        auto it = l.text_classes.find(y.text[r]);
        if (it != l.text_classes.end()) cls = it->second;
      } else if (!l.number_classes.empty() && y.numeric) {
        auto it = l.number_classes.find(t.number(r, l.target));
        if (it != l.number_classes.end()) cls = it->second;
      }
      if (cls < 0)
        failCsv(t, cellAt(t, r, l.target) + ": the class \"" +
                    (y.numeric ? formatNumber(t.number(r, l.target)) : y.text[r]) +
                    "\" does not occur in the training table");
      py[i] = cls;
    }
  }

  if (numeric_only) {
    // Row i's features move to [i * width, (i + 1) * width) of the table's own block: since
    // width < the table's column count (the target is not a feature) and row(i) >= i, no row
    // is overwritten before it is read.
    const int64_t columns = static_cast<int64_t>(t.columns.size());
    float* block = t.values.get();
    std::vector<float> tmp(static_cast<std::size_t>(width));
    for (int64_t i = 0; i < n; ++i) {
      const float* src = block + row(i) * columns;
      for (int64_t f = 0; f < width; ++f) tmp[f] = src[l.features[f]];
      std::copy(tmp.begin(), tmp.end(), block + i * width);
    }
    float* data = t.releaseNumbers();
    // Give back the rest of the block (a large block shrinks in place).
    if (void* p = std::realloc(data, std::max<std::size_t>(1, n * width * sizeof(float))))
      data = static_cast<float*>(p);
    return {at::from_blob(data, {n, width}, [](void* p) { std::free(p); }, at::kFloat), targets};
  }

  at::Tensor x = at::empty({n, width}, at::kFloat);
  float* px = x.data_ptr<float>();
  int64_t out_col = 0;
  for (std::size_t f = 0; f < l.features.size(); ++f) {
    const CsvColumn& col = t.columns[l.features[f]];
    const std::vector<std::string>& cats = l.categories[f];
    if (cats.empty()) {
      for (int64_t i = 0; i < n; ++i) px[i * width + out_col] = t.number(row(i), l.features[f]);
      ++out_col;
      continue;
    }
    const int64_t k = static_cast<int64_t>(cats.size());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = row(i);
      const std::string cell =
          col.numeric ? std::string() : col.text[r];  // numeric: never a known category
      const auto it = std::lower_bound(cats.begin(), cats.end(), cell);
      if (col.numeric || it == cats.end() || *it != cell)
        failCsv(t, cellAt(t, r, l.features[f]) + ": the category \"" +
                    (col.numeric ? formatNumber(t.number(r, l.features[f])) : cell) +
                    "\" does not occur in the training table");
      for (int64_t j = 0; j < k; ++j) px[i * width + out_col + j] = 0.0f;
      px[i * width + out_col + (it - cats.begin())] = 1.0f;
    }
    out_col += k;
  }
  return {x, targets};
}

CsvReadOptions readOptions(const CsvConfig& c) {
  CsvReadOptions o;
  o.header = c.header;
  o.delimiter = c.delimiter == "tab" ? "\t" : c.delimiter;
  o.missing = c.missing;
  return o;
}

/// A validation or test table, read as the training table was and checked against it.
TensorPair readOther(const std::string& file, const CsvTable& train, const Layout& l,
                     const CsvConfig& c, std::vector<std::string>& notes) {
  CsvReadOptions o = readOptions(c);
  o.header = train.header ? "yes" : "no";
  o.delimiter = std::string(1, train.delimiter);
  CsvTable t = readCsv(file, o);
  bool same = t.columns.size() == train.columns.size();
  for (std::size_t i = 0; same && train.header && i < t.columns.size(); ++i)
    same = t.columns[i].name == train.columns[i].name;
  if (!same)
    failCsv(t, "its columns (" + columnList(t) + ") differ from those of the training table " +
                train.file + " (" + columnList(train) + ")");
  int64_t dropped = 0;
  const std::vector<int64_t> rows = keptRows(t, l, c, dropped);
  if (dropped > 0)
    notes.push_back(file + ": " + std::to_string(dropped) + " rows with missing values dropped");
  if (dropped > 0)
    if (std::string n = droppedTargetNote(t, l); !n.empty()) notes.push_back(std::move(n));
  return encode(t, l, rows);
}

}  // namespace

void loadCsvSource(const DataConfig& config, SourceData& out) {
  const CsvConfig& c = config.csv;
  if (!c.path)
    throw Error(ErrorCode::Config, "data.csv.path", "data.source is csv: set data.csv.path");
  CsvTable table = readCsv(*c.path, readOptions(c));
  // The header decision, said with the key that overrides it (a header of numeric
  // names over a text column was read as a data row without a word).
  std::string names;
  for (size_t i = 0; i < table.columns.size() && i < 8; ++i)
    names += (i ? ", " : "") + table.columns[i].name;
  if (table.columns.size() > 8) names += ", ...";
  out.notes.push_back(
      *c.path + (table.header ? kCsvHeaderNote + std::string(" (columns ") + names +
                                    "), data.csv.header " + c.header +
                                    "; set data.csv.header=no if it is a data row"
                              : kCsvNoHeaderNote + std::string(" (columns ") + names +
                                    "), data.csv.header " + c.header +
                                    "; set data.csv.header=yes if line 1 names the columns"));
  const Layout layout = decideLayout(table, c);
  int64_t dropped = 0;
  const std::vector<int64_t> rows = keptRows(table, layout, c, dropped);
  if (dropped > 0)
    out.notes.push_back(*c.path + ": " + std::to_string(dropped) + " of " +
                        std::to_string(table.rows) + " rows with missing values dropped");
  if (dropped > 0)
    if (std::string n = droppedTargetNote(table, layout); !n.empty())
      out.notes.push_back(std::move(n));
  out.pool = encode(table, layout, rows);
  if (!rows.empty()) out.pool_rows = at::tensor(rows, at::kLong);
  out.pool_file = *c.path;
  if (c.val_path) {
    out.val = readOther(*c.val_path, table, layout, c, out.notes);
    out.val_file = *c.val_path;
  }
  if (c.test_path) {
    out.test = readOther(*c.test_path, table, layout, c, out.notes);
    out.test_file = *c.test_path;
  }
  out.classification = layout.classification;
  out.class_names = layout.class_names;
  out.feature_names = layout.feature_names;
}

}  // namespace trainscope

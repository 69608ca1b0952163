#pragma once
// Reading a run directory back in tests (core, CLI and GUI suites alike): CSV files, JSON
// objects, text. Header-only, Qt Core only.
#include <QtCore/QByteArray>
#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QVector>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace testfiles {

inline QString qpath(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

/// A parsed CSV file: header names and rows of cells (no quoting: run files never quote).
struct Csv {
  QStringList header;
  QVector<QStringList> rows;
  int column(const QString& name) const { return header.indexOf(name); }
  QString cell(int row, const QString& name) const {
    const int c = column(name);
    return c >= 0 && c < rows[row].size() ? rows[row][c] : QString();
  }
  /// The cell as a double via strtod, which reads "nan", "inf", "-inf" like Python's float().
  double number(int row, const QString& name) const {
    const QByteArray s = cell(row, name).toUtf8();
    char* end = nullptr;
    const double v = std::strtod(s.constData(), &end);
    return (s.isEmpty() || *end != '\0') ? std::nan("") : v;
  }
};

inline std::optional<Csv> readCsv(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return std::nullopt;
  Csv csv;
  bool first = true;
  while (!f.atEnd()) {
    QString line = QString::fromUtf8(f.readLine());
    while (line.endsWith('\n') || line.endsWith('\r')) line.chop(1);
    if (line.isEmpty()) continue;
    const QStringList cells = line.split(',');
    if (first) {
      csv.header = cells;
      first = false;
    } else {
      csv.rows.push_back(cells);
    }
  }
  return csv;
}
inline std::optional<Csv> readCsv(const std::filesystem::path& path) {
  return readCsv(qpath(path));
}

/// The run files' wall-clock columns, the only cells that differ between two runs of the same
/// config: metrics.csv's epoch_seconds and samples_per_second, steps.csv's data_wait (the
/// seconds a step waited for its batches), layers.csv's elapsed_seconds.
inline const QStringList& wallClockColumns() {
  static const QStringList columns = {QStringLiteral("epoch_seconds"),
                                      QStringLiteral("samples_per_second"),
                                      QStringLiteral("elapsed_seconds"), QStringLiteral("data_wait")};
  return columns;
}

/// `path` read as readCsv does, without the wall-clock columns.
inline std::optional<Csv> readCsvValues(const std::filesystem::path& path) {
  auto csv = readCsv(qpath(path));
  if (!csv) return csv;
  QList<int> keep;
  for (int i = 0; i < csv->header.size(); ++i)
    if (!wallClockColumns().contains(csv->header[i])) keep << i;
  Csv out;
  for (int i : keep) out.header << csv->header[i];
  for (const QStringList& row : csv->rows) {
    QStringList cells;
    for (int i : keep) cells << row.value(i);
    out.rows.push_back(cells);
  }
  return out;
}

/// Why two run CSV files (steps.csv, metrics.csv, layers.csv) differ in anything but their
/// wall-clock columns (wallClockColumns()), or "" when they
/// agree: the header, the row count, each row's cell count and every other cell to the letter,
/// over the first `max_rows` rows (< 0: all).
inline QString csvDifference(const QString& a, const QString& b, int max_rows = -1) {
  const auto x = readCsv(a), y = readCsv(b);
  if (!x || !y) return QStringLiteral("cannot read ") + (x ? b : a);
  if (x->header != y->header)
    return QStringLiteral("%1: header %2 vs %3").arg(b, x->header.join(','), y->header.join(','));
  if (x->rows.size() != y->rows.size())
    return QStringLiteral("%1: %2 rows vs %3").arg(b).arg(x->rows.size()).arg(y->rows.size());
  const int wall[] = {x->column(wallClockColumns()[0]), x->column(wallClockColumns()[1]),
                      x->column(wallClockColumns()[2]), x->column(wallClockColumns()[3])};
  const int rows = max_rows < 0 ? x->rows.size() : std::min<int>(max_rows, x->rows.size());
  for (int r = 0; r < rows; ++r) {
    if (x->rows[r].size() != y->rows[r].size())
      return QStringLiteral("%1 row %2: %3 cells vs %4")
          .arg(b)
          .arg(r)
          .arg(x->rows[r].size())
          .arg(y->rows[r].size());
    for (int k = 0; k < x->rows[r].size(); ++k) {
      if (k == wall[0] || k == wall[1] || k == wall[2] || k == wall[3]) continue;
      if (x->rows[r][k] != y->rows[r][k])
        return QStringLiteral("%1 row %2 column %3: %4 vs %5")
            .arg(b)
            .arg(r)
            .arg(x->header[k], x->rows[r][k], y->rows[r][k]);
    }
  }
  return {};
}
inline QString csvDifference(const std::filesystem::path& a, const std::filesystem::path& b,
                             int max_rows = -1) {
  return csvDifference(qpath(a), qpath(b), max_rows);
}

inline QJsonObject readJsonObject(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object();
}

/// Lines of a text file (without line ends, empty lines dropped).
inline QStringList readLines(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return {};
  QStringList lines;
  while (!f.atEnd()) {
    QString line = QString::fromUtf8(f.readLine()).trimmed();
    if (!line.isEmpty()) lines << line;
  }
  return lines;
}

/// The whole file as bytes (empty when unreadable).
inline std::string readText(const std::filesystem::path& path) {
  QFile f(qpath(path));
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll().toStdString();
}

}  // namespace testfiles

/// Fails the test with the first difference csvDifference finds between two run CSV files.
#define COMPARE_RUN_CSV(a, b)                                    \
  do {                                                           \
    const QString why_ = testfiles::csvDifference((a), (b));     \
    QVERIFY2(why_.isEmpty(), qPrintable(why_));                  \
  } while (false)

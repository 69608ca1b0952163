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

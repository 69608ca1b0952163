#pragma once
// Helpers for the end-to-end tests of trainscope-cli: run the built binary with QProcess, read
// the CSV and JSON files of a run directory. Header-only, Qt Core only.
#include <QtCore/QByteArray>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QVector>
#include <cmath>
#include <cstdlib>
#include <optional>

#ifndef TRAINSCOPE_CLI_PATH
#error "TRAINSCOPE_CLI_PATH must name the built trainscope-cli"
#endif

namespace clitest {

/// What one run of the CLI produced.
struct CliResult {
  bool started = false;
  bool finished = false;
  QProcess::ExitStatus status = QProcess::NormalExit;
  int exit_code = -1;
  QByteArray out, err;
};

inline QString cliPath() { return QStringLiteral(TRAINSCOPE_CLI_PATH); }

/// Runs trainscope-cli with `args` in `work_dir` and waits up to `timeout_ms`.
inline CliResult runCli(const QStringList& args, const QString& work_dir = QString(),
                        int timeout_ms = 120000) {
  CliResult r;
  QProcess p;
  if (!work_dir.isEmpty()) p.setWorkingDirectory(work_dir);
  p.start(cliPath(), args);
  r.started = p.waitForStarted(10000);
  if (!r.started) return r;
  r.finished = p.waitForFinished(timeout_ms);
  if (!r.finished) {
    p.kill();
    p.waitForFinished(5000);
  }
  r.status = p.exitStatus();
  r.exit_code = p.exitCode();
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

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

/// The JSON value at a dotted path ("training.seed"), undefined when absent.
inline QJsonValue at(const QJsonObject& obj, const QString& dotted) {
  QJsonValue v = obj;
  for (const QString& part : dotted.split('.')) {
    if (!v.isObject()) return QJsonValue(QJsonValue::Undefined);
    v = v.toObject().value(part);
  }
  return v;
}

/// First value found under `key` anywhere in `obj` (depth-first), undefined when absent.
inline QJsonValue findKey(const QJsonObject& obj, const QString& key) {
  if (obj.contains(key)) return obj.value(key);
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (it->isObject()) {
      QJsonValue v = findKey(it->toObject(), key);
      if (!v.isUndefined()) return v;
    }
  }
  return QJsonValue(QJsonValue::Undefined);
}

/// Message for QVERIFY2 with the process output, so failures show what the CLI said.
inline QByteArray describe(const CliResult& r) {
  return "exit " + QByteArray::number(r.exit_code) +
         (r.status == QProcess::CrashExit ? " (crashed)" : "") +
         (r.finished ? "" : " (timed out)") + "\nstderr:\n" + r.err.right(4000) + "\nstdout:\n" +
         r.out.right(2000);
}

}  // namespace clitest

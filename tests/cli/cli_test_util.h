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

#include "run_files.h"

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

// Run-directory readers shared with the other suites.
using testfiles::Csv;
using testfiles::readCsv;
using testfiles::readJsonObject;
using testfiles::readLines;

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

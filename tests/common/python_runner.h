#pragma once
// Runs the reference Python for the suites that compare against it: Debian's /usr/bin/python3
// with torch 1.13, torchvision, numpy and scikit-learn (TRAINSCOPE_TEST_PYTHON; the first
// python3 on PATH may lack them). Header-only, Qt Core only.
#include <QtCore/QByteArray>
#include <QtCore/QDir>
#include <QtCore/QProcess>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QTemporaryFile>

namespace testpython {

/// The interpreter's path.
inline QString interpreter() {
#ifdef TRAINSCOPE_TEST_PYTHON
  return QStringLiteral(TRAINSCOPE_TEST_PYTHON);
#else
  return QStringLiteral("/usr/bin/python3");
#endif
}

/// What a Python process did.
struct Result {
  bool ok = false;      ///< started, finished in time and exited with 0
  bool finished = false;  ///< started and finished in time (any exit)
  int exit_code = -1;   ///< -1 when it did not start or finish
  QByteArray out, err;  ///< its stdout and stderr
  /// Why it is not ok ("did not start", "timed out after 120 s", "exit 1: <stderr>"), for
  /// QVERIFY2; empty when ok.
  QString why;
  /// stdout split into lines, empty lines left out.
  QStringList lines() const { return QString::fromUtf8(out).split('\n', Qt::SkipEmptyParts); }
};

/// Runs the interpreter with `args` ({"-c", code, ...} or a script file and its arguments) in
/// `dir` (empty: this process's), with `input` on stdin, waiting at most `timeout_ms`.
inline Result run(const QStringList& args, int timeout_ms = 120000, const QString& dir = {},
                  const QByteArray& input = {}) {
  Result r;
  QProcess py;
  if (!dir.isEmpty()) py.setWorkingDirectory(dir);
  py.start(interpreter(), args);
  if (!py.waitForStarted(10000)) {
    r.why = interpreter() + " did not start";
    return r;
  }
  if (!input.isEmpty()) py.write(input);
  py.closeWriteChannel();
  if (!py.waitForFinished(timeout_ms)) {
    py.kill();
    py.waitForFinished(5000);
    r.why = QStringLiteral("timed out after %1 s").arg(timeout_ms / 1000);
    r.out = py.readAllStandardOutput();
    r.err = py.readAllStandardError();
    return r;
  }
  r.finished = true;
  r.out = py.readAllStandardOutput();
  r.err = py.readAllStandardError();
  r.exit_code = py.exitStatus() == QProcess::NormalExit ? py.exitCode() : -1;
  r.ok = r.exit_code == 0;
  if (!r.ok) r.why = QStringLiteral("exit %1: %2").arg(r.exit_code).arg(QString::fromUtf8(r.err));
  return r;
}

/// Runs `code` (python -c) with `args`.
inline Result script(const QString& code, const QStringList& args = {}, int timeout_ms = 120000) {
  return run(QStringList{QStringLiteral("-c"), code} + args, timeout_ms);
}

/// Runs `code` from a temporary .py file (torch.jit.script reads the source of what it
/// compiles, which `-c` does not keep) with `args`.
inline Result scriptFile(const QString& code, const QStringList& args = {},
                         int timeout_ms = 180000) {
  QTemporaryFile file(QDir::tempPath() + QStringLiteral("/trainscope-test-XXXXXX.py"));
  if (!file.open()) {
    Result r;
    r.why = QStringLiteral("cannot write the script to ") + QDir::tempPath();
    return r;
  }
  file.write(code.toUtf8());
  file.flush();
  return run(QStringList{file.fileName()} + args, timeout_ms);
}

/// Python's answer as stdout lines, or one line saying why it failed ("did not run: ...",
/// "failed: <stderr>"), which a comparison then shows.
inline QStringList answerLines(const Result& r) {
  if (r.ok) return r.lines();
  if (r.exit_code < 0) return {QStringLiteral("did not run: ") + r.why};
  return {QStringLiteral("failed: ") + QString::fromUtf8(r.err)};
}

}  // namespace testpython

// End-to-end: a resumed run's files hold the whole run wherever the resume is run
// from. The checkpoint's run directory is found from another working directory and after the
// run folder moved; steps.csv, metrics.csv and layers.csv start with the source's rows; a
// checkpoint whose run cannot be found says so. Row counts are counted in the source's files.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_test_util.h"

using namespace clitest;

class TstCliResumeFiles : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void resumeFromAnotherDirectory();
  void resumeAfterTheRunFolderMoved();
  void resumeWithoutItsRunSaysSo();

 private:
  /// Checks that `resumed` (trained to `epochs`) starts with `source`'s rows up to the
  /// checkpoint's step in steps.csv and layers.csv, then has the new steps.
  void checkResumed(const QString& source, const QString& resumed, int epochs);

  QTemporaryDir tmp_;
  QString work_, elsewhere_;
};

void TstCliResumeFiles::initTestCase() {
  QVERIFY(tmp_.isValid());
  work_ = tmp_.filePath("work");
  elsewhere_ = tmp_.filePath("elsewhere");
  QVERIFY(QDir().mkpath(work_) && QDir().mkpath(elsewhere_));
  // A relative --out, as a user types it: the checkpoint must not keep "src" relative.
  const CliResult r =
      runCli({"train", "--preset", "moons", "--epochs", "3", "--out", "src"}, work_);
  QVERIFY2(r.exit_code == 0, describe(r));
  QVERIFY(QFile::exists(work_ + "/src/checkpoints/last.pt"));
}

void TstCliResumeFiles::checkResumed(const QString& source, const QString& resumed, int epochs) {
  const auto src_steps = readCsv(source + "/steps.csv"), steps = readCsv(resumed + "/steps.csv");
  const auto src_metrics = readCsv(source + "/metrics.csv");
  QVERIFY(src_steps && steps && src_metrics);
  const qint64 from = at(readJsonObject(resumed + "/run.json"), "resumed_from.step").toInteger();
  const int src_epochs = src_metrics->rows.size();
  QVERIFY(from > 0 && src_epochs > 0);
  // The source's rows up to the checkpoint's step, counted there, and the new epochs' steps.
  int before = 0;
  for (int i = 0; i < src_steps->rows.size(); ++i)
    before += src_steps->cell(i, "step").toLongLong() <= from;
  const int per_epoch = src_steps->rows.size() / src_epochs;
  QCOMPARE(steps->rows.size(), before + (epochs - src_epochs) * per_epoch);
  for (int i = 0; i < steps->rows.size(); ++i) {
    QCOMPARE(steps->cell(i, "step").toLongLong(), qint64(i + 1));
    if (i < before) QCOMPARE(steps->rows[i], src_steps->rows[i]);
  }
  QCOMPARE(readCsv(resumed + "/metrics.csv")->rows.size(), epochs);
  // layers.csv: the rows before the resume step are the source's.
  const auto src_layers = readCsv(source + "/layers.csv"),
             layers = readCsv(resumed + "/layers.csv");
  QVERIFY(src_layers && layers);
  QCOMPARE(layers->header, src_layers->header);
  QStringList want, got;
  for (const QStringList& row : src_layers->rows)
    if (row.value(0).toLongLong() <= from) want << row.join(',');
  for (const QStringList& row : layers->rows)
    if (row.value(0).toLongLong() <= from) got << row.join(',');
  QVERIFY(!want.isEmpty());
  QCOMPARE(got, want);
  QVERIFY(layers->rows.size() > want.size());  // and the resumed steps' rows after them
}

void TstCliResumeFiles::resumeFromAnotherDirectory() {
  const CliResult r = runCli(
      {"train", "--resume", "../work/src/checkpoints/last.pt", "--epochs", "5", "--out", "r1"},
      elsewhere_);
  QVERIFY2(r.exit_code == 0, describe(r));
  QVERIFY2(!r.err.contains("was not found"), describe(r));
  checkResumed(work_ + "/src", elsewhere_ + "/r1", 5);
}

void TstCliResumeFiles::resumeAfterTheRunFolderMoved() {
  // The recorded folder is gone; the checkpoint lies in <run>/checkpoints/: that run is used.
  QVERIFY(QDir().rename(work_ + "/src", work_ + "/moved"));
  const CliResult r = runCli(
      {"train", "--resume", "../work/moved/checkpoints/last.pt", "--epochs", "4", "--out", "r2"},
      elsewhere_);
  QVERIFY(QDir().rename(work_ + "/moved", work_ + "/src"));
  QVERIFY2(r.exit_code == 0, describe(r));
  QVERIFY2(!r.err.contains("was not found"), describe(r));
  checkResumed(work_ + "/src", elsewhere_ + "/r2", 4);
}

void TstCliResumeFiles::resumeWithoutItsRunSaysSo() {
  // A copy of the checkpoint alone, its run folder moved away: the resume works and says
  // that the per-step history before the checkpoint is missing.
  const QString lone = tmp_.filePath("lone.pt");
  QVERIFY(QFile::copy(work_ + "/src/checkpoints/last.pt", lone));
  QVERIFY(QDir().rename(work_ + "/src", work_ + "/away"));
  const CliResult r =
      runCli({"train", "--resume", lone, "--epochs", "4", "--out", "r3"}, elsewhere_);
  QVERIFY(QDir().rename(work_ + "/away", work_ + "/src"));
  QVERIFY2(r.exit_code == 0, describe(r));
  QVERIFY2(r.err.contains("was not found"), describe(r));
  QVERIFY2(r.err.contains(lone.toUtf8()), describe(r));
  bool event = false;
  for (const QString& line : readLines(elsewhere_ + "/r3/events.jsonl")) {
    const QJsonObject e = QJsonDocument::fromJson(line.toUtf8()).object();
    event = event || (e.value("kind").toString() == "checkpoint_loaded" &&
                      e.value("what").toString() == "source_run_missing");
  }
  QVERIFY(event);
  const auto steps = readCsv(elsewhere_ + "/r3/steps.csv");
  const auto src_steps = readCsv(work_ + "/src/steps.csv");
  QVERIFY(steps && src_steps);
  QCOMPARE(steps->rows.size(), src_steps->rows.size() / 3);           // the 4th epoch's steps only
  QCOMPARE(readCsv(elsewhere_ + "/r3/metrics.csv")->rows.size(), 4);  // from the history
}

QTEST_GUILESS_MAIN(TstCliResumeFiles)
#include "tst_cli_resume_files.moc"

// Path arguments that are not regular files (section 1 "Paths that are not regular
// files"): every front end that reads a file (inspect, train --resume, --init-weights,
// --config, verify-repro --checkpoint) refuses a directory, a FIFO, a character device, a
// missing file and an empty path at once with exit 2, naming the path and what it is. Before,
// a FIFO blocked forever (ignoring SIGINT/SIGTERM), /dev/zero grew to 2.2 GB and a directory
// gave exit 1, and `train --resume ""` trained a fresh run with exit 0. A large file that is
// not a zip archive is refused from its first bytes.
#include <sys/stat.h>
#include <sys/types.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_test_util.h"

using namespace clitest;

class TstCliPaths : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void notRegularFilesAreRefusedAtOnce_data();
  void notRegularFilesAreRefusedAtOnce();
  void emptyPathsAreUsageErrors_data();
  void emptyPathsAreUsageErrors();
  void aLargeNonZipFileIsRefusedFromItsFirstBytes();

 private:
  QTemporaryDir dir_;
  QString fifo_, folder_;
};

void TstCliPaths::initTestCase() {
  QVERIFY(dir_.isValid());
  fifo_ = dir_.filePath("pipe.pt");
  QCOMPARE(::mkfifo(QFile::encodeName(fifo_).constData(), 0600), 0);
  folder_ = dir_.filePath("folder.pt");
  QVERIFY(QDir().mkpath(folder_));
}

void TstCliPaths::notRegularFilesAreRefusedAtOnce_data() {
  QTest::addColumn<QStringList>("front");  // the arguments before the path
  QTest::addColumn<QString>("kind");       // fifo, dir, chardev, missing
  QTest::addColumn<QString>("says");
  const QList<QStringList> fronts = {{"inspect"},
                                     {"train", "--resume"},
                                     {"train", "--preset", "moons", "--init-weights"},
                                     {"train", "--config"},
                                     {"verify-repro", "--checkpoint"}};
  const QList<QPair<QString, QString>> kinds = {{"fifo", "a FIFO (named pipe)"},
                                                {"dir", "a directory"},
                                                {"chardev", "a character device"},
                                                {"missing", "no such file"}};
  for (const QStringList& f : fronts)
    for (const auto& [kind, says] : kinds)
      QTest::newRow(qPrintable(f.join(' ') + " " + kind)) << f << kind << says;
}

void TstCliPaths::notRegularFilesAreRefusedAtOnce() {
  QFETCH(QStringList, front);
  QFETCH(QString, kind);
  QFETCH(QString, says);
  const QString path = kind == "fifo"      ? fifo_
                       : kind == "dir"     ? folder_
                       : kind == "chardev" ? QStringLiteral("/dev/zero")
                                           : dir_.filePath("missing.pt");
  QStringList args = front;
  args << path;
  if (front.first() == "train") args << "--out" << dir_.filePath("run-" + kind);
  // 20 s is far more than a refusal needs; a FIFO used to block until killed.
  const CliResult r = runCli(args, dir_.path(), 20000);
  QVERIFY2(r.finished, "still running after 20 s");
  QVERIFY2(r.exit_code == 2, describe(r).constData());
  QVERIFY2(r.err.contains(path.toUtf8()), r.err.constData());
  QVERIFY2(r.err.contains(says.toUtf8()), r.err.constData());
  QVERIFY(!QFileInfo::exists(dir_.filePath("run-" + kind)));  // nothing was started
}

void TstCliPaths::emptyPathsAreUsageErrors_data() {
  QTest::addColumn<QStringList>("args");
  QTest::newRow("inspect") << QStringList{"inspect", ""};
  QTest::newRow("train --resume") << QStringList{"train", "--resume", ""};
  QTest::newRow("train --config") << QStringList{"train", "--config", ""};
  QTest::newRow("train --init-weights") << QStringList{"train", "--init-weights", ""};
  QTest::newRow("train --out") << QStringList{"train", "--out", ""};
  QTest::newRow("train --replay") << QStringList{"train", "--replay", ""};
  QTest::newRow("verify-repro --checkpoint") << QStringList{"verify-repro", "--checkpoint", ""};
  QTest::newRow("lr-find --config") << QStringList{"lr-find", "--config", ""};
}

void TstCliPaths::emptyPathsAreUsageErrors() {
  QFETCH(QStringList, args);
  const CliResult r = runCli(args, dir_.path(), 20000);
  QVERIFY2(r.finished, "still running after 20 s");
  QVERIFY2(r.exit_code == 2, describe(r).constData());
  QVERIFY2(r.err.contains("an empty path"), r.err.constData());
  QVERIFY(QDir(dir_.path()).entryList({"runs"}, QDir::Dirs).isEmpty());  // no run was started
}

void TstCliPaths::aLargeNonZipFileIsRefusedFromItsFirstBytes() {
  // 256 MiB of a CSV-like text: refused as "not a PyTorch zip file", quoting its start. Its
  // whole content is not needed (and is not read: the message comes from the first bytes).
  const QString big = dir_.filePath("big.csv");
  {
    QFile f(big);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QByteArray rows = "a,b,c\n";
    while (rows.size() < (1 << 20)) rows += "1,2,3\n";
    f.write(rows);
    QVERIFY(f.resize(qint64{256} << 20));  // the rest: a sparse tail
  }
  for (const QStringList& front :
       {QStringList{"inspect"}, QStringList{"train", "--preset", "moons", "--init-weights"}}) {
    QStringList args = front;
    args << big;
    const CliResult r = runCli(args, dir_.path(), 60000);
    QVERIFY2(r.exit_code == 2, describe(r).constData());
    QVERIFY2(r.err.contains("not a zip archive"), r.err.constData());
    QVERIFY2(r.err.contains("a,b,c"), r.err.constData());
  }
}

QTEST_GUILESS_MAIN(TstCliPaths)
#include "tst_cli_paths.moc"

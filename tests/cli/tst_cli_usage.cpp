// End-to-end tests of trainscope-cli's interface: exit codes for bad input, --out handling,
// --json output, the presets/device/--version commands.
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtTest/QtTest>
#include <cmath>

#include "cli_test_util.h"

using namespace clitest;

class TstCliUsage : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void badInputExitsTwo_data();
  void badInputExitsTwo();
  void nonEmptyOutIsRefused();
  void overwriteReplacesRunDirectory();
  void overwriteRefusesUserFolder_data();
  void overwriteRefusesUserFolder();
  void defaultRunDirectory();
  void jsonLinesOnStdout();
  void presetsAreListed();
  void deviceJson();
  void deviceSaysWhatAutoThreadsDo();
  void versionAndHelp();
};

void TstCliUsage::badInputExitsTwo_data() {
  QTest::addColumn<QStringList>("args");
  QTest::addColumn<QString>("mentions");  // what stderr must name
  QTest::newRow("unknown flag") << QStringList{"train", "--bogus"} << "--bogus";
  QTest::newRow("unknown top-level flag") << QStringList{"--bogus"} << "--bogus";
  QTest::newRow("unknown command") << QStringList{"bogus"} << "bogus";
  QTest::newRow("bad key") << QStringList{"train", "--set", "training.bogus=1"} << "training.bogus";
  QTest::newRow("bad value") << QStringList{"train", "--set", "training.batch_size=0"}
                             << "training.batch_size";
  QTest::newRow("malformed --set")
      << QStringList{"train", "--set", "training.epochs"} << "training.epochs";
  QTest::newRow("epochs 0") << QStringList{"train", "--epochs", "0"} << "training.epochs";
  QTest::newRow("epochs not a number") << QStringList{"train", "--epochs", "many"} << "--epochs";
  QTest::newRow("unknown preset") << QStringList{"train", "--preset", "nope"} << "nope";
  QTest::newRow("data.path with a generated source")
      << QStringList{"train", "--preset", "moons", "--set", "data.path=/tmp"} << "data.path";
  QTest::newRow("missing config file")
      << QStringList{"train", "--config", "/nonexistent/trainscope.json"}
      << "/nonexistent/trainscope.json";
}

void TstCliUsage::badInputExitsTwo() {
  QFETCH(QStringList, args);
  QFETCH(QString, mentions);
  QTemporaryDir tmp;  // as working directory: nothing may be written there
  QVERIFY(tmp.isValid());
  const CliResult r = runCli(args, tmp.path());
  QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 2, describe(r));
  QVERIFY2(r.err.contains(mentions.toUtf8()), describe(r));
  QVERIFY2(r.out.isEmpty(), describe(r));
  QVERIFY2(!QFileInfo::exists(tmp.filePath("runs")) ||
               QDir(tmp.filePath("runs")).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot),
           "bad input must not leave a run directory behind");
}

void TstCliUsage::nonEmptyOutIsRefused() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("taken");
  QVERIFY(QDir().mkpath(out));
  QFile keep(out + "/keep.txt");
  QVERIFY(keep.open(QIODevice::WriteOnly));
  keep.write("precious\n");
  keep.close();
  const CliResult r = runCli({"train", "--epochs", "1", "--out", out});
  QVERIFY2(r.exit_code == 2, describe(r));
  QVERIFY2(r.err.contains("--overwrite"), describe(r));
  QVERIFY(QFileInfo::exists(out + "/keep.txt"));
  QVERIFY(!QFileInfo::exists(out + "/config.json"));
}

namespace {

void writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
  f.write(bytes);
}

}  // namespace

void TstCliUsage::overwriteReplacesRunDirectory() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("old-run");
  const CliResult first = runCli({"train", "--epochs", "1", "--out", out});
  QVERIFY2(first.exit_code == 0, describe(first));
  QVERIFY(QFileInfo::exists(out + "/checkpoints/last.pt"));
  // A checkpoint saved under a name of the user's choosing (the dashboard's Save...) and the
  // temp file of an interrupted write are a run's files too.
  QVERIFY(QFile::copy(out + "/checkpoints/last.pt", out + "/checkpoints/step-20.pt"));
  writeFile(out + "/.summary.json.tmp-Ab12Cd", "{");
  const CliResult r = runCli({"train", "--epochs", "2", "--out", out, "--overwrite"});
  QVERIFY2(r.exit_code == 0, describe(r));
  const auto metrics = readCsv(out + "/metrics.csv");
  QVERIFY(metrics);
  QCOMPARE(metrics->rows.size(), 2);  // replaced, not appended to (1 + 2 rows)
  QCOMPARE(metrics->header.value(0), QString("epoch"));
  QVERIFY(!QFileInfo::exists(out + "/checkpoints/step-20.pt"));
  QVERIFY(!QFileInfo::exists(out + "/.summary.json.tmp-Ab12Cd"));
}

void TstCliUsage::overwriteRefusesUserFolder_data() {
  QTest::addColumn<QString>("base");   // an "empty" folder, a real "run", or one "with config"
  QTest::addColumn<QString>("extra");  // the user's file (relative), written with "x\n"
  QTest::addColumn<QString>("named");  // what stderr must name (relative to --out)
  QTest::newRow("thesis") << "empty"
                          << "thesis.tex"
                          << "thesis.tex";
  QTest::newRow("run folder with a user file") << "run"
                                               << "notes.txt"
                                               << "notes.txt";
  QTest::newRow("user file in checkpoints") << "run"
                                            << "checkpoints/weights.pth"
                                            << "checkpoints/weights.pth";
  QTest::newRow("user subfolder") << "run"
                                  << "plots/loss.png"
                                  << "plots";
  // config.json and a run.json that TrainScope did not write
  QTest::newRow("look-alike run.json") << "with config"
                                       << "run.json"
                                       << "run.json";
}

void TstCliUsage::overwriteRefusesUserFolder() {
  QFETCH(QString, base);
  QFETCH(QString, extra);
  QFETCH(QString, named);
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("p");
  const bool from_a_run = base == "run";
  if (from_a_run) {
    const CliResult first = runCli({"train", "--epochs", "1", "--out", out});
    QVERIFY2(first.exit_code == 0, describe(first));
  } else {
    QVERIFY(QDir().mkpath(out));
  }
  if (base == "with config") writeFile(out + "/config.json", "{}\n");
  QVERIFY(QDir().mkpath(QFileInfo(out + "/" + extra).path()));
  writeFile(out + "/" + extra, "x\n");
  const QStringList before =
      QDir(out).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
  const CliResult r = runCli({"train", "--epochs", "2", "--out", out, "--overwrite"});
  QVERIFY2(r.exit_code == 2, describe(r));
  QVERIFY2(r.err.contains((out + "/" + named).toUtf8()), describe(r));
  QVERIFY2(r.err.contains("not a TrainScope run directory"), describe(r));
  // Nothing touched: the user's file, and the run's own files as they were.
  QFile f(out + "/" + extra);
  QVERIFY(f.open(QIODevice::ReadOnly));
  QCOMPARE(f.readAll(), QByteArray("x\n"));
  QCOMPARE(QDir(out).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), before);
  if (from_a_run) {
    const auto metrics = readCsv(out + "/metrics.csv");
    QVERIFY(metrics);
    QCOMPARE(metrics->rows.size(), 1);
    QVERIFY(QFileInfo::exists(out + "/checkpoints/last.pt"));
  }
}

void TstCliUsage::defaultRunDirectory() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  // No --preset and no --config: the default preset overfit-sine; no --out: runs/<name>-<time>.
  for (int i = 0; i < 2; ++i) {
    const CliResult r = runCli({"train", "--epochs", "1"}, tmp.path());
    QVERIFY2(r.exit_code == 0, describe(r));
  }
  const QStringList dirs =
      QDir(tmp.filePath("runs")).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
  QCOMPARE(dirs.size(), 2);  // never reused, even within the same second
  const QRegularExpression pattern("^overfit-sine-\\d{8}-\\d{6}(-\\d+)?$");
  for (const QString& d : dirs) {
    QVERIFY2(pattern.match(d).hasMatch(), qPrintable(d));
    QVERIFY(QFileInfo::exists(tmp.filePath("runs/" + d + "/summary.json")));
  }
}

void TstCliUsage::jsonLinesOnStdout() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString out = tmp.filePath("json");
  const CliResult r = runCli({"train", "--epochs", "3", "--json", "--out", out});
  QVERIFY2(r.exit_code == 0, describe(r));
  const QList<QByteArray> lines = r.out.trimmed().split('\n');
  QCOMPARE(lines.size(), 4);  // 3 epochs, then the summary
  const auto metrics = readCsv(out + "/metrics.csv");
  QVERIFY(metrics);
  QCOMPARE(metrics->rows.size(), 3);
  // The last line: summary.json's object with "type": "summary".
  QJsonObject summary = QJsonDocument::fromJson(lines.last()).object();
  QCOMPARE(summary.value("type").toString(), QString("summary"));
  summary.remove("type");
  QCOMPARE(summary, readJsonObject(out + "/summary.json"));
  for (int i = 0; i < 3; ++i) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(lines[i], &err);
    QVERIFY2(err.error == QJsonParseError::NoError && doc.isObject(), lines[i].constData());
    const QJsonObject o = doc.object();
    QCOMPARE(o.value("epoch").toInteger(), int64_t(i + 1));
    QCOMPARE(o.value("step").toInteger(), metrics->cell(i, "step").toLongLong());
    // Same numbers as metrics.csv (which has 9 significant digits).
    for (const char* key : {"train_loss", "val_loss", "lr"}) {
      const double a = o.value(key).toDouble(), b = metrics->number(i, key);
      QVERIFY2(std::fabs(a - b) <= 1e-7 * std::max(1.0, std::fabs(b)), key);
    }
    QVERIFY(o.contains("epoch_seconds") && o.contains("samples_per_second"));
    QVERIFY(o.value("val_accuracy").isNull());  // regression
  }
  // Progress and the summary line stay on stderr.
  QVERIFY(r.err.contains("completed"));
}

void TstCliUsage::presetsAreListed() {
  const CliResult r = runCli({"presets"});
  QVERIFY2(r.exit_code == 0, describe(r));
  const QStringList lines = QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
  for (const QString name : {"overfit-sine", "moons", "fashion-mnist-mlp"}) {
    bool listed = false;
    for (const QString& line : lines) {
      // name, then a one-line description
      if (line.startsWith(name + " ") && line.mid(name.size()).trimmed().size() > 10) listed = true;
    }
    QVERIFY2(listed, qPrintable(name + " in:\n" + r.out));
  }
}

void TstCliUsage::deviceJson() {
  const CliResult r = runCli({"device", "--json"});
  QVERIFY2(r.exit_code == 0, describe(r));
  QJsonParseError err{};
  const QJsonDocument doc = QJsonDocument::fromJson(r.out, &err);
  QVERIFY2(err.error == QJsonParseError::NoError && doc.isObject(), r.out.constData());
  const QString torch = doc.object().value("torch_version").toString();
  QVERIFY2(torch.startsWith("1.") || torch.startsWith("2."), r.out.constData());

  const CliResult text = runCli({"device"});
  QVERIFY2(text.exit_code == 0, describe(text));
  QVERIFY(text.out.contains(torch.toUtf8()));
}

void TstCliUsage::deviceSaysWhatAutoThreadsDo() {
  // training.num_threads "auto" (the default) times 1, 2, 4, ... threads up to the logical
  // cores (or OMP_NUM_THREADS) at the start of each run; `device` says so, not "N threads by
  // default".
  auto deviceText = [](const QString& omp) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("OMP_NUM_THREADS");
    if (!omp.isEmpty()) env.insert("OMP_NUM_THREADS", omp);
    p.setProcessEnvironment(env);
    p.start(cliPath(), {"device"});
    p.waitForFinished(60000);
    return QString::fromUtf8(p.readAllStandardOutput());
  };
  const QString plain = deviceText("");
  const QString cores = QString::number(QThread::idealThreadCount());
  QVERIFY2(plain.contains("threads         auto by default"), qPrintable(plain));
  QVERIFY2(plain.contains("at the start of each run"), qPrintable(plain));
  QVERIFY2(plain.contains("up to " + cores + " thread"), qPrintable(plain));
  QVERIFY2(plain.contains("logical cores"), qPrintable(plain));
  QVERIFY2(!plain.contains("per run by default"), qPrintable(plain));
  const QString omp = deviceText("3");
  QVERIFY2(omp.contains("up to 3 threads (OMP_NUM_THREADS)"), qPrintable(omp));
}

void TstCliUsage::versionAndHelp() {
  const CliResult v = runCli({"--version"});
  QVERIFY2(v.exit_code == 0, describe(v));
  // Names both versions; libtorch's as `device --json` reports it.
  const CliResult d = runCli({"device", "--json"});
  const QJsonObject info = QJsonDocument::fromJson(d.out).object();
  QVERIFY2(v.out.contains(info.value("trainscope_version").toString().toUtf8()), v.out.constData());
  QVERIFY2(v.out.contains(info.value("torch_version").toString().toUtf8()), v.out.constData());

  const CliResult h = runCli({"--help"});
  QVERIFY2(h.exit_code == 0, describe(h));
  for (const char* word : {"train", "presets", "device"}) QVERIFY(h.out.contains(word));
  const CliResult th = runCli({"train", "--help"});
  QVERIFY2(th.exit_code == 0, describe(th));
  for (const char* word :
       {"--preset", "--config", "--set", "--epochs", "--out", "--overwrite", "--json"})
    QVERIFY2(th.out.contains(word), word);
  // Exit 3 covers a divergence stop too (StopReason::Diverged); CLI11 wraps the footer.
  const QString help = QString::fromUtf8(th.out).simplified();
  QVERIFY2(help.contains("3 stopped on a non-finite loss or gradient, or on a divergence"),
           th.out.constData());

  // trainscope-cli is a thin front (cli/front/main.cpp): its --help and --version texts are the
  // engine's, byte for byte, and every other command line reaches the engine unchanged, exit
  // code included (2 for a bad flag, 0 for `presets`).
  const QString engine = QFileInfo(cliPath()).absolutePath() + "/trainscope-cli-engine";
  for (const char* flag : {"--help", "--version"}) {
    QProcess p;
    p.start(engine, {flag});
    QVERIFY(p.waitForFinished(60000));
    const QByteArray direct = p.readAllStandardOutput();
    QCOMPARE(p.exitCode(), 0);
    const CliResult front = runCli({flag});
    QCOMPARE(front.exit_code, 0);
    QVERIFY2(front.out == direct, flag);
  }
  QCOMPARE(runCli({"--no-such-flag"}).exit_code, 2);
  const CliResult listed = runCli({"presets"});
  QCOMPARE(listed.exit_code, 0);
  QVERIFY(listed.out.contains("overfit-sine"));
}

QTEST_GUILESS_MAIN(TstCliUsage)
#include "tst_cli_usage.moc"

// End-to-end: `config --keys` (text, --json, --markdown) lists every config key from the key
// table, docs/config-keys.md is its current --markdown text, and `config`/`train` read a config
// file over the preset it names ("preset"), refusing a conflicting or unknown one.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "cli_test_util.h"

#ifndef TRAINSCOPE_SOURCE_DIR
#error "TRAINSCOPE_SOURCE_DIR must name the source tree"
#endif

using namespace clitest;

namespace {

/// "a.b.c" for every leaf of `obj` (QJsonObject sorts its keys).
void leafKeys(const QJsonObject& obj, const QString& prefix, QStringList& out) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const QString key = prefix.isEmpty() ? it.key() : prefix + "." + it.key();
    if (it->isObject()) {
      leafKeys(it->toObject(), key, out);
    } else {
      out << key;
    }
  }
}

void writeText(const QString& path, const QByteArray& text) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(text);
}

}  // namespace

class TstCliConfig : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void keysListEveryKey();
  void docsPageIsCurrent();
  void fileNamesItsBasePreset();
  void conflictingOrUnknownPresetExitsTwo();
  void trainRunsALessonFileAndItsConfigJsonReloads();
  void relativePathsResolveAgainstTheConfigFile();
};

void TstCliConfig::keysListEveryKey() {
  // The keys of the resolved config (`config` prints what `train` would use) are exactly the
  // keys --keys lists, each with a type, a default and a help text.
  const CliResult resolved = runCli({"config", "--preset", "moons"});
  QVERIFY2(resolved.exit_code == 0, describe(resolved));
  QStringList expected;
  leafKeys(QJsonDocument::fromJson(resolved.out).object(), "", expected);
  QVERIFY(expected.size() > 40);

  const CliResult j = runCli({"config", "--keys", "--json"});
  QVERIFY2(j.exit_code == 0, describe(j));
  const QJsonArray keys = QJsonDocument::fromJson(j.out).array();
  QStringList listed;
  for (const QJsonValue& k : keys) {
    const QJsonObject o = k.toObject();
    listed << o["key"].toString();
    QVERIFY2(!o["type"].toString().isEmpty() && o["help"].toString().size() > 5,
             qPrintable(o["key"].toString()));
    QVERIFY2(o.contains("default") && o.contains("allowed") && o.contains("choices"),
             qPrintable(o["key"].toString()));
  }
  listed.sort();
  expected.sort();
  QCOMPARE(listed, expected);
  // Two keys in full: a choice and a range.
  for (const QJsonValue& k : keys) {
    const QJsonObject o = k.toObject();
    if (o["key"] == "optimizer.name") {
      QCOMPARE(o["choices"].toArray(), (QJsonArray{"sgd", "adam", "adamw"}));
      QCOMPARE(o["default"].toString(), QString("adam"));  // TrainConfig's default
    }
    if (o["key"] == "data.val_fraction") {
      QCOMPARE(o["min"].toDouble(), 0.0);
      QVERIFY(o["min_exclusive"].toBool());
      QCOMPARE(o["max"].toDouble(), 1.0);
      QVERIFY(o["max_exclusive"].toBool());
      QCOMPARE(o["default"].toDouble(), 0.2);
    }
  }

  const CliResult text = runCli({"config", "--keys"});
  QVERIFY2(text.exit_code == 0, describe(text));
  for (const QString& key : expected)
    QVERIFY2(text.out.contains(key.toUtf8() + "  ("), qPrintable(key));
  QVERIFY2(text.out.contains("data.val_fraction  (number, default 0.2)"), text.out.constData());
  QVERIFY2(text.out.contains("allowed: 0 < x < 1"), text.out.constData());

  const CliResult both = runCli({"config", "--keys", "--json", "--markdown"});
  QCOMPARE(both.exit_code, 2);
}

void TstCliConfig::docsPageIsCurrent() {
  const CliResult r = runCli({"config", "--keys", "--markdown"});
  QVERIFY2(r.exit_code == 0, describe(r));
  QFile page(QStringLiteral(TRAINSCOPE_SOURCE_DIR "/docs/config-keys.md"));
  QVERIFY2(page.open(QIODevice::ReadOnly), "docs/config-keys.md is missing");
  const QByteArray on_disk = page.readAll();
  QVERIFY2(on_disk == r.out,
           "docs/config-keys.md is not the current key table: regenerate it with "
           "`build/release/cli/trainscope-cli config --keys --markdown > docs/config-keys.md`");
  for (const char* key : {"`data.source`", "`training.clip.max_norm`", "`scheduler.T_max`"})
    QVERIFY2(on_disk.contains(key), key);
}

void TstCliConfig::fileNamesItsBasePreset() {
  // A two-line lesson file on moons: the same config as --preset moons with that one change
  // (everything but the name, which the file gives).
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString lesson = tmp.filePath("lesson.json");
  writeText(lesson, R"({"preset": "moons",
                        "optimizer": {"lr": 0.05}})");
  const CliResult a = runCli({"config", "--config", lesson});
  QVERIFY2(a.exit_code == 0, describe(a));
  const CliResult b = runCli({"config", "--preset", "moons", "--set", "optimizer.lr=0.05"});
  QVERIFY2(b.exit_code == 0, describe(b));
  QJsonObject from_file = QJsonDocument::fromJson(a.out).object();
  QJsonObject from_preset = QJsonDocument::fromJson(b.out).object();
  QCOMPARE(from_file["name"].toString(), QString("lesson"));
  from_file.remove("name");
  from_preset.remove("name");
  QCOMPARE(from_file, from_preset);
  // --preset X --config Y layers Y on X (Y without "preset"); --set beats the file.
  const QString plain = tmp.filePath("plain.json");
  writeText(plain, R"({"training": {"epochs": 3, "batch_size": 8}})");
  const CliResult c =
      runCli({"config", "--preset", "circles", "--config", plain, "--set", "training.epochs=5"});
  QVERIFY2(c.exit_code == 0, describe(c));
  const QJsonObject layered = QJsonDocument::fromJson(c.out).object();
  QCOMPARE(at(layered, "data.source").toString(), QString("circles"));
  QCOMPARE(at(layered, "training.batch_size").toInt(), 8);
  QCOMPARE(at(layered, "training.epochs").toInt(), 5);
}

void TstCliConfig::conflictingOrUnknownPresetExitsTwo() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString lesson = tmp.filePath("lesson.json");
  writeText(lesson, R"({"preset": "moons"})");
  const QString typo = tmp.filePath("typo.json");
  writeText(typo, R"({"preset": "moonz", "training": {"epochs": 1}})");
  struct Case {
    QStringList args;
    QStringList mentions;
  };
  for (const Case& k :
       {Case{{"train", "--preset", "circles", "--config", lesson}, {"circles", "moons", lesson}},
        Case{{"config", "--preset", "circles", "--config", lesson}, {"circles", "moons"}},
        Case{{"train", "--config", typo}, {"moonz", typo}}}) {
    const CliResult r = runCli(k.args, tmp.path());
    QVERIFY2(r.exit_code == 2, describe(r));
    for (const QString& m : k.mentions) QVERIFY2(r.err.contains(m.toUtf8()), describe(r));
    QVERIFY2(!QFileInfo::exists(tmp.filePath("runs")), describe(r));
  }
}

void TstCliConfig::trainRunsALessonFileAndItsConfigJsonReloads() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString lesson = tmp.filePath("lesson.json");
  writeText(lesson, R"({"preset": "moons", "training": {"epochs": 1}})");
  const QString out = tmp.filePath("run");
  const CliResult r = runCli({"train", "--config", lesson, "--out", out});
  QVERIFY2(r.exit_code == 0, describe(r));
  const QJsonObject saved = readJsonObject(out + "/config.json");
  QVERIFY(!saved.contains("preset"));  // fully resolved
  QCOMPARE(at(saved, "data.source").toString(), QString("moons"));
  QCOMPARE(at(saved, "data.n_samples").toInt(), 1000);  // moons', not the default 200
  QCOMPARE(at(saved, "training.epochs").toInt(), 1);
  // config.json loads again, to itself.
  const CliResult again = runCli({"config", "--config", out + "/config.json"});
  QVERIFY2(again.exit_code == 0, describe(again));
  QCOMPARE(QJsonDocument::fromJson(again.out).object(), saved);
}

void TstCliConfig::relativePathsResolveAgainstTheConfigFile() {
  // Issue 43: a config's relative paths resolved against the working directory, so a config
  // could not be used from another folder. Now: against the file's folder (as CMake and Docker
  // Compose do); a relative --set stays relative to the working directory.
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  QVERIFY(QDir(tmp.path()).mkpath("project/data") && QDir(tmp.path()).mkpath("elsewhere"));
  QByteArray csv = "a,b,label\n";
  for (int i = 0; i < 60; ++i)
    csv += QByteArray::number(i % 7) + "," + QByteArray::number(i % 5) + "," +
           (i % 2 ? "yes" : "no") + "\n";
  writeText(tmp.filePath("project/data/t.csv"), csv);
  writeText(tmp.filePath("project/cfg.json"),
            R"({"preset": "moons", "data": {"source": "csv", "csv": {"path": "data/t.csv",
               "target": "label"}}})");
  // `config` from another working directory prints the path the file meant, absolute.
  const CliResult r = runCli({"config", "--config", "../project/cfg.json"}, tmp.filePath("elsewhere"));
  QVERIFY2(r.exit_code == 0, describe(r));
  const QJsonObject c = QJsonDocument::fromJson(r.out).object();
  const QString expected = QFileInfo(tmp.filePath("project/data/t.csv")).absoluteFilePath();
  QCOMPARE(c["data"].toObject()["csv"].toObject()["path"].toString(), expected);
  // `train` from there reads it.
  const CliResult t = runCli({"train", "--config", "../project/cfg.json", "--epochs", "1", "--out",
                              tmp.filePath("run")},
                             tmp.filePath("elsewhere"));
  QVERIFY2(t.exit_code == 0, describe(t));
  // --set stays relative to the working directory: data/t.csv from `project` is found, the
  // same from `elsewhere` is not (exit 2 naming the file as seen from there).
  const QStringList set = {"config", "--preset", "moons", "--set", "data.source=csv", "--set",
                           "data.csv.path=data/t.csv", "--set", "data.csv.target=label"};
  const CliResult here = runCli(set, tmp.filePath("project"));
  QVERIFY2(here.exit_code == 0, describe(here));
  QCOMPARE(QJsonDocument::fromJson(here.out).object()["data"].toObject()["csv"].toObject()["path"]
               .toString(),
           QString("data/t.csv"));
  const CliResult there =
      runCli({"train", "--preset", "moons", "--set", "data.source=csv", "--set",
              "data.csv.path=data/t.csv", "--set", "data.csv.target=label", "--epochs", "1",
              "--out", tmp.filePath("run2")},
             tmp.filePath("elsewhere"));
  QCOMPARE(there.exit_code, 2);
  QVERIFY2(there.err.contains("t.csv"), there.err.constData());
}

QTEST_GUILESS_MAIN(TstCliConfig)
#include "tst_cli_config.moc"

// The CLI's verdicts end to end: summary.json's diagnosis judged against chance
// (moons with SGD at lr 1000: diverging, the threshold named in the evidence), a slow learner
// at chance that is not stopped as diverged (Fashion-MNIST, SGD lr 0.0003), and a resumed run
// with the verdict of its uninterrupted twin.
#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_test_util.h"

using namespace clitest;

class TstCliVerdicts : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void hugeLearningRateIsDiverging();
  void slowLearnerIsNotStoppedAsDiverged();
  void resumeHasTheTwinsVerdict();

 private:
  QTemporaryDir dir_;
};

namespace {

QJsonObject diagnosisOf(const QString& run) {
  return readJsonObject(run + "/summary.json").value("diagnosis").toObject();
}

}  // namespace

void TstCliVerdicts::hugeLearningRateIsDiverging() {
  const QString out = dir_.filePath("lr1000");
  const CliResult r =
      runCli({"train", "--preset", "moons", "--set", "optimizer.name=sgd", "--set",
              "optimizer.lr=1000", "--set", "training.non_finite=skip", "--epochs", "8", "--out",
              out});
  QVERIFY2(r.exit_code == 0, describe(r).constData());
  const QJsonObject d = diagnosisOf(out);
  QCOMPARE(d.value("kind").toString(), QString("diverging"));
  QStringList evidence;
  for (const auto& e : d.value("evidence").toArray()) evidence << e.toString();
  QVERIFY2(evidence.join("\n").contains("x the chance loss 0.6931 (ln 2"),
           qPrintable(evidence.join("\n")));
  // The diagnosis line is part of the final summary, which goes to stderr (ARCHITECTURE §6).
  QVERIFY2(QString::fromUtf8(r.err).contains("diagnosis: diverging"), r.err.constData());
}

void TstCliVerdicts::slowLearnerIsNotStoppedAsDiverged() {
  // Validation accuracy starts near chance and every epoch improves: once stopped at epoch 5
  // with exit 3 ("the learning rate 0.0003 is perhaps too high").
  if (!QDir(QStringLiteral("/usr/share/datasets/fashion-mnist")).exists())
    QSKIP("Fashion-MNIST is not installed");
  const QString out = dir_.filePath("slow");
  const CliResult r = runCli({"train", "--preset", "fashion-mnist-mlp", "--set",
                              "optimizer.name=sgd", "--set", "optimizer.lr=0.0003", "--set",
                              "data.limit=6000", "--epochs", "8", "--out", out},
                             QString(), 300000);
  QVERIFY2(r.exit_code == 0, describe(r).constData());
  const QJsonObject s = readJsonObject(out + "/summary.json");
  QCOMPARE(s.value("stop_reason").toString(), QString("completed"));
  QCOMPARE(s.value("epochs_completed").toInt(), 8);
  QVERIFY2(!QString::fromUtf8(r.out + r.err).contains("too high"), r.out.constData());
  QVERIFY(s.value("diagnosis").toObject().value("kind").toString() != "diverging");
}

void TstCliVerdicts::resumeHasTheTwinsVerdict() {
  // Once "flat from the start: raise the learning rate" after the resume, healthy uninterrupted.
  const QString h = dir_.filePath("h"), r = dir_.filePath("r"), twin = dir_.filePath("twin");
  for (const QStringList& args :
       {QStringList{"train", "--preset", "moons", "--epochs", "15", "--out", h},
        QStringList{"train", "--resume", h + "/checkpoints/last.pt", "--epochs", "30", "--out", r},
        QStringList{"train", "--preset", "moons", "--epochs", "30", "--out", twin}}) {
    const CliResult c = runCli(args);
    QVERIFY2(c.exit_code == 0, describe(c).constData());
  }
  const QJsonObject resumed = diagnosisOf(r), uninterrupted = diagnosisOf(twin);
  QCOMPARE(resumed.value("kind").toString(), uninterrupted.value("kind").toString());
  QCOMPARE(resumed.value("evidence").toArray(), uninterrupted.value("evidence").toArray());
  QVERIFY(resumed.value("kind").toString() != "flat");
}

QTEST_GUILESS_MAIN(TstCliVerdicts)
#include "tst_cli_verdicts.moc"

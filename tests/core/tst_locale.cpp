// Core's files and texts do not depend on the process locale. The GUI runs with
// setlocale(LC_ALL, ""), so under LANG=de_DE.UTF-8 printf("%g", 0.5) gives "0,5"; core must still
// write "0.5" everywhere (run.json, config.json, CSV rows, messages) and read "0.5" back.
// The German locale is compiled into a temporary folder with localedef (Debian: `locales`), so
// the test does not depend on which locales the machine has generated.
#include <torch/torch.h>

#include <QtCore/QProcess>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <clocale>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/system/number_format.h"
#include "core/model/model.h"
#include "core/train/trainer.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_locale_suite {

using namespace trainscope;

namespace {

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// Number of comma-separated fields of every line; -1 when lines disagree.
int fieldsPerLine(const std::string& csv) {
  std::istringstream in(csv);
  int fields = -1;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    int n = 1 + static_cast<int>(std::count(line.begin(), line.end(), ','));
    if (fields == -1) fields = n;
    if (n != fields) return -1;
  }
  return fields;
}

}  // namespace

class TstLocale : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void cleanupTestCase();
  void numbersUseADot();
  void modelDescription();
  void configJson();
  void runFiles();

 private:
  QTemporaryDir locales_;
};

void TstLocale::initTestCase() {
  const QString localedef = QStandardPaths::findExecutable(QStringLiteral("localedef"));
  if (localedef.isEmpty()) QSKIP("localedef is not installed (Debian package libc-bin/locales)");
  QVERIFY(locales_.isValid());
  const QString target = locales_.filePath(QStringLiteral("de_DE.UTF-8"));
  QProcess p;
  p.start(localedef, {"-i", "de_DE", "-f", "UTF-8", target});
  QVERIFY(p.waitForFinished(120000));
  // localedef may exit 1 on mere warnings; what counts is the compiled locale.
  QVERIFY2(QFileInfo::exists(target + "/LC_NUMERIC"), p.readAllStandardError().constData());
  qputenv("LOCPATH", locales_.path().toLocal8Bit());
  QVERIFY(std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr);
  // The locale really is active: the C library now writes a decimal comma.
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f", 0.5);
  QCOMPARE(QString(buf), QString("0,5"));
}

void TstLocale::cleanupTestCase() {
  std::setlocale(LC_ALL, "C");
  qunsetenv("LOCPATH");
}

void TstLocale::numbersUseADot() {
  QCOMPARE(QString::fromStdString(formatNumber(0.5)), QString("0.5"));
  QCOMPARE(QString::fromStdString(formatNumber(1e-3)), QString("0.001"));
  QCOMPARE(QString::fromStdString(formatSignificant(0.123456, 4)), QString("0.1235"));
  QCOMPARE(QString::fromStdString(formatFixed(0.5, 2)), QString("0.50"));
  QCOMPARE(parseNumber("0.5").value_or(-1), 0.5);
  QVERIFY(!parseNumber("0,5"));
}

void TstLocale::modelDescription() {
  ModelConfig m;
  m.hidden = {4};
  m.dropout = 0.5;
  const ModelSummary s = buildModel(m, 2, 1)->summary();
  // Linear(2->4) ReLU Dropout(0.5) Linear(4->1)
  QCOMPARE(QString::fromStdString(s.description),
           QString("Linear(2->4) ReLU Dropout(0.5) Linear(4->1)"));
}

void TstLocale::configJson() {
  TrainConfig c;
  c.model.dropout = 0.5;
  const std::string dumped = configToJson(c).dump();
  QVERIFY2(dumped.find("\"dropout\":0.5") != std::string::npos, dumped.c_str());
  nlohmann::json j = defaultConfigJson();
  applySet(j, "model.dropout=0.5");
  applySet(j, "optimizer.lr=2.5e-3");
  const TrainConfig back = configFromJson(j);
  QCOMPARE(back.model.dropout, 0.5);
  QCOMPARE(back.optimizer.lr, 0.0025);
}

void TstLocale::runFiles() {
  QTemporaryDir tmp;
  TrainConfig c = presetConfig("moons");
  c.name = "locale";
  c.data.n_samples = 100;
  c.model.hidden = {8};
  c.model.dropout = 0.5;
  c.optimizer.lr = 0.01;
  c.training.epochs = 1;
  c.training.num_threads = 1;
  TrainerOptions o;
  o.run_dir = tmp.path().toStdString() + "/run";
  o.front_end = "test";
  Trainer trainer(c, o);
  const RunSummary s = trainer.run();
  QCOMPARE(QString::fromStdString(toString(s.stop_reason)), QString("completed"));

  const auto run_json = nlohmann::json::parse(readText(o.run_dir / "run.json"));
  QCOMPARE(QString::fromStdString(run_json["model"]["description"].get<std::string>()),
           QString("Linear(2->8) Tanh Dropout(0.5) Linear(8->2)"));
  const std::string config_json = readText(o.run_dir / "config.json");
  QVERIFY2(config_json.find("\"dropout\": 0.5") != std::string::npos, config_json.c_str());
  QVERIFY2(config_json.find("\"lr\": 0.01") != std::string::npos, config_json.c_str());

  // A decimal comma would split numbers into extra columns: every row has the header's 12.
  const std::string metrics = readText(o.run_dir / "metrics.csv");
  QCOMPARE(fieldsPerLine(metrics), 12);
  QVERIFY2(metrics.find(",0.01,") != std::string::npos, metrics.c_str());  // lr column
  QCOMPARE(fieldsPerLine(readText(o.run_dir / "steps.csv")), 9);
}

TRAINSCOPE_TEST_MAIN(TstLocale)
}  // namespace tst_locale_suite
#include "tst_locale.moc"

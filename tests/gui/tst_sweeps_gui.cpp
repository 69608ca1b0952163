// The Sweeps window and File > New sweep... (issue 47 §3) on a real sweep run by
// trainscope-cli: the table, the best trial and each parameter's importance checked against
// trials.jsonl read here and scipy.stats.spearmanr; the scatter's log axis and points; the
// parallel coordinates' log and categorical axes by formula and brushing that filters the
// table; compare curves; the window following trials.jsonl as it grows; and the New sweep
// dialog's plan, its refusals naming the key, and the sweep it starts.
#include <QAction>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/system/number_format.h"
#include "core/run/records.h"
#include "gui/app/translations.h"
#include "gui/event_text.h"
#include "gui/main_window.h"
#include "gui/plots/runs_overlay.h"
#include "gui/sweeps/new_sweep_dialog.h"
#include "gui/sweeps/parallel_coordinates.h"
#include "gui/sweeps/sweeps_window.h"
#include "gui/teaching/lesson_panel.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_sweeps_gui_suite {

using namespace trainscope;

namespace {

/// Each trial's last line of DIR/trials.jsonl, read here with Qt's JSON.
std::map<qint64, QJsonObject> lastLines(const QString& dir) {
  QFile f(dir + "/trials.jsonl");
  std::map<qint64, QJsonObject> last;
  if (!f.open(QIODevice::ReadOnly)) return last;
  for (const QByteArray& line : f.readAll().split('\n')) {
    if (line.trimmed().isEmpty()) continue;
    const QJsonObject o = QJsonDocument::fromJson(line).object();
    last[o["trial"].toInteger()] = o;
  }
  return last;
}

/// scipy.stats.spearmanr(x, y).correlation, from Debian's python3-scipy.
double scipySpearman(const QList<double>& x, const QList<double>& y) {
  auto list = [](const QList<double>& v) {
    QStringList s;
    for (double d : v) s << QString::number(d, 'g', 17);
    return "[" + s.join(",") + "]";
  };
  QProcess p;
  p.start(TRAINSCOPE_TEST_PYTHON, {"-c", "from scipy import stats; print(repr(stats.spearmanr(" +
                                             list(x) + "," + list(y) + ").correlation))"});
  if (!p.waitForFinished(60000)) return NAN;
  return p.readAllStandardOutput().trimmed().toDouble();
}

}  // namespace

class TstSweepsGui : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir root_;
  QString sweep_;

 private slots:
  void initTestCase() {
    QVERIFY(root_.isValid());
    qputenv("TRAINSCOPE_CLI", TRAINSCOPE_CLI_PATH);
    // A real sweep: 4 learning rates x 2 widths on moons, 2 at a time.
    QFile file(root_.filePath("lrgrid.json"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"name": "lrgrid",
      "base": {"preset": "moons", "set": {"training.epochs": 4, "training.seed": 1}},
      "parameters": {"optimizer.lr": {"choices": [0.0001, 0.001, 0.01, 0.1]},
                     "model.hidden": {"choices": [[8], [32]]}},
      "method": "grid", "concurrent": 2,
      "objective": {"metric": "best_val_loss", "goal": "minimize"}})");
    file.close();
    sweep_ = root_.filePath("lrgrid");
    QProcess cli;
    cli.start(TRAINSCOPE_CLI_PATH, {"sweep", file.fileName(), "--out", sweep_});
    QVERIFY(cli.waitForFinished(240000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
  }

  void windowShowsTheSweep() {
    SweepsWindow w(root_.path());
    QCOMPARE(QDir(w.sweepDir()).canonicalPath(), QDir(sweep_).canonicalPath());
    const auto last = lastLines(sweep_);
    QCOMPARE(last.size(), size_t{8});
    QCOMPARE(w.shownTrials().size(), 8);
    // the best trial: the lowest objective of trials.jsonl
    qint64 best = -1;
    double lowest = INFINITY;
    for (const auto& [n, o] : last)
      if (o["objective"].toDouble() < lowest) {
        lowest = o["objective"].toDouble();
        best = n;
      }
    QVERIFY2(w.bestText().contains(QStringLiteral("trial %1,").arg(best)), qPrintable(w.bestText()));
    // importance: scipy's Spearman rho of each parameter with the objective
    QList<double> lrs, objectives;
    for (const auto& [n, o] : last) {
      lrs << o["values"].toObject()["optimizer.lr"].toDouble();
      objectives << o["objective"].toDouble();
    }
    // (model.hidden's choices, lists, have no order to rank by: no rho)
    const auto importance = w.importance();
    QCOMPARE(importance.size(), 1);
    QCOMPARE(importance[0].first, QStringLiteral("optimizer.lr"));
    const double expected = scipySpearman(lrs, objectives);
    QVERIFY2(std::fabs(importance[0].second - expected) < 1e-9,
             qPrintable(QStringLiteral("%1 vs scipy %2").arg(importance[0].second).arg(expected)));
    // the scatter: lr on a log axis, one point per trial at (lr, objective)
    QVERIFY(w.setScatterParameter("optimizer.lr"));
    QVERIFY(w.scatterLogX());
    QList<QPointF> expected_points;
    for (int i = 0; i < lrs.size(); ++i) expected_points << QPointF(lrs[i], objectives[i]);
    auto byX = [](const QPointF& a, const QPointF& b) {
      return a.x() != b.x() ? a.x() < b.x() : a.y() < b.y();
    };
    QList<QPointF> points = w.scatterPoints();
    std::sort(points.begin(), points.end(), byX);
    std::sort(expected_points.begin(), expected_points.end(), byX);
    QCOMPARE(points, expected_points);
    QVERIFY(w.setScatterParameter("model.hidden"));
    QVERIFY(!w.scatterLogX());
    QVERIFY(!w.setScatterParameter("training.epochs"));
    // parallel coordinates: axes model.hidden (categorical), optimizer.lr (log), objective
    ParallelCoordinates* pc = w.parallelCoordinates();
    QCOMPARE(pc->axisCount(), 3);
    QCOMPARE(pc->axisFraction(0, 1), 1.0);  // [32]: the second of two choices
    QVERIFY(std::fabs(pc->axisFraction(1, 1e-3) - 1.0 / 3) < 1e-12);  // log10 from -4 to -1
    // brushing the objective axis keeps the trials inside the range, in the table too
    const double hi = *std::max_element(objectives.begin(), objectives.end());
    const double mid = (lowest + hi) / 2;
    pc->setBrush(2, lowest, mid);
    QList<qint64> expected_shown;
    for (const auto& [n, o] : last)
      if (o["objective"].toDouble() <= mid) expected_shown << n;
    QList<qint64> shown = w.shownTrials();
    std::sort(shown.begin(), shown.end());
    QCOMPARE(shown, expected_shown);
    QVERIFY(shown.size() < 8 && !shown.isEmpty());
    pc->clearBrushes();
    QCOMPARE(w.shownTrials().size(), 8);
    // compare curves of two trials
    w.selectTrials({0, 1});
    RunsOverlayDialog* compare = w.compareSelected();
    QVERIFY(compare);
    QCOMPARE(compare->legendNames().size(), 2);
    delete compare;
    w.selectTrials({0});
    QVERIFY(!w.compareSelected());
    // the open trial signal names its run folder
    QSignalSpy open(&w, &SweepsWindow::openRequested);
    w.findChild<QPushButton*>("openTrialButton")->click();
    QCOMPARE(open.count(), 1);
    QCOMPARE(open.first().first().toString(),
             QDir(w.sweepDir()).filePath(last.at(0)["run"].toString()));
    if (!qEnvironmentVariableIsEmpty("TRAINSCOPE_SWEEPS_SCREENSHOT")) {
      w.resize(1000, 700);
      w.show();
      w.showTab(1);
      w.setScatterParameter("optimizer.lr");
      QTest::qWait(200);
      w.grab().save(qEnvironmentVariable("TRAINSCOPE_SWEEPS_SCREENSHOT") + "-scatter.png");
      w.showTab(0);
      QTest::qWait(200);
      w.grab().save(qEnvironmentVariable("TRAINSCOPE_SWEEPS_SCREENSHOT") + "-coords.png");
    }
  }

  void seedsShowMeanAndStd() {
    // 2 learning rates x 3 seeds: each configuration's mean and sample standard deviation of
    // its trials' objectives (computed here from trials.jsonl), best mean first
    QTemporaryDir root;
    QFile file(root.filePath("seeds.json"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"name": "seeds", "base": {"preset": "moons", "set": {"training.epochs": 2}},
      "parameters": {"optimizer.lr": {"choices": [0.001, 0.05]}},
      "method": "grid", "seeds": 3, "concurrent": 2})");
    file.close();
    QProcess cli;
    cli.start(TRAINSCOPE_CLI_PATH, {"sweep", file.fileName(), "--out", root.filePath("seeds")});
    QVERIFY(cli.waitForFinished(240000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    SweepsWindow w(root.path());
    const QStringList rows = w.seedRows();
    QCOMPARE(rows.size(), 2);
    std::map<double, QList<double>> by_lr;
    for (const auto& [n, o] : lastLines(root.filePath("seeds")))
      by_lr[o["values"].toObject()["optimizer.lr"].toDouble()] << o["objective"].toDouble();
    std::vector<std::pair<double, QString>> expected;  // (mean, row)
    for (const auto& [lr, v] : by_lr) {
      QCOMPARE(v.size(), 3);
      const double mean = (v[0] + v[1] + v[2]) / 3;
      double ss = 0;
      for (double x : v) ss += (x - mean) * (x - mean);
      const double sd = std::sqrt(ss / 2);
      expected.push_back({mean, QString::fromStdString(formatHuman(lr)) + " | " +
                                    QString::fromStdString(formatHuman(mean)) + " ± " +
                                    QString::fromStdString(formatHuman(sd)) + " | 3/3"});
    }
    std::sort(expected.begin(), expected.end());
    for (int r = 0; r < 2; ++r)
      QVERIFY2(rows[r].startsWith(expected[r].second), qPrintable(rows[r] + " vs " + expected[r].second));
    QVERIFY2(w.bestText().contains("over 3 seeds"), qPrintable(w.bestText()));
  }

  void windowFollowsTrialsAsTheyChange() {
    // a copy of the sweep whose trials.jsonl grows, as the orchestrator writes it
    QTemporaryDir copy;
    QVERIFY(QFile::copy(sweep_ + "/sweep.json", copy.filePath("sweep.json")));
    QFile trials(copy.filePath("trials.jsonl"));
    QVERIFY(trials.open(QIODevice::WriteOnly));
    trials.write(R"({"trial":0,"state":"running","values":{"optimizer.lr":0.01,"model.hidden":[8]},"run":"000-x","attempt":1,"config":0})" "\n");
    trials.close();
    SweepsWindow w(root_.path());
    QString error;
    QVERIFY2(w.openSweep(copy.path(), &error), qPrintable(error));
    auto* status = w.findChild<QLabel*>("sweepStatusLabel");
    QVERIFY2(status->text().contains("1 running"), qPrintable(status->text()));
    QVERIFY(!w.refresh());  // nothing changed
    QTest::qWait(20);
    QVERIFY(trials.open(QIODevice::Append));
    trials.write(R"({"trial":0,"state":"completed","values":{"optimizer.lr":0.01,"model.hidden":[8]},"run":"000-x","attempt":1,"config":0,"objective":0.25})" "\n");
    trials.close();
    QVERIFY(w.refresh());
    QVERIFY2(status->text().contains("0 running") && status->text().contains("1 completed"),
             qPrintable(status->text()));
    QVERIFY2(w.bestText().contains("0.25"), qPrintable(w.bestText()));
    // a sweep started later under the root joins the list while the window is open
    QTemporaryDir root2;
    SweepsWindow listed(root2.path());
    listed.show();
    auto* combo = listed.findChild<QComboBox*>("sweepCombo");
    QVERIFY(QDir().mkpath(root2.filePath("later")));
    QVERIFY(QFile::copy(sweep_ + "/sweep.json", root2.filePath("later/sweep.json")));
    QTRY_VERIFY_WITH_TIMEOUT(combo->findText("later") >= 0, 5000);
    // a queued trial has no run folder yet: Open and Beside are off for it
    QVERIFY(trials.open(QIODevice::Append));
    trials.write(R"({"trial":1,"state":"queued","values":{"optimizer.lr":0.1,"model.hidden":[8]},"run":"001-x","attempt":1,"config":1})" "\n");
    trials.close();
    QVERIFY(w.refresh());
    w.selectTrials({1});
    QVERIFY(!w.findChild<QPushButton*>("openTrialButton")->isEnabled());
    QVERIFY(!w.findChild<QPushButton*>("besideLiveButton")->isEnabled());
    w.selectTrials({0});
    QVERIFY(w.findChild<QPushButton*>("openTrialButton")->isEnabled());
    // a folder without a sweep is refused, naming it
    QTemporaryDir empty;
    QVERIFY(!w.openSweep(empty.path(), &error));
    QVERIFY2(error.contains(empty.path()), qPrintable(error));
  }

  void newSweepDialogPlansAndStarts() {
    TrainConfig c = presetConfig("moons");
    c.training.epochs = 2;
    QTemporaryDir root;
    NewSweepDialog d(configToJson(c), root.path());
    auto* plan = d.findChild<QLabel*>("sweepPlanLabel");
    auto* start = d.findChild<QPushButton*>("startSweepButton");
    QVERIFY(plan->text().contains("Tick at least one key"));
    QVERIFY(!start->isEnabled());
    QVERIFY(!d.vary("no.such.key", "choices", "1"));
    // a log range with a bound <= 0: refused naming the key
    QVERIFY(d.vary("optimizer.lr", "log_uniform", "0, 0.1"));
    QVERIFY2(plan->text().contains("optimizer.lr"), qPrintable(plan->text()));
    QVERIFY(!start->isEnabled());
    // a word among numbers: the error names the word, not a number
    QVERIFY(d.vary("optimizer.lr", "choices", "0.001, 0.01, abc"));
    QVERIFY2(plan->text().contains("abc") && !plan->text().contains("\"0.001\""), qPrintable(plan->text()));
    // the grid of 3 learning rates x 2 widths: 6 trials
    QVERIFY(d.vary("optimizer.lr", "choices", "0.001, 0.01, 0.1"));
    QVERIFY(d.vary("model.hidden", "choices", "[8], [16, 16]"));
    auto* method = d.findChild<QComboBox*>("sweepMethodCombo");
    method->setCurrentIndex(method->findData("grid"));
    QVERIFY2(plan->text().startsWith("6 trials"), qPrintable(plan->text()));
    QVERIFY(start->isEnabled());
    if (!qEnvironmentVariableIsEmpty("TRAINSCOPE_SWEEPS_SCREENSHOT")) {
      for (const char* lang : {"en", "zh_CN"}) {
        switchLanguage(QLatin1String(lang));
        NewSweepDialog shown(configToJson(c), root.path());
        shown.vary("optimizer.lr", "log_uniform", "0.0001, 0.1");
        shown.vary("model.hidden", "choices", "[8], [16, 16]");
        shown.resize(860, 640);
        shown.show();
        QTest::qWait(200);
        shown.grab().save(qEnvironmentVariable("TRAINSCOPE_SWEEPS_SCREENSHOT") + "-new-" + lang + ".png");
      }
      switchLanguage(QStringLiteral("en"));
    }
    QString error;
    const auto sweep = d.sweepJson(&error);
    QVERIFY(sweep);
    QCOMPARE(QString::fromStdString((*sweep)["parameters"]["model.hidden"]["choices"].dump()),
             QStringLiteral("[[8],[16,16]]"));
    // fewer trials for the run here
    QVERIFY(d.vary("optimizer.lr", "choices", "0.01"));
    QVERIFY(d.vary("model.hidden", "choices", "[8], [16]"));
    QSignalSpy started(&d, &NewSweepDialog::started);
    const QString dir = d.start(&error);
    QVERIFY2(!dir.isEmpty(), qPrintable(error));
    QCOMPARE(started.count(), 1);
    QVERIFY(QFile::exists(dir + ".sweep.json") && QFile::exists(dir + ".config.json"));
    auto finished = [&dir] {
      const auto last = lastLines(dir);
      return last.size() == 2 && std::all_of(last.begin(), last.end(), [](const auto& kv) {
               return kv.second["state"].toString() == "completed";
             });
    };
    QTRY_VERIFY_WITH_TIMEOUT(finished(), 120000);
    // the trials ran the dialog's settings: the base's epochs, the values varied
    QFile config(dir + "/" + lastLines(dir).at(1)["run"].toString() + "/config.json");
    QVERIFY(config.open(QIODevice::ReadOnly));
    const QJsonObject cfg = QJsonDocument::fromJson(config.readAll()).object();
    QCOMPARE(cfg["training"].toObject()["epochs"].toInt(), 2);
    QCOMPARE(cfg["model"].toObject()["hidden"].toArray(), QJsonArray({16}));
  }

  void learningRateLessonSweeps() {
    // The lesson's second step starts a sweep of five learning rates; the Sweeps window shows
    // the objective against lr on a log axis, and the loss draws the U the lesson describes.
    QTemporaryDir root;
    for (const char* lang : {"en", "zh_CN"}) {
      switchLanguage(QLatin1String(lang));
      MainWindow main;
      main.setRunsRoot(root.filePath(lang));
      main.resize(1024, 768);
      QString error;
      QVERIFY2(main.openLesson("learning-rate", &error), qPrintable(error));
      main.lessonPanel()->next();
      QTRY_VERIFY_WITH_TIMEOUT(main.sweepsWindow() && !main.sweepsWindow()->sweepDir().isEmpty(), 20000);
      SweepsWindow* w = main.sweepsWindow();
      const QString dir = w->sweepDir();
      auto finished = [&dir] {
        const auto last = lastLines(dir);
        return last.size() == 5 && std::all_of(last.begin(), last.end(), [](const auto& kv) {
                 return kv.second["state"].toString() == "completed";
               });
      };
      QTRY_VERIFY_WITH_TIMEOUT(finished(), 120000);
      QTRY_VERIFY_WITH_TIMEOUT(w->scatterPoints().size() == 5, 5000);
      QVERIFY(w->scatterLogX());
      std::map<double, double> loss;  // lr -> best_val_loss, from trials.jsonl
      for (const auto& [n, o] : lastLines(dir))
        loss[o["values"].toObject()["optimizer.lr"].toDouble()] = o["objective"].toDouble();
      const auto best = std::min_element(loss.begin(), loss.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
      });
      QVERIFY2(best->first > 1e-3 && best->first < 1, "the U's bottom is inside, not at an end");
      QVERIFY(loss.begin()->second > best->second * 2 && loss.rbegin()->second > best->second * 2);
      QVERIFY(w->bestText().contains(QString::number(best->first)));
      if (!qEnvironmentVariableIsEmpty("TRAINSCOPE_SWEEPS_SCREENSHOT")) {
        w->resize(1024, 700);
        QTest::qWait(300);
        w->grab().save(qEnvironmentVariable("TRAINSCOPE_SWEEPS_SCREENSHOT") + "-lesson-" + lang + ".png");
        main.grab().save(qEnvironmentVariable("TRAINSCOPE_SWEEPS_SCREENSHOT") + "-main-" + lang + ".png");
      }
    }
    switchLanguage(QStringLiteral("en"));
  }

  void prunedTrialSaysPruned() {
    // a trial the median pruner stopped, opened from the Sweeps window: its events say pruned,
    // not "stopped"
    Event e;
    e.kind = EventKind::Stopped;
    e.step = 42;
    e.message = "pruned at step 42: median pruner: lowest val_loss 0.65 by epoch 2 is above the "
                "median 0.23 of 2 completed trial(s) at epoch 2";
    QVERIFY2(EventText::forEvent(e, nullptr).startsWith("Pruned by its sweep at step 42"),
             qPrintable(EventText::forEvent(e, nullptr)));
    e.message = "stopped at step 42";
    QCOMPARE(EventText::forEvent(e, nullptr), QStringLiteral("Stopped at step 42."));
  }

  void menuOpensTheWindows() {
    MainWindow main;
    auto* sweeps = main.findChild<QAction*>("actionShowSweeps");
    QVERIFY(sweeps && main.findChild<QAction*>("actionNewSweep"));
    sweeps->trigger();
    QVERIFY(main.sweepsWindow() && main.sweepsWindow()->isVisible());
  }
};

TRAINSCOPE_GUI_TEST_MAIN(TstSweepsGui)
}  // namespace tst_sweeps_gui_suite
#include "tst_sweeps_gui.moc"

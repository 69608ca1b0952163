// The gradient watch in the GUI: the exploding preset pauses on its first
// non-finite step with the evidence and the actions, "turn clipping on and continue" makes it
// finish; the threshold series follows a live max_norm change; the clip share equals the share
// computed from the step records; the layer view draws the LayerStatsRecord values; the
// diagnosis panel shows the engine's diagnosis. Expected values come from the records the
// engine sent (or its files), never from the widgets' own state.
#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <set>
#include <vector>

#include "core/train/monitors/loss_doctor.h"
#include "core/train/monitors/non_finite.h"
#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/event_text.h"
#include "gui/finding_text.h"
#include "gui/main_window.h"
#include "gui/panels/non_finite_panel.h"
#include "gui/plots/layer_plot.h"
#include "gui/plots/training_plots.h"
#include "gui/widgets/scientific_spin_box.h"
#include "synthetic_runs.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_gradient_watch_gui_suite {

using namespace trainscope;

namespace {

/// Everything the controller reported during a run.
struct Recorder {
  std::vector<StepRecord> steps;
  std::vector<Event> events;
  std::vector<LayerStatsRecord> layers;
  std::optional<RunSummary> summary;
  void attach(RunSession* c) {
    QObject::connect(c->store(), &RunStore::stepRecorded,
                     [this](const StepRecord& s) { steps.push_back(s); });
    QObject::connect(c->store(), &RunStore::eventOccurred,
                     [this](const Event& e) { events.push_back(e); });
    QObject::connect(c->store(), &RunStore::layerStatsRecorded,
                     [this](const LayerStatsRecord& r) { layers.push_back(r); });
    QObject::connect(c->store(), &RunStore::runFinished,
                     [this](const RunSummary& s) { summary = s; });
  }
  int count(EventKind kind) const {
    int n = 0;
    for (const Event& e : events) n += e.kind == kind;
    return n;
  }
};

bool sameValue(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

/// Points of a graph as (x, y).
std::vector<std::pair<double, double>> points(const QCPGraph* g) {
  std::vector<std::pair<double, double>> out;
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
    out.emplace_back(it->key, it->value);
  return out;
}

/// Whether `plot` carries a vertical step mark at `step` (GradientWatchViews::markStep).
bool hasStepMark(QCustomPlot* plot, double step) {
  for (int i = 0; i < plot->itemCount(); ++i) {
    auto* band = qobject_cast<QCPItemRect*>(plot->item(i));
    if (band && band->property("trainscopeStepMark").toBool() &&
        band->topLeft->coords().x() == step - 0.5 && band->bottomRight->coords().x() == step + 0.5)
      return true;
  }
  return false;
}

}  // namespace

class TstGradientWatchGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void explodingPausesAndClippingMakesItFinish();
  void thresholdAndClipShareFollowTheRecords();
  void layerPlotDrawsTheLayerStats();
  void liveSettingsGoThroughOnePath();
  void rollBackDropsTheLaterPoints();
  void nonFiniteHintFollowsTheClippingSetting();
  void findingsAreWordedInTheInterfaceLanguage();
  void dataAndModelWarningsAreWordedInTheInterfaceLanguage();

 private:
  QTemporaryDir dir_;
};

void TstGradientWatchGui::initTestCase() {
  QSettings().clear();
  QStandardPaths::setTestModeEnabled(true);
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
  QVERIFY(dir_.isValid());
}

void TstGradientWatchGui::explodingPausesAndClippingMakesItFinish() {
  MainWindow w;
  w.setConfirmClose(false);
  w.setFullSpeed();
  w.setRunsRoot(dir_.filePath(QStringLiteral("exploding")));
  QVERIFY(w.loadPreset(QStringLiteral("exploding")));
  w.resize(1024, 768);
  w.show();
  RunSession* c = w.controller();
  Recorder rec;
  rec.attach(c);
  auto* panel = w.findChild<NonFinitePanel*>(QStringLiteral("nonFinitePanel"));
  QVERIFY(panel);
  QVERIFY(!panel->isVisible());
  QVERIFY(w.startRun());
  QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible(), 60000);
  QCOMPARE(c->state(), RunSession::State::Paused);

  // The first step whose loss or gradient norm was not finite, from the step records.
  const StepRecord* bad = nullptr;
  for (const StepRecord& s : rec.steps)
    if (!std::isfinite(s.loss) || !std::isfinite(s.grad_norm)) {
      bad = &s;
      break;
    }
  QVERIFY(bad);
  QVERIFY(!bad->applied);
  QCOMPARE(rec.steps.back().step, bad->step);  // paused on it, not later
  QVERIFY(panel->shownEvent());
  const Event& e = *panel->shownEvent();
  QVERIFY(e.kind == EventKind::NonFinite);
  QCOMPARE(e.step, bad->step);
  QVERIFY(e.evidence);
  QVERIFY(sameValue(e.evidence->loss, bad->loss));
  QVERIFY(sameValue(e.evidence->grad_norm, bad->grad_norm));
  QCOMPARE(e.evidence->lr, 0.1);  // the preset's learning rate
  QVERIFY(!e.evidence->clip_enabled);
  QVERIFY(!e.evidence->layers.empty());
  // The evidence is shown: the step, the first layer's name, the learning rate.
  const QString shown = panel->findChild<QLabel*>(QStringLiteral("nonFiniteTitleLabel"))->text() +
                        panel->findChild<QLabel*>(QStringLiteral("nonFiniteEvidenceLabel"))->text();
  QVERIFY2(shown.contains(QString::number(bad->step)), qPrintable(shown));
  QVERIFY2(shown.contains(QString::fromStdString(e.evidence->layers.front().first)),
           qPrintable(shown));
  QVERIFY2(shown.contains(QStringLiteral("0.1")), qPrintable(shown));
  const QString causes = panel->findChild<QLabel*>(QStringLiteral("nonFiniteCausesLabel"))->text();
  QVERIFY2(causes.contains(QStringLiteral("Gradient clipping is off")), qPrintable(causes));
  QVERIFY2(causes.contains(QStringLiteral("The targets are scaled by 50")), qPrintable(causes));
  for (const char* name : {"nonFiniteLowerLrButton", "nonFiniteClipButton",
                           "nonFiniteContinueButton", "nonFiniteStopButton"}) {
    auto* b = panel->findChild<QPushButton*>(QLatin1String(name));
    QVERIFY2(b && b->isVisible() && b->isEnabled(), name);
  }
  // The layer view has the non-finite step's per-layer norms (before the first regular record
  // at step 10): the layer named by the panel is not finite there.
  QVERIFY(c->store()->lastLayerStats());
  QCOMPARE(c->store()->lastLayerStats()->step, bad->step);
  const auto& first = e.evidence->layers.front();
  const auto& names = c->store()->lastLayerStats()->names;
  const auto at = std::find(names.begin(), names.end(), first.first);
  QVERIFY(at != names.end());
  QVERIFY(!std::isfinite(c->store()->lastLayerStats()->grad_norm[at - names.begin()]));
  // The step is marked on both plots.
  for (const char* name : {"lossPlot", "gradNormPlot"})
    QVERIFY2(hasStepMark(w.findChild<QCustomPlot*>(QLatin1String(name)), double(bad->step)), name);

  const qint64 bad_step = bad->step;
  const std::size_t events_before = rec.events.size();
  QTest::mouseClick(panel->findChild<QPushButton*>(QStringLiteral("nonFiniteClipButton")),
                    Qt::LeftButton);
  QTRY_VERIFY_WITH_TIMEOUT(rec.summary.has_value(), 120000);
  QVERIFY2(rec.summary->stop_reason == StopReason::Completed,
           toString(rec.summary->stop_reason).c_str());
  QVERIFY(!panel->isVisible());
  // After the roll-back: clipping on, no other non-finite step, no divergence.
  int rolled_back = 0, clip_on = 0;
  for (std::size_t i = events_before; i < rec.events.size(); ++i) {
    const Event& ev = rec.events[i];
    QVERIFY2(ev.kind != EventKind::NonFinite && ev.kind != EventKind::Diverged, ev.message.c_str());
    rolled_back += ev.kind == EventKind::RolledBack && ev.what == "step" && ev.value &&
                   *ev.value < double(bad_step);
    clip_on += ev.kind == EventKind::ConfigChanged && ev.what == "training.clip.max_norm";
  }
  QCOMPARE(rolled_back, 1);
  QCOMPARE(clip_on, 1);
  // The steps trained again replaced the rolled-back ones: one loss point per step, in order,
  // the last run to the end.
  const auto& loss = c->store()->history().find(series::kStepLoss)->values().points();
  for (std::size_t i = 1; i < loss.size(); ++i) QVERIFY(loss[i].x > loss[i - 1].x);
  QCOMPARE(loss.back().x, double(rec.summary->global_step));
  QCOMPARE(c->store()->history().find(series::kStepLoss)->markers(NonFiniteKind::PosInf).size() +
               c->store()->history().find(series::kStepLoss)->markers(NonFiniteKind::NaN).size(),
           std::size_t{0});
  QVERIFY(w.findChild<QCheckBox*>(QStringLiteral("clipCheckBox"))->isChecked());
  // Every step after the roll-back ran with max_norm 1 (the preset's), and the threshold series
  // drawn is exactly that.
  w.grabWindowImage();
  const auto drawn = points(
      w.findChild<GradNormPlot*>(QStringLiteral("gradNormPlot"))->graphFor(series::kStepMaxNorm));
  QVERIFY(!drawn.empty());
  for (const auto& [x, y] : drawn) QCOMPARE(y, 1.0);
  // The diagnosis panel shows the engine's last diagnosis (summary.json's), in words.
  QVERIFY(rec.summary->diagnosis);
  const QString kind = w.findChild<QLabel*>(QStringLiteral("diagnosisKindLabel"))->text();
  QVERIFY2(kind.contains(EventText::diagnosisKind(rec.summary->diagnosis->kind)), qPrintable(kind));
  QVERIFY(c->store()->lastDiagnosis());
  QCOMPARE(c->store()->lastDiagnosis()->kind, rec.summary->diagnosis->kind);
  // The roll-back started the evidence afresh: the run converged after it, so it is no longer
  // "diverging" (the non-finite step before the roll-back is not evidence), and the tab reads
  // the last epoch, not the epoch of the last change of kind.
  QVERIFY2(rec.summary->diagnosis->kind != "diverging", rec.summary->diagnosis->summary.c_str());
  QCOMPARE(c->store()->lastDiagnosis()->epoch, rec.summary->epochs_completed);
  QVERIFY2(kind.contains(QString::number(rec.summary->epochs_completed)), qPrintable(kind));
}

void TstGradientWatchGui::thresholdAndClipShareFollowTheRecords() {
  MainWindow w;
  w.setConfirmClose(false);
  w.setFullSpeed();
  w.setRunsRoot(dir_.filePath(QStringLiteral("threshold")));
  QVERIFY(w.loadPreset(QStringLiteral("exploding")));
  auto* clip = w.findChild<QCheckBox*>(QStringLiteral("clipCheckBox"));
  auto* max_norm = w.findChild<ScientificSpinBox*>(QStringLiteral("clipMaxNormSpinBox"));
  QVERIFY(clip && max_norm);
  // Clipping on at 100, then 200: the first large gradients are clipped, later small ones are
  // not (the norms fall to about 10 once the fit converges).
  clip->click();
  QVERIFY(clip->isChecked());
  max_norm->setValue(100);
  w.show();
  RunSession* c = w.controller();
  Recorder rec;
  rec.attach(c);
  w.stepBatch();  // starts the run, paused after its first step
  QTRY_COMPARE_WITH_TIMEOUT(c->state(), RunSession::State::Paused, 30000);
  QTRY_VERIFY_WITH_TIMEOUT(!rec.steps.empty(), 30000);
  // Live controls stay enabled while paused; a bad max_norm is refused with the reason.
  QVERIFY(clip->isEnabled() && max_norm->isEnabled());
  QSignalSpy rejected(max_norm, &ScientificSpinBox::valueRejected);
  max_norm->setFocus();
  max_norm->selectAll();
  QTest::keyClicks(max_norm, QStringLiteral("0"));  // '-' cannot even be typed
  QTest::keyClick(max_norm, Qt::Key_Return);
  QTRY_COMPARE(rejected.count(), 1);
  QCOMPARE(max_norm->value(), 100.0);
  QCOMPARE(rec.count(EventKind::ConfigChanged), 0);  // nothing reached the engine
  QString error;
  QVERIFY(!c->setClipping(true, -1, &error));
  QVERIFY2(error.contains(QStringLiteral("training.clip.max_norm")), qPrintable(error));
  QVERIFY(!c->setClipping(true, std::nan(""), &error));
  // Now 200, applied live from the next step.
  max_norm->setValue(200);
  QTRY_VERIFY_WITH_TIMEOUT(rec.count(EventKind::ConfigChanged) == 1, 5000);
  c->resume();
  QTRY_VERIFY_WITH_TIMEOUT(rec.summary.has_value(), 120000);
  w.grabWindowImage();

  qint64 change_step = -1;
  for (const Event& e : rec.events)
    if (e.kind == EventKind::ConfigChanged) change_step = e.step;
  QCOMPARE(change_step, qint64(1));
  // The threshold drawn is 100 up to the change and 200 after it, at every step.
  const auto drawn = points(
      w.findChild<GradNormPlot*>(QStringLiteral("gradNormPlot"))->graphFor(series::kStepMaxNorm));
  QCOMPARE(drawn.size(), rec.steps.size());
  for (const auto& [x, y] : drawn) QCOMPARE(y, x <= change_step ? 100.0 : 200.0);

  // The clip share from the records' `clipped` flags: the last 100 counted steps since the
  // last change of max_norm, and every counted step of the run.
  std::deque<bool> window;
  double last_max = -1;
  int clipped = 0, counted = 0;
  for (const StepRecord& s : rec.steps) {
    if (!s.max_norm || !std::isfinite(s.grad_norm)) continue;
    if (*s.max_norm != last_max) window.clear();
    last_max = *s.max_norm;
    window.push_back(s.clipped);
    if (window.size() > 100) window.pop_front();
    clipped += s.clipped;
    ++counted;
  }
  int recent = 0;
  for (bool b : window) recent += b;
  const double share_recent = double(recent) / double(window.size());
  const double share_run = double(clipped) / double(counted);
  QVERIFY2(clipped > 0 && clipped < counted, qPrintable(QString::number(clipped)));
  const QString label = w.findChild<QLabel*>(QStringLiteral("clipShareLabel"))->text();
  QVERIFY2(label.contains(QStringLiteral("%1 % of the last 100 steps")
                              .arg(QString::number(share_recent * 100, 'f', 1))),
           qPrintable(label));
  QVERIFY2(label.contains(
               QStringLiteral("%1 % of the run").arg(QString::number(share_run * 100, 'f', 1))),
           qPrintable(label));
  // The clipped steps are shaded: one point per clipped step, at its norm.
  const auto shaded = points(
      w.findChild<GradNormPlot*>(QStringLiteral("gradNormPlot"))->graphFor(series::kStepClipped));
  QCOMPARE(int(shaded.size()), clipped);
}

// RunCommands::setLiveSetting, the path every live edit of the settings takes: nothing without
// a run, nothing for the value in force, each change once even when the engine has not yet
// reported the one before, refused values named and changing nothing.
void TstGradientWatchGui::liveSettingsGoThroughOnePath() {
  MainWindow w;
  w.setConfirmClose(false);
  w.setFullSpeed();
  w.setRunsRoot(dir_.filePath(QStringLiteral("live")));
  QVERIFY(w.loadPreset(QStringLiteral("exploding")));
  RunSession* c = w.controller();
  QString error;
  QVERIFY(!c->setLiveSetting(QStringLiteral("optimizer.lr"), 0.5, &error));  // no run yet
  QVERIFY(error.isEmpty());
  Recorder rec;
  rec.attach(c);
  w.stepBatch();
  QTRY_COMPARE_WITH_TIMEOUT(c->state(), RunSession::State::Paused, 30000);
  const TrainConfig started = c->store()->config();
  QVERIFY(!started.training.amp && !started.training.clip.enabled);

  // The value in force sends nothing.
  QVERIFY(c->setLiveSetting(QStringLiteral("optimizer.lr"), started.optimizer.lr));
  // AMP on and at once off again, before the engine reported the first: the second is compared
  // with what was asked, so both go out, and the engine (the newest AMP command at a step
  // boundary wins) changes nothing. Compared with the reported value, "off" would have been
  // dropped and AMP turned on.
  QVERIFY(c->setLiveSetting(QStringLiteral("training.amp"), true));
  QVERIFY(c->setLiveSetting(QStringLiteral("training.amp"), false));
  // Refused: a max_norm <= 0 (the key named), a key that is not live.
  QVERIFY(!c->setLiveSetting(QStringLiteral("training.clip.max_norm"), -1.0, &error));
  QVERIFY2(error.contains(QStringLiteral("training.clip.max_norm")), qPrintable(error));
  error.clear();
  QVERIFY(!c->setLiveSetting(QStringLiteral("training.batch_size"), 3, &error));
  QVERIFY2(error.contains(QStringLiteral("training.batch_size")), qPrintable(error));
  // Clipping on keeps the started max_norm; then the learning rate.
  QVERIFY(c->setLiveSetting(QStringLiteral("training.clip.enabled"), true));
  QVERIFY(c->setLiveSetting(QStringLiteral("optimizer.lr"), started.optimizer.lr / 10));
  c->stepBatch();
  QTRY_VERIFY_WITH_TIMEOUT(rec.count(EventKind::ConfigChanged) >= 2, 10000);
  c->stop();
  QTRY_VERIFY_WITH_TIMEOUT(rec.summary.has_value(), 30000);

  std::vector<std::pair<std::string, double>> changes;
  for (const Event& e : rec.events)
    if (e.kind == EventKind::ConfigChanged) changes.emplace_back(e.what, e.value.value_or(-1));
  // At one step boundary the engine applies learning rates before the clipping command.
  const std::vector<std::pair<std::string, double>> expected{
      {"optimizer.lr", started.optimizer.lr / 10},
      {"training.clip.max_norm", started.training.clip.max_norm}};
  QString seen;
  for (const auto& [what, value] : changes)
    seen += QStringLiteral("%1=%2 ").arg(QString::fromStdString(what)).arg(value);
  QVERIFY2(changes == expected, qPrintable(seen));
  // The store's live values follow the events; the started config stays as it was.
  const TrainConfig& live = c->store()->liveConfig();
  QCOMPARE(live.optimizer.lr, started.optimizer.lr / 10);
  QVERIFY(live.training.clip.enabled && !live.training.amp);
  QCOMPARE(c->store()->config().optimizer.lr, started.optimizer.lr);
}

void TstGradientWatchGui::layerPlotDrawsTheLayerStats() {
  MainWindow w;
  w.setConfirmClose(false);
  w.setFullSpeed();
  w.setRunsRoot(dir_.filePath(QStringLiteral("layers")));
  QVERIFY(w.loadPreset(QStringLiteral("overfit-sine")));
  w.show();
  RunSession* c = w.controller();
  Recorder rec;
  rec.attach(c);
  QVERIFY(w.startRun());
  QTRY_VERIFY_WITH_TIMEOUT(rec.summary.has_value(), 120000);
  auto* view = w.findChild<LayerPlot*>(QStringLiteral("layerPlot"));
  QVERIFY(view);
  view->sync();
  QVERIFY(!rec.layers.empty());
  const std::vector<std::string>& names = rec.layers.front().names;
  QCOMPARE(view->layers(), names);  // a small model: every tensor drawn
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto norms = points(view->gradPlot()->graphFor(series::layerGradNorm(names[i])));
    const auto ratios = points(view->ratioPlot()->graphFor(series::layerUpdateRatio(names[i])));
    std::size_t n = 0, r = 0;
    for (const LayerStatsRecord& l : rec.layers) {
      QVERIFY(n < norms.size());
      QCOMPARE(norms[n].first, double(l.step));
      QCOMPARE(norms[n].second, l.grad_norm[i]);
      ++n;
      if (!std::isfinite(l.update_ratio[i])) continue;  // drawn as a marker, not a point
      QVERIFY(r < ratios.size());
      QCOMPARE(ratios[r].first, double(l.step));
      QCOMPARE(ratios[r].second, l.update_ratio[i]);
      ++r;
    }
    QCOMPARE(norms.size(), n);
    QCOMPARE(ratios.size(), r);
  }
  // The squares of the layer norms drawn at a step add up to the step's total norm squared.
  const LayerStatsRecord& l = rec.layers.back();
  double sum = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto norms = points(view->gradPlot()->graphFor(series::layerGradNorm(names[i])));
    sum += norms.back().second * norms.back().second;
  }
  const StepRecord* step = nullptr;
  for (const StepRecord& s : rec.steps)
    if (s.step == l.step) step = &s;
  QVERIFY(step);
  QVERIFY2(std::abs(std::sqrt(sum) - step->grad_norm) <= 1e-4 * step->grad_norm,
           qPrintable(QStringLiteral("%1 vs %2").arg(std::sqrt(sum)).arg(step->grad_norm)));
}

void TstGradientWatchGui::rollBackDropsTheLaterPoints() {
  RunHistory h;
  for (int step = 1; step <= 10; ++step) {
    h.append(series::kStepLoss, step, step == 10 ? std::numeric_limits<double>::infinity() : step);
    h.append(series::kEpochTrainLoss, step, 1);
  }
  const auto generation = h.generation();
  h.dropAfter(4);
  const Series* loss = h.find(series::kStepLoss);
  QCOMPARE(loss->values().size(), std::size_t{4});
  QCOMPARE(loss->values().points().back().x, 4.0);
  QCOMPARE(loss->markers(NonFiniteKind::PosInf).size(), std::size_t{0});
  QCOMPARE(h.find(series::kEpochTrainLoss)->values().size(), std::size_t{4});  // every series
  QVERIFY(h.generation() != generation);                                       // plots copy again
  h.append(series::kStepLoss, 5, 0.5);
  QCOMPARE(loss->values().points().back().y, 0.5);
}

void TstGradientWatchGui::nonFiniteHintFollowsTheClippingSetting() {
  Event e;
  e.kind = EventKind::NonFinite;
  e.step = 12;
  e.what = "loss";
  e.value = std::numeric_limits<double>::infinity();
  // No clipping claim without the evidence; the English message is never parsed.
  e.message = "gradient clipping is off";
  QString text = EventText::forEvent(e, nullptr);
  QVERIFY2(!text.contains(QStringLiteral("lipping")), qPrintable(text));
  // The causes are core's, from the run's settings: clipping on (max_norm 1), lr 0.5 (SGD).
  CauseSettings settings;
  settings.optimizer = "sgd";
  settings.lr = 0.5;
  settings.clip_enabled = true;
  settings.max_norm = 1;
  e.evidence.emplace();
  e.evidence->causes = likelyCauses(settings, /*gradient_non_finite=*/true);
  text = EventText::forEvent(e, nullptr);
  QVERIFY2(!text.contains(QStringLiteral("lipping is off")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("Clipping is on (max norm 1)")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("The learning rate 0.5 is high for sgd")),
           qPrintable(text));
  settings.clip_enabled = false;
  settings.lr = 0.05;
  e.evidence->causes = likelyCauses(settings, true);
  text = EventText::forEvent(e, nullptr);
  QVERIFY2(text.contains(QStringLiteral("Gradient clipping is off")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("The learning rate 0.05 is perhaps too high")),
           qPrintable(text));
  QVERIFY2(!text.contains(QStringLiteral("lipping is on")), qPrintable(text));
}

void TstGradientWatchGui::findingsAreWordedInTheInterfaceLanguage() {
  // Every finding core produces, from its own functions: causes under several settings and the
  // doctor's readings of synthetic runs of each kind.
  std::vector<Finding> all;
  std::set<std::string> kinds;
  CauseSettings s;
  s.optimizer = "adam";
  for (double lr : {0.5, 1e-3})
    for (bool clip : {false, true})
      for (bool grad_bad : {false, true}) {
        s.lr = lr;
        s.clip_enabled = clip;
        s.max_norm = 1;
        s.standardize = clip;
        s.target_scale = clip ? 1 : 50;
        for (const Finding& f : likelyCauses(s, grad_bad)) all.push_back(f);
      }
  // One doctor reading of a synthetic run: ten steps of loss 1 (one of them non-finite when
  // `non_finite_at` > 0), then the epochs' {train, val} losses.
  auto reading = [&](std::vector<std::pair<double, double>> epochs, DoctorContext context,
                     int64_t non_finite_at = 0, bool diverged = false) {
    const Diagnosis diag = testruns::diagnoseSynthetic(std::vector<double>(10, 1.0), epochs,
                                                       context, non_finite_at, diverged);
    kinds.insert(diag.kind);
    all.insert(all.end(), diag.evidence.begin(), diag.evidence.end());
    all.insert(all.end(), diag.checks.begin(), diag.checks.end());
  };
  DoctorContext clip_bound;
  clip_bound.clip_enabled = true;
  clip_bound.clip_share_recent = 1;
  clip_bound.clip_steps_recent = 100;
  reading({{2, 2}, {500, 600}}, {}, 4, true);  // diverging: every evidence, clipping off
  reading({{2, 2}}, clip_bound, 4);            // diverging with clipping on
  reading({{0.5, 0.5}}, {});
  // flat under clipping (a loss that falls at every epoch is a slow start, not flat)
  reading({{0.99, 1}, {0.97, 1}, {0.98, 1}}, clip_bound);
  // Plateaus (15 epochs at least, stalled at over half the initial loss), on SGD
  // (try momentum) and SGD with momentum (try Adam).
  std::vector<std::pair<double, double>> stalled = {{0.9, 0.9}, {0.8, 0.8}, {0.7, 0.7},
                                                    {0.65, 0.66}, {0.62, 0.63}};
  for (int i = 0; i < 10; ++i) stalled.push_back({0.6 - 0.0005 * i, 0.61 + 0.001 * (i % 2)});
  DoctorContext sgd;
  sgd.optimizer = "sgd";
  reading(stalled, sgd);
  sgd.momentum = 0.9;
  reading(stalled, sgd);
  reading({{0.5, 0.5}, {0.25, 0.26}, {0.12, 0.13}, {0.06, 0.07}}, {});
  DoctorContext overfit;  // the onset rule, with a patience of 1 epoch of sustained rise
  overfit.overfit_patience = 1;
  reading({{0.5, 0.5}, {0.3, 0.3}, {0.2, 0.35}, {0.1, 0.4}, {0.05, 0.45}}, overfit);
  // the same with weight decay and dropout in use: "regularise more", not "add"
  DoctorContext overfit_regularised = overfit;
  overfit_regularised.weight_decay = 0.01;
  overfit_regularised.dropout = 0.3;
  reading({{0.5, 0.5}, {0.3, 0.3}, {0.2, 0.35}, {0.1, 0.4}, {0.05, 0.45}}, overfit_regularised);
  // Against chance: a loss far above the chance loss (cross-entropy, MSE), labels
  // that carry no signal, a flat run at chance, a resumed run without its initial loss.
  auto chanceReading = [&](std::vector<std::array<double, 3>> epochs, const ChanceLevels& chance,
                           bool from_history = false, double update = std::nan(""),
                           double step_loss = 1.0) {
    LossDoctor doctor;
    if (from_history)
      doctor.restart(100, {}, /*from_history=*/true);
    else
      for (int i = 0; i < 10; ++i) doctor.onStep(step_loss, true);
    if (std::isfinite(update)) doctor.onUpdateRatios({update});
    int64_t n = 0;
    for (const auto& [train, val, acc] : epochs) {
      EpochRecord r;
      r.epoch = ++n;
      r.train_loss = train;
      r.val_loss = val;
      if (acc >= 0) r.val_accuracy = acc;
      doctor.onEpoch(r);
    }
    DoctorContext context;
    context.chance = chance;
    const Diagnosis diag = doctor.diagnose(context);
    kinds.insert(diag.kind);
    all.insert(all.end(), diag.evidence.begin(), diag.evidence.end());
    all.insert(all.end(), diag.checks.begin(), diag.checks.end());
  };
  const ChanceLevels two{true, true, 2, std::log(2.0), 0.5, 200};
  chanceReading({{4000, 4100, 0.5}, {4500, 4400, 0.49}, {3000, 3500, 0.51}}, two);
  chanceReading({{20000, 21000, -1}, {25000, 26000, -1}, {30000, 30000, -1}},
                {true, false, 0, 1250, 0, 40});
  chanceReading({{0.7, 0.69, 0.5},
                 {0.695, 0.693, 0.49},
                 {0.69, 0.695, 0.52},
                 {0.69, 0.696, 0.5},
                 {0.69, 0.697, 0.48},
                 {0.69, 0.698, 0.5}},
                two);
  chanceReading({{0.99, 0.7, 0.5}, {0.98, 0.69, 0.5}, {0.97, 0.68, 0.5}}, two);
  // Weights that barely move (flat: the update ratio named) and labels that carry no signal
  // while they move (the training loss at chance named).
  chanceReading({{0.99, 0.7, 0.5}, {0.98, 0.69, 0.5}, {0.97, 0.68, 0.5}}, two, false, 1e-7);
  chanceReading({{0.7, 0.7, 0.4}, {0.69, 0.7, 0.6}, {0.695, 0.71, 0.45}}, two, false, 0.01, 0.7);
  chanceReading({{0.5, 0.5, -1}, {0.25, 0.26, -1}, {0.12, 0.13, -1}, {0.06, 0.07, -1}}, {},
                /*from_history=*/true);
  std::set<std::string> codes;
  for (const Finding& f : all) codes.insert(f.code);
  // Every code of the list at Finding (core/run/watch_records.h) came up.
  const std::set<std::string> listed = {
      "lr_high", "lr_perhaps_high", "clip_off", "clip_cannot_fix", "clip_drift",
      "targets_scaled", "inputs_raw", "non_finite_steps", "loss_exploded",
      "divergence_detected", "initial_loss", "val_rising", "train_fell", "best_train_loss",
      "train_stalled", "last_losses", "clip_share", "lower_lr_10x", "clip_on", "lower_max_norm",
      "standardise_and_scale", "check_init", "keep_best", "regularise", "regularise_more",
      "more_data",
      "smaller_model", "clip_bound", "raise_lr", "standardise_inputs", "check_labels",
      "fit_tiny_subset", "lr_schedule", "try_momentum", "try_adam", "more_capacity",
      "check_saturation", "update_ratio", "train_loss_at_chance",
      "nothing_urgent", "initial_loss_from_epoch", "loss_above_chance", "val_at_chance",
      "val_loss_at_chance", "check_label_order"};
  QCOMPARE(codes, listed);
  QCOMPARE(kinds, (std::set<std::string>{"diverging", "too_early", "flat", "plateau", "healthy",
                                         "overfitting", "no_signal"}));
  auto cjk = [](const QString& t) {
    for (QChar ch : t)
      if (ch.unicode() >= 0x4E00 && ch.unicode() <= 0x9FFF) return true;
    return false;
  };
  // English: the GUI's own wording (capitalised sentences), not core's text passed through.
  for (const Finding& f : all)
    QVERIFY2(FindingText::text(f) != QString::fromStdString(f.text), f.code.c_str());
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::Chinese, QLocale::China));
  for (const Finding& f : all) {
    const QString t = FindingText::text(f);
    QVERIFY2(cjk(t), qPrintable(QString::fromStdString(f.code) + ": " + t));
    for (double v : f.values)  // the numbers are in the translated sentence
      QVERIFY2(t.contains(EventText::number(v)) || t.contains(QString::number(qint64(v))),
               qPrintable(QString::fromStdString(f.code) + ": " + t));
  }
  for (const std::string& kind : kinds)
    QVERIFY2(cjk(FindingText::diagnosisSummary(kind)), kind.c_str());
  // A run diverging by a loss that stays above chance (no explosion) is not said to grow
  // without bound (6% above ln 10 was "the loss grows without bound"); one with a non-finite
  // step is.
  Diagnosis above;
  above.kind = "diverging";
  above.evidence = {{"loss_above_chance", {2.45, 3, 1, std::log(10.0)}, "cross_entropy", ""}};
  Diagnosis exploded = above;
  exploded.evidence.push_back({"non_finite_steps", {1, 4, INFINITY}, "", ""});
  QVERIFY(cjk(FindingText::diagnosisSummary(above)));
  QVERIFY(FindingText::diagnosisSummary(above) != FindingText::diagnosisSummary("diverging"));
  QCOMPARE(FindingText::diagnosisSummary(exploded), FindingText::diagnosisSummary("diverging"));
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
  QVERIFY(FindingText::diagnosisSummary(above).contains(QStringLiteral("stays above chance")));
  QVERIFY(!FindingText::diagnosisSummary(above).contains(QStringLiteral("without bound")));
  QVERIFY(FindingText::diagnosisSummary(exploded).contains(QStringLiteral("without bound")));
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::Chinese, QLocale::China));
  // Sentences join as each language writes them.
  QCOMPARE(FindingText::joinSentences({QStringLiteral("A b."), QString(), QStringLiteral("C.")}),
           QStringLiteral("A b. C."));
  QCOMPARE(FindingText::joinSentences({QStringLiteral("甲。"), QStringLiteral("乙（1）："),
                                       QStringLiteral("丙。")}),
           QStringLiteral("甲。乙（1）：丙。"));
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
}

void TstGradientWatchGui::dataAndModelWarningsAreWordedInTheInterfaceLanguage() {
  // Issue 43's run events: the data report's warnings, the CSV header decision and a traced
  // model, from their facts (never core's English message) in both languages.
  auto event = [](EventKind kind, const char* what, std::optional<double> value, const char* file,
                  std::vector<double> values = {}) {
    Event e;
    e.kind = kind;
    e.what = what;
    e.value = value;
    e.file = file;
    e.values = std::move(values);
    e.message = "english message from core";
    return e;
  };
  const std::vector<Event> events = {
      event(EventKind::DataWarning, "leakage", 569.0, ""),
      event(EventKind::DataWarning, "duplicates", 3.0, ""),
      event(EventKind::DataWarning, "imbalance", 12.0, "", {12.5}),
      event(EventKind::DataWarning, "few_samples", 4.0, "setosa"),
      event(EventKind::DataWarning, "constant_features", 1.0, "\"colour\""),
      event(EventKind::DataWarning, "csv_header", 1.0, "/data/flowers.csv"),
      event(EventKind::DataWarning, "csv_header", 0.0, "/data/flowers.csv"),
      event(EventKind::ModelWarning, "traced", std::nullopt, "/m/net.pt"),
      event(EventKind::ModelWarning, "frozen_parameters", 6.0, "/m/net.pt")};
  const QStringList numbers = {"569", "3", "12.5", "4", "1", "flowers.csv", "flowers.csv",
                               "torch.jit.trace", "6"};
  for (const char* lang : {"en", "zh_CN"}) {
    installTranslations(*QCoreApplication::instance(), QLocale(QString::fromLatin1(lang)));
    for (size_t i = 0; i < events.size(); ++i) {
      EventText::Severity severity;
      const QString t = EventText::forEvent(events[i], &severity);
      QVERIFY2(!t.contains(QStringLiteral("english message")), qPrintable(t));
      QVERIFY2(t.contains(numbers[static_cast<int>(i)]), qPrintable(t));
      const bool chinese = std::any_of(t.begin(), t.end(), [](QChar ch) {
        return ch.unicode() >= 0x4E00 && ch.unicode() <= 0x9FFF;
      });
      QVERIFY2(chinese == (QLatin1String(lang) == QLatin1String("zh_CN")), qPrintable(t));
    }
    // flat's evidence over a window of epochs (issue 42's lesson walk): all four numbers.
    const Finding block{"best_train_loss", {1.262, 126.2, 10, 5}, "", "english"};
    const QString t = FindingText::text(block);
    for (double v : block.values)
      QVERIFY2(t.contains(EventText::number(v)), qPrintable(t));
  }
  installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English));
}

TRAINSCOPE_GUI_TEST_MAIN(TstGradientWatchGui)
}  // namespace tst_gradient_watch_gui_suite
#include "tst_gradient_watch_gui.moc"

#include "gui/plots/runs_overlay.h"

#include "gui/plots/palette.h"
#include <QScreen>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <qcustomplot.h>

#include "core/errors.h"
#include "core/run/run_reader.h"
#include "core/run/run_table.h"
#include "core/run/smoothing.h"
#include "gui/model/run_history.h"
#include "gui/model/run_store.h"
#include "gui/plots/plot_export.h"
#include "gui/tr.h"
#include "gui/plots/plot_style.h"

namespace trainscope {
namespace {

// matplotlib's tab10: one colour per run.

struct Metric {
  const char* key;
  const char* series;  ///< the run's series (run_history.h) the curve is drawn from
  const char* title;
  bool per_step;
  bool higher_is_better;
  bool log;  ///< log scale by default
};
const Metric kMetrics[] = {
    {"val_loss", series::kEpochValLoss, QT_TRANSLATE_NOOP("TrainScope", "validation loss"), false, false, true},
    {"train_loss", series::kEpochTrainLoss, QT_TRANSLATE_NOOP("TrainScope", "training loss (epoch mean)"), false, false, true},
    {"val_accuracy", series::kEpochValAccuracy, QT_TRANSLATE_NOOP("TrainScope", "validation accuracy"), false, true, false},
    {"train_accuracy", series::kEpochTrainAccuracy, QT_TRANSLATE_NOOP("TrainScope", "training accuracy"), false, true, false},
    {"epoch_lr", series::kEpochLr, QT_TRANSLATE_NOOP("TrainScope", "learning rate (per epoch)"), false, false, true},
    {"samples_per_second", series::kEpochSamplesPerSecond, QT_TRANSLATE_NOOP("TrainScope", "samples per second"), false, true, false},
    {"loss", series::kStepLoss, QT_TRANSLATE_NOOP("TrainScope", "training loss (per step)"), true, false, true},
    {"grad_norm", series::kStepGradNorm, QT_TRANSLATE_NOOP("TrainScope", "gradient norm (per step)"), true, false, true},
    {"grad_norm_clipped", series::kStepGradNormClipped, QT_TRANSLATE_NOOP("TrainScope", "clipped gradient norm (per step)"), true, false, true},
    {"lr", series::kStepLr, QT_TRANSLATE_NOOP("TrainScope", "learning rate (per step)"), true, false, true},
};
const char* kAxes[][2] = {{"step", QT_TRANSLATE_NOOP("TrainScope", "step")},
                          {"epoch", QT_TRANSLATE_NOOP("TrainScope", "epoch")},
                          {"samples", QT_TRANSLATE_NOOP("TrainScope", "samples seen")},
                          {"time", QT_TRANSLATE_NOOP("TrainScope", "training time (s)")}};

/// The points of series `name` in step order, a non-finite value (a marker of the series) as
/// NaN: it leaves a gap in the curve.
std::vector<std::pair<double, double>> seriesPoints(const RunHistory& run, const std::string& name) {
  std::vector<std::pair<double, double>> out;
  const Series* s = run.find(name);
  if (!s) return out;
  for (const SeriesPoint& p : s->values().points()) out.emplace_back(p.x, p.y);
  for (int k = 0; k < kNonFiniteKinds; ++k)
    for (const SeriesPoint& p : s->markers(static_cast<NonFiniteKind>(k)).points())
      out.emplace_back(p.x, std::nan(""));
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

/// The x of every point of the run's series for metric `m` on axis `axis`: the epochs' ends
/// (epoch/epoch, epoch/epoch_seconds) place each step; within an epoch the steps are spread
/// evenly (a run's unfinished epoch over the steps seen so far).
std::vector<std::pair<double, double>> curveOf(const RunHistory& run, double n_train,
                                               const Metric& m, const std::string& axis) {
  const auto ends = seriesPoints(run, series::kEpochNumber);   // (end step, epoch)
  const auto secs = seriesPoints(run, series::kEpochSeconds);  // (end step, seconds)
  std::vector<double> time_at_end;  // training time at each end (pauses left out)
  double t = 0;
  for (size_t i = 0; i < ends.size(); ++i) {
    t += i < secs.size() && std::isfinite(secs[i].second) ? secs[i].second : 0.0;
    time_at_end.push_back(t);
  }
  std::vector<std::pair<double, double>> out = seriesPoints(run, m.series);
  if (axis == "step") return out;
  if (!m.per_step) {
    for (auto& [x, y] : out) {
      const auto it = std::lower_bound(ends.begin(), ends.end(), x,
                                       [](const auto& e, double step) { return e.first < step; });
      if (it == ends.end()) continue;
      const auto i = static_cast<size_t>(it - ends.begin());
      if (axis == "epoch") x = it->second;
      if (axis == "samples") x = it->second * n_train;
      if (axis == "time") x = time_at_end[i];
    }
    return out;
  }
  const double last_step = out.empty() ? 0.0 : out.back().first;
  for (auto& [x, y] : out) {
    const auto it = std::lower_bound(ends.begin(), ends.end(), x,
                                     [](const auto& e, double step) { return e.first < step; });
    const auto i = static_cast<size_t>(it - ends.begin());
    const double start = i > 0 ? ends[i - 1].first : 0.0;       // the step before the epoch
    const double end = it != ends.end() ? it->first : last_step;  // its last step (so far)
    const double frac = end > start ? (x - start) / (end - start) : 1.0;
    const double epoch = it != ends.end() ? it->second : (i > 0 ? ends[i - 1].second : 0.0) + 1;
    if (axis == "epoch") x = epoch - 1 + frac;
    if (axis == "samples") x = (epoch - 1 + frac) * n_train;
    if (axis == "time") {
      const double before = i > 0 ? time_at_end[i - 1] : 0.0;
      const double seconds = it != ends.end() && i < secs.size() ? secs[i].second : 0.0;
      x = before + frac * (std::isfinite(seconds) ? seconds : 0.0);
    }
  }
  return out;
}

QString number(double v) { return QString::number(v, 'g', 4); }

constexpr int kLiveRefreshMs = 1000;
constexpr int kAntialiasedMaxPoints = 2000;  ///< as the live plots
constexpr int kFoldAbove = 4096;  ///< points per curve drawn exactly; longer ones are folded

}  // namespace

RunsOverlayDialog::RunsOverlayDialog(const QStringList& dirs, QWidget* parent, RunStore* store)
    : QDialog(parent), store_(store ? store : new RunStore(this)) {
  setObjectName(QStringLiteral("runsOverlayDialog"));
  setWindowTitle(Tr::tr("Compare runs"));
  setSizeGripEnabled(true);
  std::vector<RunRow> rows;
  for (const QString& d : dirs) {
    try {
      const RunRecord run = readRun(d.toStdString());
      rows.push_back(readRunRow(d.toStdString()));
      Held held;
      held.key = runs::overlay(static_cast<int>(runs_.size()));
      held.dir = run.dir;
      held.n_train = static_cast<double>(std::max<int64_t>(run.info.data.n_train, 1));
      // Still being written by a trainer (its lock held, no summary.json): read again below.
      held.live = beingWritten(run);
      store_->holdRun(held.key, run);
      runs_.push_back(std::move(held));
    } catch (const Error& e) {
      unreadable_ << Tr::tr("%1 left out: %2").arg(d, QString::fromStdString(e.what()));
    }
  }
  // Legend names: the folder plus what differs (at most three settings).
  const auto diffs = configDifferences(rows);
  for (size_t i = 0; i < runs_.size(); ++i) {
    QStringList what;
    for (size_t k = 0; k < diffs.size() && what.size() < 3; ++k)
      if (diffs[k].key != "training.seed" || diffs.size() == 1)
        what << QString::fromStdString(diffs[k].key.substr(diffs[k].key.rfind('.') + 1) + "=" +
                                       diffs[k].values[i]);
    const QString folder = QString::fromStdString(runs_[i].dir.filename().string());
    names_ << (what.isEmpty() ? folder : folder + QStringLiteral(" (") + what.join(", ") + ")");
  }

  metric_ = new QComboBox(this);
  metric_->setObjectName(QStringLiteral("overlayMetricComboBox"));
  for (const auto& m : kMetrics) metric_->addItem(Tr::tr(m.title), QLatin1String(m.key));
  x_axis_ = new QComboBox(this);
  x_axis_->setObjectName(QStringLiteral("overlayXAxisComboBox"));
  for (const auto& a : kAxes) x_axis_->addItem(Tr::tr(a[1]), QLatin1String(a[0]));
  baseline_ = new QComboBox(this);
  baseline_->setObjectName(QStringLiteral("overlayBaselineComboBox"));
  baseline_->addItems(names_);
  smoothing_ = new QDoubleSpinBox(this);
  smoothing_->setObjectName(QStringLiteral("overlaySmoothingSpinBox"));
  smoothing_->setRange(0.0, 0.999);
  smoothing_->setSingleStep(0.1);
  smoothing_->setDecimals(3);
  smoothing_->setToolTip(Tr::tr("TensorBoard's smoothing: a debiased exponential moving average "
                                "of each run's points (0: none)."));
  log_ = new QCheckBox(Tr::tr("Log scale"), this);
  log_->setObjectName(QStringLiteral("overlayLogCheckBox"));
  auto* controls = new QFormLayout;
  controls->addRow(Tr::tr("Show:"), metric_);
  controls->addRow(Tr::tr("Against:"), x_axis_);
  controls->addRow(Tr::tr("Baseline:"), baseline_);
  controls->addRow(Tr::tr("Smoothing:"), smoothing_);
  controls->addRow(QString(), log_);
  readout_ = new QLabel(this);
  readout_->setObjectName(QStringLiteral("overlayReadoutLabel"));
  readout_->setWordWrap(true);
  readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* side = new QVBoxLayout;
  side->addLayout(controls);
  side->addWidget(readout_, 1);
  plot_ = new QCustomPlot(this);
  plot_->setObjectName(QStringLiteral("overlayPlot"));
  installPlotExportMenu(plot_);
  plot_->setMinimumSize(480, 320);
  // The legend in a row of its own above the curves, as the live plots have it: inside the
  // axis rect it covered where the curves start. Two columns: run names
  // with what differs are long.
  plot_->legend->setVisible(true);
  plot_->legend->setBrush(Qt::NoBrush);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
  plot_->legend->setWrap(2);
  plot_->legend->setRowSpacing(0);
  plot_->legend->setColumnSpacing(12);
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  plot_->plotLayout()->insertRow(0);
  plot_->plotLayout()->addElement(0, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(0, 0.001);
  plot_->plotLayout()->setRowSpacing(0);
  followPresentation(plot_);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  // As the live plots (live_plot.cpp): one polyline per graph, not a segment per point pair.
  plot_->setPlottingHint(QCP::phFastPolylines, true);
  plot_->setNoAntialiasingOnDrag(true);
  for (size_t i = 0; i < runs_.size(); ++i) {
    QCPGraph* g = plot_->addGraph();
    QPen pen(palette::tab10(static_cast<int>(i)), 1.8);
    g->setPen(pen);
    g->setName(names_[static_cast<int>(i)]);
  }
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(plot_, 3);
  layout->addLayout(side, 1);
  auto changed = [this] { redraw(); };
  connect(metric_, &QComboBox::currentIndexChanged, this, [this] {
    log_->setChecked(kMetrics[std::max(0, metric_->currentIndex())].log);
    redraw();
  });
  connect(x_axis_, &QComboBox::currentIndexChanged, this, changed);
  connect(baseline_, &QComboBox::currentIndexChanged, this, changed);
  connect(smoothing_, &QDoubleSpinBox::valueChanged, this, changed);
  connect(log_, &QCheckBox::toggled, this, changed);
  log_->setChecked(true);
  // 1100 x 620 where there is room; never wider or taller than the screen (a 1024x768
  // projector), the plot then narrower.
  QSize size(1100, 620);
  if (const QScreen* s = screen()) size = size.boundedTo(s->availableGeometry().size());
  resize(size);
  redraw();
  // The live run (or any run still training) grows on the plot: its files are read again
  // every second, read-only, until its summary.json appears.
  if (std::any_of(runs_.begin(), runs_.end(), [](const Held& h) { return h.live; })) {
    auto* timer = new QTimer(this);
    timer->setInterval(kLiveRefreshMs);
    connect(timer, &QTimer::timeout, this, [this, timer] {
      if (refreshLive() == 0) timer->stop();
    });
    timer->start();
  }
}

int RunsOverlayDialog::refreshLive() {
  int still = 0;
  for (Held& held : runs_) {
    if (!held.live) continue;
    try {  // a half-written last line is left out by readRun; the next read has it
      const RunRecord again = readRun(held.dir);
      held.live = beingWritten(again);
      store_->holdRun(held.key, again);
    } catch (const Error&) {  // mid-rewrite or gone: keep what was read
    }
    still += held.live ? 1 : 0;
  }
  redraw();
  return still;
}

RunsOverlayDialog::~RunsOverlayDialog() = default;

bool RunsOverlayDialog::setMetric(const QString& key) {
  const int i = metric_->findData(key);
  if (i >= 0) metric_->setCurrentIndex(i);
  return i >= 0;
}

bool RunsOverlayDialog::setXAxis(const QString& key) {
  const int i = x_axis_->findData(key);
  if (i >= 0) x_axis_->setCurrentIndex(i);
  return i >= 0;
}

void RunsOverlayDialog::setBaseline(int run) { baseline_->setCurrentIndex(run); }
void RunsOverlayDialog::setSmoothing(double weight) { smoothing_->setValue(weight); }

QStringList RunsOverlayDialog::legendNames() const { return names_; }
QString RunsOverlayDialog::readout() const { return readout_->text(); }

std::vector<std::pair<double, double>> RunsOverlayDialog::points(int i) const {
  std::vector<std::pair<double, double>> out;
  const auto data = plot_->graph(i)->data();
  for (auto it = data->constBegin(); it != data->constEnd(); ++it) out.emplace_back(it->key, it->value);
  return out;
}

void RunsOverlayDialog::redraw() {
  const Metric& m = kMetrics[std::max(0, metric_->currentIndex())];
  const std::string axis = x_axis_->currentData().toString().toStdString();
  const int base = std::max(0, baseline_->currentIndex());
  struct Summary {
    double last = std::nan(""), best = std::nan("");
  };
  std::vector<Summary> sums(runs_.size());
  for (size_t i = 0; i < runs_.size(); ++i) {
    const auto pts = curveOf(store_->run(runs_[i].key), runs_[i].n_train, m, axis);
    std::vector<double> ys;
    for (const auto& p : pts) ys.push_back(p.second);
    const std::vector<double> smooth = emaDebiased(ys, smoothing_->value());
    QVector<double> xs, vs;
    for (size_t k = 0; k < pts.size(); ++k) {
      // A non-finite value cannot be drawn (or sit on a log axis): it leaves a gap.
      const bool drawable = std::isfinite(smooth[k]) && (!log_->isChecked() || smooth[k] > 0);
      xs.push_back(pts[k].first);
      vs.push_back(drawable ? smooth[k] : std::nan(""));
      if (std::isfinite(ys[k])) {
        sums[i].last = ys[k];
        if (std::isnan(sums[i].best) || (m.higher_is_better ? ys[k] > sums[i].best : ys[k] < sums[i].best))
          sums[i].best = ys[k];
      }
    }
    QCPGraph* g = plot_->graph(static_cast<int>(i));
    if (xs.size() > kFoldAbove) {
      // A long per-step curve is folded as the live plots fold theirs (BoundedSeries: older
      // points as min/max buckets, spikes and extremes kept): a log axis transforms every
      // point on each replot. Non-finite points (gaps) are left out of a folded curve.
      BoundedSeries folded(kFoldAbove);
      for (int k = 0; k < xs.size(); ++k)
        if (std::isfinite(vs[k])) folded.append(xs[k], vs[k]);
      xs.clear();
      vs.clear();
      for (const SeriesPoint& p : folded.points()) {
        xs.push_back(p.x);
        vs.push_back(p.y);
      }
    }
    g->setData(xs, vs, /*alreadySorted=*/false);
    // Long curves: speed over smoothness. Antialiasing and a pen wider than 1 px (Qt strokes
    // it as a polygon) each cost more than the rest of a replot on 10 x 4,096 points, so a
    // long curve other than the baseline is drawn 1 px wide (bench_plots --overlay: 21 -> 9 ms).
    const bool is_long = xs.size() > kAntialiasedMaxPoints;
    g->setAntialiased(!is_long);
    QPen pen = g->pen();
    pen.setWidthF(static_cast<int>(i) == base ? 3.0 : is_long ? 1.0 : 1.6);
    g->setPen(pen);
  }
  plot_->yAxis->setScaleType(log_->isChecked() ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (log_->isChecked())
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
  else
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  plot_->xAxis->setLabel(x_axis_->currentText());
  plot_->yAxis->setLabel(metric_->currentText());
  plot_->rescaleAxes();
  plot_->replot();

  auto pct = [](double v, double b) {
    if (!std::isfinite(v) || !std::isfinite(b) || b == 0) return QString();
    const double p = (v - b) / std::fabs(b) * 100.0;
    return QStringLiteral(" (%1%2 %)").arg(p >= 0 ? "+" : "").arg(QString::number(p, 'f', 1));
  };
  QStringList lines;
  lines << Tr::tr("<b>%1</b>, last and best value; in brackets the difference from the baseline:")
               .arg(metric_->currentText().toHtmlEscaped());
  for (size_t i = 0; i < runs_.size(); ++i) {
    const bool is_base = static_cast<int>(i) == base;
    const QString name = names_[static_cast<int>(i)].toHtmlEscaped();
    lines << QStringLiteral("<span style='color:%1'>&#9632;</span> %2%3: %4%5, %6%7")
                 .arg(palette::css(palette::tab10(static_cast<int>(i))), name, is_base ? Tr::tr(" (baseline)") : QString(),
                      number(sums[i].last), is_base ? QString() : pct(sums[i].last, sums[base].last),
                      number(sums[i].best), is_base ? QString() : pct(sums[i].best, sums[base].best));
  }
  for (const QString& u : unreadable_) lines << u.toHtmlEscaped();
  readout_->setText(lines.join(QStringLiteral("<br>")));
}

}  // namespace trainscope

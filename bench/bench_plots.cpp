// bench_plots: replot cost of the dashboard's loss and gradient-norm plots after a long run.
// Feeds 10^6 steps (and 1,000 epochs) into a RunHistory exactly as the controller does, binds
// the two plots to it at the size they have in a 1600x1000 window, then times 50 rounds of:
// 2,000 more steps (a 30 Hz frame at 60,000 steps/s), sync, immediate replot of both plots.
// Prints median_ms=X worst_ms=Y (median <= 8 ms, worst <= 16 ms), then the side views
// at their size in that window, fed alongside (accuracy per epoch, learning rate and loss
// scale per step, layer statistics of 6 tensors every 10 steps, a 60x60 decision-region model
// view of 1,000 points): side_view=NAME median_ms=X worst_ms=Y for 50 immediate replots each
// (target: median <= 4 ms).
//
// bench_plots --overlay [RUNS] [STEPS]: the Runs window's "Compare curves" (issue 24 §5):
// writes RUNS (10) run folders of STEPS (100,000) steps each into a temporary folder, opens
// them in RunsOverlayDialog at 1100x620, shows the per-step loss against the step, and times
// 50 immediate replots (target: median <= 16 ms), after the time to read and draw them once.
#include <QApplication>
#include <QDir>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <fstream>
#include <string>
#include <vector>

#include "gui/model/run_history.h"
#include "gui/model/run_store.h"
#include "gui/plots/epoch_plots.h"
#include "gui/plots/layer_plot.h"
#include "gui/plots/loss_scale_plot.h"
#include "gui/plots/runs_overlay.h"
#include "gui/plots/training_plots.h"
#include "gui/views/evaluation_view.h"
#include "gui/views/model_view.h"
#include "core/run/class_metrics.h"
#include <QTabWidget>

using namespace trainscope;

namespace {

/// BENCH_DEBUG=1: what each graph of `p` costs, the median of 9 replots without it against
/// all of them (and, for a graph with a fill, without antialiasing the fill and without it).
void explain(QCustomPlot* p) {
  auto time = [&] {
    std::vector<double> t;
    for (int i = 0; i < 9; ++i) {
      QElapsedTimer e;
      e.start();
      p->replot(QCustomPlot::rpImmediateRefresh);
      t.push_back(static_cast<double>(e.nsecsElapsed()) / 1e6);
    }
    std::sort(t.begin(), t.end());
    return t[4];
  };
  const double all = time();
  std::vector<bool> shown;
  for (int g = 0; g < p->graphCount(); ++g) {
    shown.push_back(p->graph(g)->visible());
    p->graph(g)->setVisible(false);
  }
  const double bare = time();
  for (int g = 0; g < p->graphCount(); ++g) p->graph(g)->setVisible(shown[g]);
  std::printf("%s: %.2f ms (%.2f ms without any graph)\n", qPrintable(p->objectName()), all, bare);
  for (int g = 0; g < p->graphCount(); ++g) {
    QCPGraph* graph = p->graph(g);
    if (!graph->visible() || graph->dataCount() == 0) continue;
    graph->setVisible(false);
    std::printf("  without %-28s (%6d points, %s): -%.2f ms\n", qPrintable(graph->name()),
                graph->dataCount(), graph->antialiased() ? "antialiased" : "aliased", all - time());
    graph->setVisible(true);
    if (graph->brush().style() != Qt::NoBrush) {
      p->setNotAntialiasedElements(QCP::aeFills);
      std::printf("  fill not antialiased: -%.2f ms\n", all - time());
      p->setNotAntialiasedElements(QCP::aeNone);
      const QBrush brush = graph->brush();
      graph->setBrush(Qt::NoBrush);
      std::printf("  without its fill: -%.2f ms\n", all - time());
      graph->setBrush(brush);
    }
  }
}

int overlay(int runs, long steps) {
  QTemporaryDir tmp;
  QStringList dirs;
  std::mt19937 rng(1);
  std::normal_distribution<double> noise(0.0, 0.1);
  const long per_epoch = std::max(1L, steps / 100);
  for (int r = 0; r < runs; ++r) {
    const QString dir = tmp.filePath(QStringLiteral("run-%1").arg(r));
    QDir().mkpath(dir);
    dirs << dir;
    const std::string d = dir.toStdString();
    std::ofstream(d + "/config.json") << R"({"name": "run", "optimizer": {"lr": )" << 1e-3 * (r + 1)
                                      << "}}";
    std::ofstream(d + "/run.json") << R"({"trainscope_version": "bench", "data": {"n_train": 3200}})";
    std::ofstream st(d + "/steps.csv"), me(d + "/metrics.csv");
    st << "step,epoch,batch,loss,grad_norm,grad_norm_clipped,lr,loss_scale\n";
    me << "epoch,step,train_loss,val_loss,val_accuracy,lr,epoch_seconds,samples_per_second\n";
    for (long s = 1; s <= steps; ++s) {
      const long epoch = (s - 1) / per_epoch + 1, batch = (s - 1) % per_epoch + 1;
      const double loss = (1.0 + 0.1 * r) / std::sqrt(double(s)) + std::abs(noise(rng));
      st << s << ',' << epoch << ',' << batch << ',' << loss << ',' << 5 * loss << ','
         << std::min(5 * loss, 1.0) << ",0.001,\n";
      if (batch == per_epoch) me << epoch << ',' << s << ',' << loss << ',' << loss * 1.1 << ",,0.001,0.5,6400\n";
    }
  }
  QElapsedTimer timer;
  timer.start();
  RunsOverlayDialog dialog(dirs);
  dialog.resize(1100, 620);
  dialog.show();
  dialog.setMetric(QStringLiteral("loss"));
  dialog.setXAxis(QStringLiteral("step"));
  const double load_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  std::vector<double> ms;
  for (int i = 0; i < 50; ++i) {
    timer.start();
    dialog.plot()->replot(QCustomPlot::rpImmediateRefresh);
    ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
  }
  std::sort(ms.begin(), ms.end());
  if (qEnvironmentVariableIsSet("BENCH_DEBUG")) {
    auto time = [&](const char* what) {
      QElapsedTimer t;
      t.start();
      dialog.plot()->replot(QCustomPlot::rpImmediateRefresh);
      std::printf("%s: %.2f ms\n", what, static_cast<double>(t.nsecsElapsed()) / 1e6);
    };
    time("as is");
    dialog.findChild<QCheckBox*>(QStringLiteral("overlayLogCheckBox"))->setChecked(false);
    time("linear");
    dialog.plot()->setNotAntialiasedElements(QCP::aeAll);
    time("no antialiasing");
    dialog.plot()->legend->setVisible(false);
    time("no legend");
  }
  std::printf("overlay runs=%d steps_per_run=%ld read_and_draw_ms=%.0f\n", runs, steps, load_ms);
  std::printf("median_ms=%.2f worst_ms=%.2f\n", ms[ms.size() / 2], ms.back());
  return 0;
}

/// bench_plots --evaluation: the Evaluation tab drawn with a 10,000-sample x 10-class detail
/// (issue 49 §1 figure: drawn <= 50 ms): setDetail, then an immediate repaint of the view with
/// each of its pages (samples, per class, PR curves, ROC curves) at 1024x700; medians of 20.
int evaluation() {
  const int64_t n = 10'000, k = 10;
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::uniform_int_distribution<int64_t> cls(0, k - 1);
  std::vector<double> scores;
  std::vector<int64_t> label, predicted;
  ValidationDetail d;
  d.epoch = 1;
  d.n_classes = k;
  d.confusion.assign(static_cast<std::size_t>(k * k), 0);
  d.cells.resize(static_cast<std::size_t>(k * k));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t y = cls(rng);
    std::vector<double> logit(static_cast<std::size_t>(k));
    double z = 0;
    for (int64_t c = 0; c < k; ++c) z += (logit[static_cast<std::size_t>(c)] = std::exp(noise(rng) + (c == y ? 2 : 0)));
    for (double& v : logit) v /= z;
    const auto p = static_cast<int64_t>(std::max_element(logit.begin(), logit.end()) - logit.begin());
    scores.insert(scores.end(), logit.begin(), logit.end());
    label.push_back(y);
    predicted.push_back(p);
    ++d.confusion[static_cast<std::size_t>(y * k + p)];
    auto& cell = d.cells[static_cast<std::size_t>(y * k + p)];
    if (static_cast<int64_t>(cell.size()) < ValidationDetail::kCellSamples) {
      WorstSample w;
      w.position = i, w.target = y, w.predicted = p;
      w.raw.assign(784, static_cast<float>(i % 255));
      cell.push_back(w);
    }
  }
  d.worst = std::vector<WorstSample>(d.cells[1].begin(), d.cells[1].end());
  d.samples = n;
  d.classes = classReports(scores, label, predicted, k, true);
  for (ClassReport& r : d.classes) d.curves_thinned = thinCurves(r, ValidationDetail::kMaxCurvePoints) || d.curves_thinned;
  ThresholdCounts counts = thresholdCounts(scores, label, k, ValidationDetail::kThresholds);
  d.tp_at = counts.tp;
  d.fp_at = counts.fp;
  RunInfo info;
  info.data.task = "classification";
  info.data.image_shape = {1, 28, 28};
  for (int64_t c = 0; c < k; ++c) info.data.class_names.push_back("class " + std::to_string(c));
  EvaluationView view;
  view.resize(1024, 700);
  view.setRunInfo(info);
  view.show();
  QApplication::processEvents();
  auto* tabs = view.findChild<QTabWidget*>(QStringLiteral("evaluationTabs"));
  QElapsedTimer timer;
  for (int page = 0; page < tabs->count(); ++page) {
    tabs->setCurrentIndex(page);
    std::vector<double> ms;
    for (int i = 0; i < 20; ++i) {
      timer.start();
      view.setDetail(d);
      view.repaint();
      // the plots replot queued: draw them now, as the next frame would
      for (QCustomPlot* plot : view.findChildren<QCustomPlot*>())
        if (plot->isVisible()) plot->replot(QCustomPlot::rpImmediateRefresh);
      ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("evaluation page=%s median_ms=%.1f worst_ms=%.1f (target <= 50 ms)\n",
                qPrintable(tabs->widget(page)->objectName().isEmpty() ? tabs->tabText(page)
                                                                      : tabs->tabText(page)),
                ms[ms.size() / 2], ms.back());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM",
          qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "--evaluation") return evaluation();
  if (argc > 1 && std::string(argv[1]) == "--overlay")
    return overlay(argc > 2 ? std::atoi(argv[2]) : 10, argc > 3 ? std::atol(argv[3]) : 100'000);
  const long steps = argc > 1 ? std::atol(argv[1]) : 1'000'000;
  const int rounds = 50;
  const long per_round = 2000;
  const long steps_per_epoch = std::max(1L, steps / 1000);

  RunHistory history;
  std::mt19937 rng(1);
  std::normal_distribution<double> noise(0.0, 0.1);
  long step = 0;
  double scale = 65536;
  const std::vector<std::string> kTensors = {"0.weight", "0.bias", "2.weight",
                                             "2.bias",   "4.weight", "4.bias"};
  auto feed = [&](long n) {
    for (long i = 0; i < n; ++i) {
      ++step;
      const double x = static_cast<double>(step);
      const double loss = 2.0 / std::sqrt(x) + std::abs(noise(rng));
      history.append(series::kStepLoss, x, loss);
      history.append(series::kStepGradNorm, x, 5 * loss);
      history.append(series::kStepGradNormClipped, x, std::min(5 * loss, 1.0));
      history.append(series::kStepMaxNorm, x, 1.0);
      history.append(series::kStepLr, x, 1e-3 * (1 + std::cos(x / 1e5)));
      // A GradScaler's scale: grows x2 every 2,000 steps, halves at a skipped step (1 in 1,500).
      if (step % 1500 == 0) {
        scale /= 2;
        history.append(series::kStepScalerSkipped, x, scale * 2);
      } else if (step % 2000 == 0) {
        scale *= 2;
      }
      history.append(series::kStepLossScale, x, scale);
      if (step % 10 == 0)
        for (std::size_t k = 0; k < kTensors.size(); ++k) {
          history.append(series::layerGradNorm(kTensors[k]), x, (k + 1) * loss);
          history.append(series::layerUpdateRatio(kTensors[k]), x, 1e-3 * (k + 1) * loss);
        }
      if (step % steps_per_epoch == 0) {
        history.append(series::kEpochTrainLoss, x, loss);
        history.append(series::kEpochValLoss, x, loss * 1.1);
        history.append(series::kEpochTrainAccuracy, x, 1 - loss / 3);
        history.append(series::kEpochValAccuracy, x, 1 - loss / 2.5);
      }
    }
  };
  feed(steps);

  LossPlot loss;
  GradNormPlot grad;
  grad.setClipping(true, 1.0);
  loss.resize(1180, 480);
  grad.resize(1180, 320);
  for (LivePlot* p : {static_cast<LivePlot*>(&loss), static_cast<LivePlot*>(&grad)}) {
    p->setHistory(&history);
    p->sync();
    p->replot(QCustomPlot::rpImmediateRefresh);
  }

  std::vector<double> ms, sync_ms;
  QElapsedTimer timer;
  for (int r = 0; r < rounds; ++r) {
    feed(per_round);
    timer.start();
    loss.sync();
    grad.sync();
    sync_ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    loss.replot(QCustomPlot::rpImmediateRefresh);
    grad.replot(QCustomPlot::rpImmediateRefresh);
    ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
  }
  std::sort(ms.begin(), ms.end());
  std::sort(sync_ms.begin(), sync_ms.end());
  if (qEnvironmentVariableIsSet("BENCH_DEBUG")) {
    explain(&loss);
    explain(&grad);
  }
  if (qEnvironmentVariableIsSet("BENCH_SAVE"))
    for (QCustomPlot* p : {static_cast<QCustomPlot*>(&loss), static_cast<QCustomPlot*>(&grad)})
      p->savePng(qEnvironmentVariable("BENCH_SAVE") + QLatin1Char('/') + p->objectName() + ".png");
  std::printf("steps=%ld points_per_series<=%zu sync_median_ms=%.2f\n", step, history.budget(),
              sync_ms[sync_ms.size() / 2]);
  std::printf("median_ms=%.2f worst_ms=%.2f\n", ms[ms.size() / 2], ms.back());

  // The side views, each at its size in a 1600x1000 window (the right-hand tabs ~420x400, the
  // bottom tabs ~1030x200), bound to the same history.
  AccuracyPlot accuracy;
  accuracy.resize(420, 400);
  LrPlot lr;
  lr.resize(1030, 200);
  LossScalePlot loss_scale;
  loss_scale.resize(1030, 200);
  RunStore store;
  LayerPlot layers(&store, nullptr);
  layers.resize(1030, 200);
  LayerStatsRecord stats;
  stats.names = kTensors;
  stats.grad_norm.assign(kTensors.size(), 1.0);
  stats.update_ratio.assign(kTensors.size(), 1e-3);
  emit store.layerStatsRecorded(stats);  // binds the layer plots to these tensors
  layers.show();
  ModelView model_view;
  model_view.resize(420, 400);
  ModelViewRecord record;
  record.kind = ModelViewRecord::Kind::Regions;
  record.epoch = 1000;
  record.step = step;
  record.grid_w = record.grid_h = 60;
  record.x0_min = record.x1_min = -2;
  record.x0_max = record.x1_max = 2;
  for (int j = 0; j < 60; ++j)
    for (int i = 0; i < 60; ++i)
      record.probability.push_back(1.0f / (1.0f + std::exp(-float(i - j) / 6.0f)));
  std::uniform_real_distribution<double> where(-2, 2);
  for (int i = 0; i < 1000; ++i) {
    const double x0 = where(rng), x1 = where(rng);
    (i < 800 ? record.train_x : record.val_x).push_back(x0);
    (i < 800 ? record.train_y : record.val_y).push_back(x1);
    (i < 800 ? record.train_label : record.val_label).push_back(x0 > x1 ? 1 : 0);
  }
  model_view.setRecord(record);
  model_view.show();
  QCustomPlot* model_plot = model_view.findChild<QCustomPlot*>(QStringLiteral("modelViewPlot"));

  struct Side {
    const char* name;
    std::vector<QCustomPlot*> plots;
  };
  const std::vector<Side> sides = {
      {"accuracy", {&accuracy}},
      {"lr", {&lr}},
      {"layers", {layers.gradPlot(), layers.ratioPlot()}},
      {"model_view", {model_plot}},
      {"loss_scale", {&loss_scale}},
  };
  for (const Side& side : sides) {
    for (QCustomPlot* p : side.plots) {
      if (auto* live = qobject_cast<LivePlot*>(p)) {
        live->setHistory(&history);
        live->sync();
      }
      p->replot(QCustomPlot::rpImmediateRefresh);
    }
  }
  // BENCH_SIDE=NAME: that view alone, 10 times the rounds (for a profiler).
  const QString only = qEnvironmentVariable("BENCH_SIDE");
  for (const Side& side : sides) {
    if (!only.isEmpty() && only != QLatin1String(side.name)) continue;
    std::vector<double> t;
    for (int r = 0; r < (only.isEmpty() ? rounds : 10 * rounds); ++r) {
      feed(per_round);
      timer.start();
      for (QCustomPlot* p : side.plots) {
        if (auto* live = qobject_cast<LivePlot*>(p)) live->sync();
        p->replot(QCustomPlot::rpImmediateRefresh);
      }
      t.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(t.begin(), t.end());
    if (qEnvironmentVariableIsSet("BENCH_DEBUG"))
      for (QCustomPlot* p : side.plots) explain(p);
    if (qEnvironmentVariableIsSet("BENCH_SAVE"))  // BENCH_SAVE=DIR: how each view looks
      for (QCustomPlot* p : side.plots)
        p->savePng(qEnvironmentVariable("BENCH_SAVE") + QLatin1Char('/') + p->objectName() + ".png");
    std::printf("side_view=%s median_ms=%.2f worst_ms=%.2f\n", side.name, t[t.size() / 2], t.back());
  }
  return 0;
}

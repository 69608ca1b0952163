// bench_plots: replot cost of the dashboard's loss and gradient-norm plots after a long run.
// Feeds 10^6 steps (and 1,000 epochs) into a RunHistory exactly as the controller does, binds
// the two plots to it at the size they have in a 1600x1000 window, then times 50 rounds of:
// 2,000 more steps (a 30 Hz frame at 60,000 steps/s), sync, immediate replot of both plots.
// Prints one line: median_ms=X worst_ms=Y (target: median <= 16 ms on two cores).
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
#include "gui/plots/training_plots.h"
#include "gui/plots/runs_overlay.h"

using namespace trainscope;

namespace {

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

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM",
          qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
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
  auto feed = [&](long n) {
    for (long i = 0; i < n; ++i) {
      ++step;
      const double x = static_cast<double>(step);
      const double loss = 2.0 / std::sqrt(x) + std::abs(noise(rng));
      history.append(series::kStepLoss, x, loss);
      history.append(series::kStepGradNorm, x, 5 * loss);
      history.append(series::kStepGradNormClipped, x, std::min(5 * loss, 1.0));
      history.append(series::kStepMaxNorm, x, 1.0);
      history.append(series::kStepLr, x, 1e-3);
      if (step % steps_per_epoch == 0) {
        history.append(series::kEpochTrainLoss, x, loss);
        history.append(series::kEpochValLoss, x, loss * 1.1);
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
  std::printf("steps=%ld points_per_series<=%zu sync_median_ms=%.2f\n", step, history.budget(),
              sync_ms[sync_ms.size() / 2]);
  std::printf("median_ms=%.2f worst_ms=%.2f\n", ms[ms.size() / 2], ms.back());
  return 0;
}

// bench_plots: replot cost of the dashboard's loss and gradient-norm plots after a long run.
// Feeds 10^6 steps (and 1,000 epochs) into a RunHistory exactly as the controller does, binds
// the two plots to it at the size they have in a 1600x1000 window, then times 50 rounds of:
// 2,000 more steps (a 30 Hz frame at 60,000 steps/s), sync, immediate replot of both plots.
// Prints one line: median_ms=X worst_ms=Y (target: median <= 16 ms on two cores).
#include <QApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "gui/model/run_history.h"
#include "gui/plots/training_plots.h"

using namespace trainscope;

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM",
          qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
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

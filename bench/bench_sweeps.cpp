// bench_sweeps: the Sweeps window's figures (issue 47 §4): a 10,000-trial sweep's table opened
// in <= 1 s, and parallel coordinates of 1,000 trials redrawn in <= 50 ms. Writes a synthetic
// sweep folder (sweep.json, trials.jsonl with queued / running / completed lines per trial, as
// the orchestrator writes them) into a temporary folder, then times, side by side in one
// process: (a) reading the folder alone (readSweepView, the floor) against opening it in the
// window shown (read, table, parallel coordinates of every trial, scatter, importance, drawn); (b) redrawing the parallel
// coordinates of N trials into an image against drawing the same polylines with a bare
// QPainter (the floor any drawing pays).
//
// usage: QT_QPA_PLATFORM=offscreen bench_sweeps [--trials N] [--lines L] [--repeat R]
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTableView>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <unistd.h>
#include <vector>

#include "core/sweep/sweep_view.h"
#include "gui/sweeps/parallel_coordinates.h"
#include "gui/sweeps/sweeps_window.h"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

fs::path makeSweep(const fs::path& root, int trials) {
  const fs::path dir = root / "bench-sweep";
  fs::create_directories(dir);
  json sweep = {{"name", "bench-sweep"},
                {"base", {{"preset", "moons"}}},
                {"parameters",
                 {{"optimizer.lr", {{"log_uniform", {1e-5, 1.0}}}},
                  {"model.hidden", {{"choices", {{16}, {64}, {16, 16}}}}},
                  {"model.dropout", {{"uniform", {0.0, 0.5}}}}}},
                {"method", "random"},
                {"max_trials", trials},
                {"objective", {{"metric", "best_val_loss"}, {"goal", "minimize"}}}};
  std::ofstream(dir / "sweep.json") << json{{"format", "trainscope-sweep"}, {"format_version", 1},
                                            {"name", "bench-sweep"}, {"sweep", sweep}}
                                           .dump(2);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(0, 1);
  std::ofstream out(dir / "trials.jsonl");
  for (int n = 0; n < trials; ++n) {
    const double lr = std::pow(10.0, -5 + 5 * u(rng));
    json values = {{"optimizer.lr", lr},
                   {"model.hidden", json::array({n % 3 == 2 ? 16 : 16 * (1 + 3 * (n % 3))})},
                   {"model.dropout", 0.5 * u(rng)}};
    json t = {{"trial", n}, {"state", "queued"}, {"values", values}, {"attempt", 1},
              {"config", n}, {"run", "trial-" + std::to_string(n)}};
    out << t.dump() << "\n";
    t["state"] = "running";
    t["pid"] = 1000 + n;
    out << t.dump() << "\n";
    t.erase("pid");
    t["state"] = "completed";
    t["objective"] = 0.05 + std::pow(std::log10(lr) + 2.5, 2) * 0.05 + 0.02 * u(rng);
    t["seconds"] = 3.5;
    out << t.dump() << "\n";
  }
  return dir;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  int trials = 10000, lines = 1000, repeat = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--trials") trials = std::atoi(argv[i + 1]);
    if (a == "--lines") lines = std::atoi(argv[i + 1]);
    if (a == "--repeat") repeat = std::atoi(argv[i + 1]);
  }
  const fs::path root = fs::temp_directory_path() / ("bench_sweeps-" + std::to_string(getpid()));
  const fs::path dir = makeSweep(root, trials);

  // (a) a sweep of `trials` trials: read alone, and opened in the window
  std::vector<double> read_ms, open_ms;
  for (int r = 0; r < repeat; ++r) {
    QElapsedTimer t;
    t.start();
    const trainscope::SweepView view = trainscope::readSweepView(dir);
    read_ms.push_back(t.nsecsElapsed() / 1e6);
    if (view.trials.size() != static_cast<size_t>(trials)) return 1;
    trainscope::SweepsWindow w(QString::fromStdString(root.string()));
    w.resize(1000, 700);
    w.show();
    app.processEvents();
    t.restart();
    if (!w.openSweep(QString::fromStdString(dir.string()))) return 1;
    w.repaint();  // the table and the parallel coordinates of every trial drawn
    app.processEvents();
    open_ms.push_back(t.nsecsElapsed() / 1e6);
    if (w.shownTrials().size() != trials) return 1;
  }
  std::printf("%d-trial sweep: read %.0f ms, opened in the Sweeps window %.0f ms (%.2fx the read; "
              "target <= 1000 ms), median of %d\n",
              trials, median(read_ms), median(open_ms), median(open_ms) / median(read_ms), repeat);

  // (b) parallel coordinates of `lines` trials redrawn
  const trainscope::SweepView view = trainscope::readSweepView(dir);
  std::vector<trainscope::ParallelCoordinates::Axis> axes;
  for (const auto& a : view.axes) {
    trainscope::ParallelCoordinates::Axis axis;
    axis.title = QString::fromStdString(a.key);
    axis.low = a.low;
    axis.high = a.high;
    axis.log = a.log;
    if (a.categorical)
      for (const auto& c : a.choices) axis.categories << QString::fromStdString(c.dump());
    axes.push_back(axis);
  }
  trainscope::ParallelCoordinates::Axis objective;
  objective.title = "best_val_loss";
  objective.low = 0;
  objective.high = 1.5;
  axes.push_back(objective);
  std::vector<std::vector<std::optional<double>>> rows;
  for (int n = 0; n < lines && n < trials; ++n) {
    const auto& t = view.trials[n];
    std::vector<std::optional<double>> row;
    for (const auto& a : view.axes) row.push_back(trainscope::axisValue(a, t.values[a.key]));
    row.push_back(t.objective);
    rows.push_back(row);
  }
  trainscope::ParallelCoordinates pc;
  pc.resize(1000, 420);
  pc.setData(axes, rows, false);
  QImage image(pc.size(), QImage::Format_ARGB32_Premultiplied);
  std::vector<double> draw_ms, bare_ms;
  for (int r = 0; r < 20; ++r) {
    QElapsedTimer t;
    t.start();
    pc.render(&image);
    draw_ms.push_back(t.nsecsElapsed() / 1e6);
    t.restart();
    QPainter p(&image);
    p.fillRect(image.rect(), Qt::white);
    for (size_t i = 0; i < rows.size(); ++i) {
      QPolygonF line;
      for (size_t a = 0; a < rows[i].size(); ++a)
        line << QPointF(60 + a * 290.0, 400 - 380 * (rows[i][a] ? std::fmod(*rows[i][a], 1.0) : 0));
      p.setPen(QColor::fromHsv(static_cast<int>(i % 300), 200, 200));
      p.drawPolyline(line);
    }
    p.end();
    bare_ms.push_back(t.nsecsElapsed() / 1e6);
  }
  std::printf("parallel coordinates of %zu trials: redrawn in %.1f ms, bare polylines %.1f ms "
              "(%.2fx; target <= 50 ms), median of 20\n",
              rows.size(), median(draw_ms), median(bare_ms), median(draw_ms) / median(bare_ms));
  fs::remove_all(root);
  return 0;
}

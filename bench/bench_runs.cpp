// bench_runs: the experiment log's load time (500 runs of 1,000 epochs in the
// table in under 1 s). Writes N synthetic run folders (config.json, run.json, metrics.csv of E
// epochs, steps.csv header, events.jsonl with a checkpoint event per epoch, summary.json) into a
// temporary folder, then times, side by side in one process, (a) listRuns over the folder, the
// table's load, and (b) reading the same files' bytes, the floor any loader pays.
//
// usage: bench_runs [--runs N] [--epochs E] [--repeat R] [--dir D]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <unistd.h>
#include <vector>

#include "core/run/run_table.h"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

void makeRun(const fs::path& dir, int index, int epochs) {
  fs::create_directories(dir);
  const double lr = 1e-4 * (1 + index % 7);
  write(dir / "config.json",
        json{{"name", "run"},
             {"data", {{"source", "sine"}, {"n_samples", 200}}},
             {"model", {{"kind", "mlp"}, {"hidden", {64, 64}}}},
             {"optimizer", {{"name", "adam"}, {"lr", lr}}},
             {"training", {{"epochs", epochs}, {"batch_size", 32}, {"amp", false}}}}
            .dump(2));
  write(dir / "run.json", json{{"trainscope_version", "bench"},
                               {"torch_version", "1.13"},
                               {"seed", index},
                               {"num_threads", 1},
                               {"start_time", "2026-12-04T10:" + std::to_string(10 + index % 50) + ":00"},
                               {"model", {{"parameter_count", 4353}}}}
                              .dump(2));
  std::mt19937 rng(static_cast<unsigned>(index));
  std::uniform_real_distribution<double> u(0.9, 1.1);
  std::string metrics = "epoch,step,train_loss,val_loss,val_accuracy,lr,epoch_seconds,samples_per_second,train_accuracy\n";
  std::string events;
  for (int e = 1; e <= epochs; ++e) {
    const double loss = 1.0 / e * u(rng);
    metrics += std::to_string(e) + "," + std::to_string(e * 5) + "," + std::to_string(loss) + "," +
               std::to_string(loss * 1.2) + ",," + std::to_string(lr) + ",0.01,20000,\n";
    events += json{{"step", e * 5}, {"epoch", e}, {"kind", "checkpoint_saved"},
                   {"message", "checkpoint saved"}, {"file", "checkpoints/last.pt"}}
                  .dump() +
              "\n";
  }
  write(dir / "metrics.csv", metrics);
  write(dir / "steps.csv", "step,epoch,batch,loss,grad_norm,grad_norm_clipped,lr,loss_scale\n");
  write(dir / "events.jsonl", events);
  write(dir / "summary.json", json{{"stop_reason", "completed"},
                                   {"epochs_completed", epochs},
                                   {"global_step", epochs * 5},
                                   {"wall_seconds", 12.5},
                                   {"seed", index}}
                                  .dump(2));
}

double seconds(const std::chrono::steady_clock::time_point& t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench_runs: the runs table's load time"};
  int runs = 500, epochs = 1000, repeat = 3;
  std::string dir_arg;
  app.add_option("--runs", runs)->check(CLI::Range(1, 100000));
  app.add_option("--epochs", epochs)->check(CLI::Range(1, 1000000));
  app.add_option("--repeat", repeat)->check(CLI::Range(1, 100));
  app.add_option("--dir", dir_arg, "where to write the runs (default: a temporary folder, removed)");
  CLI11_PARSE(app, argc, argv);
  const fs::path root = dir_arg.empty() ? fs::temp_directory_path() / ("bench_runs_" + std::to_string(::getpid()))
                                        : fs::path(dir_arg);
  if (fs::exists(root) && !fs::is_empty(root)) {
    std::fprintf(stderr, "bench_runs: %s is not empty\n", root.c_str());
    return 2;
  }
  std::printf("writing %d runs of %d epochs into %s\n", runs, epochs, root.c_str());
  for (int i = 0; i < runs; ++i) makeRun(root / ("run-" + std::to_string(i)), i, epochs);
  std::vector<double> table, bytes;
  size_t rows = 0, total = 0;
  for (int r = 0; r < repeat; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    const auto list = trainscope::listRuns({root});
    table.push_back(seconds(t0));
    rows = list.size();
    t0 = std::chrono::steady_clock::now();
    total = 0;
    for (const auto& d : fs::directory_iterator(root)) {
      if (!d.is_directory()) continue;  // the runs index beside the run folders
      for (const auto& f : fs::directory_iterator(d.path())) {
        std::ifstream in(f.path(), std::ios::binary);
        std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        total += s.size();
      }
    }
    bytes.push_back(seconds(t0));
  }
  // The first round reads every run folder and writes the index; the others reuse it.
  std::printf("runs table, first load (no index yet): %.3f s\n", table.front());
  std::sort(table.begin(), table.end());
  std::sort(bytes.begin(), bytes.end());
  const double t = table[table.size() / 2], b = bytes[bytes.size() / 2];
  std::printf("runs table (listRuns): %zu rows in %.3f s (median of %d)\n", rows, t, repeat);
  std::printf("reading the same %zu MB of files: %.3f s\n", total >> 20, b);
  std::printf("ratio table / bytes: %.2f\n", t / b);
  if (dir_arg.empty()) fs::remove_all(root);  // only the folder this process made
  return 0;
}

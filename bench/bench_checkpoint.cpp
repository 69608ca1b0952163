// bench_checkpoint: save and load time of a fashion-mnist-mlp checkpoint, median of
// N rounds (default 20).
//
// The state: the fashion-mnist-mlp preset's model (MLP 784-256-128-10, 235,146 parameters)
// and its Adam optimizer after one step (so exp_avg and exp_avg_sq exist), a history of 10
// epochs, the resolved config: what an automatic save at an epoch end of that preset writes.
// No data is loaded (the step uses a random batch): the state's size is what matters.
//
//   save:    saveCheckpoint = capture (copies of every tensor) + torch::pickle_save + atomic
//            write (temp file, fsync, rename), as the Trainer's automatic and requested saves
//   load:    loadCheckpoint into a fresh model/optimizer = read + torch::pickle_load + checks +
//            restore, as `--resume` and the GUI's Load
//   inspect: inspectCheckpoint (read + describe, no restore), as `inspect` and the GUI's question
//   import:  importWeights (TrainScope's own unpickler; the path of --init-weights)
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/torch.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/train/state/checkpoint.h"
#include "core/model/model.h"
#include "core/optim/optimizer_factory.h"
#include "core/train/state/train_state.h"
#include "core/train/state/train_state_io.h"
#include "core/train/state/weights_import.h"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

template <class F>
std::vector<double> timeRounds(int rounds, F&& f) {
  f();  // warm-up: page cache, allocator
  std::vector<double> ms;
  for (int i = 0; i < rounds; ++i) {
    const Clock::time_point t = Clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
  }
  return ms;
}

void report(const char* what, const std::vector<double>& ms) {
  std::printf("%-8s median %7.2f ms  (min %.2f, max %.2f, %zu rounds)\n", what, median(ms),
              *std::min_element(ms.begin(), ms.end()), *std::max_element(ms.begin(), ms.end()),
              ms.size());
}

trainscope::TrainState makeState(const trainscope::TrainConfig& c) {
  trainscope::TrainState s;
  s.model = trainscope::buildModel(c.model, 784, 10);
  s.params = s.model->parameters();
  s.optimizer = trainscope::makeOptimizer(c.optimizer, s.params);
  s.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(42);
  s.epoch_start_shuffle_state = s.shuffle_gen.get_state();
  s.seed = 42;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Save and load time of a fashion-mnist-mlp checkpoint", "bench_checkpoint"};
  int rounds = 20;
  std::string dir = "";
  app.add_option("--rounds", rounds, "timed rounds (median reported)")->check(CLI::PositiveNumber);
  app.add_option("--dir", dir, "folder to write the checkpoint in (default: a temp folder)");
  CLI11_PARSE(app, argc, argv);
  at::set_num_threads(1);
  torch::manual_seed(42);

  namespace fs = std::filesystem;
  fs::path folder =
      dir.empty() ? fs::temp_directory_path() / ("bench_checkpoint." + std::to_string(::getpid()))
                  : fs::path(dir);
  fs::create_directories(folder);
  const fs::path file = folder / "last.pt";
  try {
    const trainscope::TrainConfig c = trainscope::resolveConfig("fashion-mnist-mlp", {}, {});
    trainscope::TrainState s = makeState(c);
    {  // one Adam step on a random batch: the optimizer state exists
      at::Tensor x = torch::randn({128, 784}), y = torch::randint(0, 10, {128});
      s.optimizer->zero_grad();
      torch::nn::functional::cross_entropy(s.model->forward(x), y).backward();
      s.optimizer->step();
      s.global_step = 375 * 10;
      s.epochs_completed = 10;
    }
    for (int e = 1; e <= 10; ++e) {
      trainscope::EpochRecord r;
      r.epoch = e;
      r.step = 375 * e;
      r.train_loss = 0.5 / e;
      r.val_loss = 0.6 / e;
      r.val_accuracy = 0.8;
      r.lr = 1e-3;
      s.history.push_back(r);
    }
    const trainscope::CheckpointContext ctx{trainscope::configToJson(c).dump(), "adam",
                                            folder.string()};

    const auto save = timeRounds(rounds, [&] { trainscope::saveCheckpoint(s, ctx, file); });
    trainscope::TrainState fresh = makeState(c);
    const auto load = timeRounds(rounds, [&] { trainscope::loadCheckpoint(fresh, "adam", file); });
    const auto inspect = timeRounds(rounds, [&] { trainscope::inspectCheckpoint(file); });
    trainscope::ModelPtr target = trainscope::buildModel(c.model, 784, 10);
    const auto import = timeRounds(rounds, [&] { trainscope::importWeights(*target, file); });

    int64_t params = 0;
    for (const auto& p : s.params) params += p.numel();
    std::printf(
        "state: fashion-mnist-mlp, MLP 784-256-128-10 (%lld parameters) + Adam buffers, 10 "
        "epochs of history; file %s, %.2f MB; libtorch %s\n",
        static_cast<long long>(params), file.string().c_str(), fs::file_size(file) / 1e6,
        TORCH_VERSION);
    report("save", save);
    report("load", load);
    report("inspect", inspect);
    report("import", import);
    std::printf("target: a save well under 100 ms: %s\n", median(save) < 100 ? "met" : "NOT met");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_checkpoint: %s\n", e.what());
    return 1;
  }
  std::error_code ec;
  if (dir.empty()) fs::remove_all(folder, ec);
  return 0;
}

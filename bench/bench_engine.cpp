// bench_engine: training throughput of the TrainScope engine against a bare libtorch loop on the
// fashion-mnist-mlp workload, in the same process, alternating rounds (ROADMAP 7).
//
// (a) engine: trainscope::Trainer with no run directory (no files), per-step gradient norm and
//     every record produced, a no-op observer attached (it only notes when a training pass ends).
// (b) bare:   the plain libtorch loop a tutorial would write: same data (trainscope::loadData),
//     same model shape, Adam with the config's settings, same batch size, shuffled batches
//     from trainscope::BatchIterator; zero_grad / forward / cross_entropy / backward / step.
//     No norm, no records, no validation.
//
// --save-last: the engine writes a run directory (a temp folder, fresh each round) with
//     checkpoint.save_last on (best.pt off): steps.csv, metrics.csv and a last.pt at every
//     epoch end. A save follows its epoch's record, so it falls into the next timed training
//     pass: with --epochs E per round, E-1 saves are timed in each round (use E >= 2).
//
// Both are timed the same way: wall time of the training passes only (data loading, model
// construction and per-epoch validation excluded); samples/s = training samples / that time.
// Prints each round, the medians, the ratio engine/bare (target >= 0.95), and the arguments for
// bench_python.py so that bench/run_bench.sh runs Python on the identical workload.
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/torch.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/errors.h"
#include "core/model/model.h"
#include "core/train/trainer.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

/// Times the engine's training passes: from the start of each epoch (run start, or the end of
/// the previous epoch's validation) to the step that ends the epoch. Otherwise a no-op.
class PassTimer : public trainscope::TrainerObserver {
 public:
  void onRunStarted(const trainscope::RunInfo&) override { pass_start_ = Clock::now(); }
  void onStep(const trainscope::StepRecord& r) override {
    if (r.batch == r.batches_per_epoch) train_seconds_ += seconds(pass_start_, Clock::now());
  }
  void onEpoch(const trainscope::EpochRecord& r) override {
    engine_reported_ = r.samples_per_second;
    pass_start_ = Clock::now();
  }
  double trainSeconds() const { return train_seconds_; }
  double engineReported() const { return engine_reported_; }

 private:
  Clock::time_point pass_start_;
  double train_seconds_ = 0;
  double engine_reported_ = 0;
};

struct RoundResult {
  double samples_per_second = 0;
  double engine_reported = 0;  ///< the engine's own samples_per_second of its last epoch
};

/// `run_dir` empty: no files; else the run directory (cleared first).
RoundResult runEngine(const trainscope::TrainConfig& config, int64_t n_train,
                      const std::filesystem::path& run_dir) {
  trainscope::TrainerOptions options;
  options.front_end = "bench";
  if (!run_dir.empty()) {
    std::filesystem::remove_all(run_dir);
    options.run_dir = run_dir;
  }
  trainscope::Trainer trainer(config, options);
  PassTimer timer;
  trainer.addObserver(&timer);
  const trainscope::RunSummary s = trainer.run();
  if (s.stop_reason != trainscope::StopReason::Completed)
    throw std::runtime_error("engine run ended with " + trainscope::toString(s.stop_reason) +
                             (s.error.empty() ? "" : ": " + s.error));
  return {static_cast<double>(n_train * config.training.epochs) / timer.trainSeconds(),
          timer.engineReported()};
}

RoundResult runBare(const trainscope::TrainConfig& config, const trainscope::PreparedData& data,
                    int threads) {
  at::set_num_threads(threads);
  const int64_t seed = config.training.seed.value_or(0);
  torch::manual_seed(seed);

  // The preset's model as buildModel makes it (for the MLP: Linear/ReLU layers, exactly what a
  // tutorial writes; for the CNN its nn.Sequential), driven by the tutorial's loop.
  const trainscope::ModelPtr model = trainscope::buildModel(config.model, data.summary);
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  if (config.optimizer.name == "sgd")
    optimizer = std::make_unique<torch::optim::SGD>(
        model->parameters(), torch::optim::SGDOptions(config.optimizer.lr)
                                 .momentum(config.optimizer.momentum)
                                 .weight_decay(config.optimizer.weight_decay));
  else
    optimizer = std::make_unique<torch::optim::Adam>(
        model->parameters(),
        torch::optim::AdamOptions(config.optimizer.lr)
            .betas({config.optimizer.betas[0], config.optimizer.betas[1]})
            .weight_decay(config.optimizer.weight_decay));
  const bool classification = data.summary.task == "classification";

  trainscope::BatchIterator iter(data.train, config.training.batch_size, /*shuffle=*/true);
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(seed));
  const int64_t batches = iter.batchesPerEpoch();

  double train_seconds = 0;
  for (int64_t epoch = 0; epoch < config.training.epochs; ++epoch) {
    const Clock::time_point start = Clock::now();
    iter.startEpoch(gen);
    model->train(true);
    for (int64_t b = 0; b < batches; ++b) {
      trainscope::TensorPair batch = iter.batch(b);
      optimizer->zero_grad();
      const torch::Tensor out = model->forward(batch.x);
      torch::Tensor loss = classification ? torch::nn::functional::cross_entropy(out, batch.y)
                                          : torch::mse_loss(out, batch.y);
      loss.backward();
      optimizer->step();
    }
    train_seconds += seconds(start, Clock::now());
  }
  return {static_cast<double>(data.train.size() * config.training.epochs) / train_seconds, 0};
}

/// --torchscript FILE: the engine on the preset's native model against the engine on FILE,
/// alternating rounds; prints the medians and ts/native (target >= 0.9).
int compareTorchScript(const trainscope::TrainConfig& native, int64_t n_train,
                       const std::string& file, int rounds, bool warmup) {
  trainscope::TrainConfig scripted = native;
  scripted.model.kind = "torchscript";
  scripted.model.torchscript.path = std::filesystem::absolute(file).string();
  if (warmup) {
    runEngine(native, n_train, {});
    runEngine(scripted, n_train, {});
  }
  std::vector<double> a, b;
  for (int r = 0; r < rounds; ++r) {
    RoundResult n, t;
    if (r % 2 == 0) {
      n = runEngine(native, n_train, {});
      t = runEngine(scripted, n_train, {});
    } else {
      t = runEngine(scripted, n_train, {});
      n = runEngine(native, n_train, {});
    }
    a.push_back(n.samples_per_second);
    b.push_back(t.samples_per_second);
    std::printf("round %d: native %s %.0f samples/s, torchscript %.0f samples/s\n", r + 1,
                native.model.kind.c_str(), n.samples_per_second, t.samples_per_second);
    std::fflush(stdout);
  }
  const double ratio = median(a) > 0 ? median(b) / median(a) : 0;
  std::printf("median: native %.0f samples/s, torchscript %.0f samples/s\n", median(a), median(b));
  std::printf("ratio torchscript/native: %.3f (target >= 0.9: %s)\n", ratio,
              ratio >= 0.9 ? "met" : "NOT met");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Engine vs bare libtorch loop on a preset's workload (fashion-mnist-mlp)",
               "bench_engine"};
  std::string preset = "fashion-mnist-mlp";
  int64_t epochs = 1, limit = 0;
  int rounds = 7;  // rounds swing by ~10% on a shared machine: the median of 7 holds
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  bool warmup = true;
  bool save_last = false;
  std::vector<std::string> extra_sets;
  app.add_option("--preset", preset, "the workload: fashion-mnist-mlp or fashion-mnist-cnn");
  app.add_option("--epochs", epochs, "epochs per round")->check(CLI::PositiveNumber);
  app.add_option("--limit", limit, "use only N samples of the training pool (0 = all)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--rounds", rounds, "timed rounds of each (median reported)")
      ->check(CLI::PositiveNumber);
  app.add_option("--threads", threads, "intra-op threads for both")->check(CLI::PositiveNumber);
  app.add_flag("!--no-warmup", warmup, "skip the untimed warm-up round");
  std::string torchscript;
  app.add_option("--torchscript", torchscript,
                 "compare the engine on the preset's model built natively with the engine on "
                 "this TorchScript file of the same architecture (model.kind torchscript) "
                 "instead of the bare loop (target ts/native >= 0.9)");
  app.add_flag("--save-last", save_last,
               "the engine writes a run directory with checkpoint.save_last on (a last.pt "
               "every epoch; E-1 saves are timed per round of E epochs)");
  app.add_option("--set", extra_sets,
                 "KEY=VALUE config override for the engine, e.g. training.layer_stats_every=0");
  CLI11_PARSE(app, argc, argv);

  try {
    std::vector<std::string> sets{"training.epochs=" + std::to_string(epochs),
                                  "training.num_threads=" + std::to_string(threads)};
    if (limit > 0) sets.push_back("data.limit=" + std::to_string(limit));
    if (save_last) {
      sets.push_back("checkpoint.save_last=true");
      sets.push_back("checkpoint.save_best=false");
    }
    const std::filesystem::path run_dir =
        save_last ? std::filesystem::temp_directory_path() /
                        ("bench_engine_run." + std::to_string(::getpid()))
                  : std::filesystem::path();
    sets.insert(sets.end(), extra_sets.begin(), extra_sets.end());
    const trainscope::TrainConfig config = trainscope::resolveConfig(preset, {}, sets);

    at::set_num_threads(threads);
    const trainscope::PreparedData data = trainscope::loadData(config.data);
    const int64_t n_train = data.train.size();
    std::printf(
        "workload: %s (model.kind %s), %lld train samples, batch %lld, %s lr %g, "
        "%lld epoch(s) per round, %d round(s), %d thread(s), libtorch %s; engine: layer stats "
        "every %lld steps, snapshot every %lld steps, clipping %s%s\n",
        preset.c_str(), config.model.kind.c_str(), static_cast<long long>(n_train),
        static_cast<long long>(config.training.batch_size), config.optimizer.name.c_str(),
        config.optimizer.lr,
        static_cast<long long>(epochs), rounds, threads, TORCH_VERSION,
        static_cast<long long>(config.training.layer_stats_every),
        static_cast<long long>(config.training.snapshot_every),
        config.training.clip.enabled ? "on" : "off",
        save_last ? (", with a run directory and checkpoint.save_last (" +
                     std::to_string(epochs - 1) + " save(s) timed per round)")
                        .c_str()
                  : "");
    std::fflush(stdout);

    if (!torchscript.empty()) return compareTorchScript(config, n_train, torchscript, rounds, warmup);
    if (warmup) {  // page in the code paths, allocator pools and OpenMP threads
      runEngine(config, n_train, run_dir);
      runBare(config, data, threads);
    }
    std::vector<double> engine, bare;
    for (int r = 0; r < rounds; ++r) {
      // Alternate the order so that drift (thermal, other load) hits both alike.
      RoundResult e, b;
      if (r % 2 == 0) {
        e = runEngine(config, n_train, run_dir);
        b = runBare(config, data, threads);
      } else {
        b = runBare(config, data, threads);
        e = runEngine(config, n_train, run_dir);
      }
      engine.push_back(e.samples_per_second);
      bare.push_back(b.samples_per_second);
      std::printf(
          "round %d: engine %.0f samples/s (engine's own figure %.0f), bare %.0f "
          "samples/s\n",
          r + 1, e.samples_per_second, e.engine_reported, b.samples_per_second);
      std::fflush(stdout);
    }
    const double me = median(engine), mb = median(bare);
    const double ratio = mb > 0 ? me / mb : 0;
    std::printf("median: engine %.0f samples/s, bare %.0f samples/s\n", me, mb);
    std::printf("ratio engine/bare: %.3f (target >= 0.95: %s)\n", ratio,
                ratio >= 0.95 ? "met" : "NOT met");
    // Each round's two passes ran side by side: their ratio is free of the drift between
    // rounds (other load on the shared cores moves both), which the ratio of medians is not.
    std::vector<double> paired;
    for (std::size_t r = 0; r < engine.size(); ++r)
      if (bare[r] > 0) paired.push_back(engine[r] / bare[r]);
    const double pm = paired.empty() ? 0 : median(paired);
    std::printf(
        "paired ratio engine/bare: median %.3f, range %.3f-%.3f over %zu rounds (issue 26 "
        "target >= 0.98: %s)\n",
        pm, paired.empty() ? 0 : *std::min_element(paired.begin(), paired.end()),
        paired.empty() ? 0 : *std::max_element(paired.begin(), paired.end()), paired.size(),
        pm >= 0.98 ? "met" : "NOT met");
    // For bench/run_bench.sh: the same workload for bench_python.py, and our figure.
    std::printf(
        "python-args: --batch-size %lld --lr %.10g %s --val-fraction %.10g "
        "--epochs %lld --threads %d --seed %lld --data-seed %lld --rounds %d%s\n",
        static_cast<long long>(config.training.batch_size), config.optimizer.lr,
        [&] {
          if (config.model.kind == "rnn")
            return "--rnn " + config.model.rnn.cell + " --rnn-hidden " +
                   std::to_string(config.model.rnn.hidden_size) + " --seq-len " +
                   std::to_string(config.data.seq_len) + " --n-samples " +
                   std::to_string(config.data.n_samples) + " --optimizer " +
                   config.optimizer.name;
          const bool cnn = config.model.kind == "cnn";
          std::string h;
          for (int64_t w : cnn ? config.model.cnn.channels : config.model.hidden)
            h += (h.empty() ? "" : ",") + std::to_string(w);
          return (cnn ? "--cnn " + h + (config.model.cnn.batch_norm ? " --batch-norm" : "")
                      : "--hidden " + h);
        }()
            .c_str(),
        config.data.val_fraction, static_cast<long long>(epochs), threads,
        static_cast<long long>(config.training.seed.value_or(0)),
        static_cast<long long>(config.data.seed), rounds,
        limit > 0 ? (" --limit " + std::to_string(limit)).c_str() : "");
    std::printf("engine_samples_per_second: %.1f\n", me);
    std::error_code ec;
    if (!run_dir.empty()) std::filesystem::remove_all(run_dir, ec);
    return 0;
  } catch (const trainscope::Error& e) {
    std::fprintf(stderr, "bench_engine: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_engine: %s\n", e.what());
    return 1;
  }
}

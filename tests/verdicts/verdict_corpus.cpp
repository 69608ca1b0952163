// The verdict corpus: runs whose truth is known from how they were made, not from
// the loss doctor, trained through the real engine, every live reading of the doctor recorded
// (TrainerObserver::onDiagnosis, what the dashboard's Diagnosis tab shows at each epoch end) and
// scored against the run's label:
// - healthy and regularised runs: no verdict but "healthy" (or "too_early") at any epoch after
//   the third (a false alarm otherwise), "healthy" at the end;
// - injected faults: the cause named first (the verdict's kind or its first check) by the epoch
//   the case states, and still at the end;
// - true overfitting: "overfitting" at the end, never before the onset could be seen;
// - every run: at most one change of verdict after the third epoch, and no advice that
//   contradicts the run's config (another optimizer than the one it uses, clipping it has,
//   more capacity while the validation gap grows);
// - texts: no "-x% better".
//
// `verdict_corpus --fast` (ctest) trains the subset of a few seconds each and exits 1 when a
// target is missed; `verdict_corpus` (bench/verdict_corpus.sh) trains all of it and prints the
// confusion matrix, the false-alarm and detection rates and the epochs of first detection.
// Torch-free source: the engine's public API only.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <filesystem>
#include <unistd.h>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/train/state/checkpoint.h"
#include "core/train/trainer.h"
#include "unscaled_target_csv.h"

using namespace trainscope;

namespace {

enum class Truth { Healthy, Regularised, Overfitting, Fault, Any };

const char* truthName(Truth t) {
  switch (t) {
    case Truth::Healthy: return "healthy";
    case Truth::Regularised: return "regularised";
    case Truth::Overfitting: return "overfitting";
    case Truth::Fault: return "fault";
    case Truth::Any: return "unjudged";
  }
  return "?";
}

/// One run of the corpus and what is known about it.
struct Case {
  std::string name;
  std::string preset;
  std::vector<std::string> sets;
  Truth truth = Truth::Healthy;
  /// Faults: the codes of which one must come first (the verdict's kind or its first check).
  std::set<std::string> cause;
  int64_t by_epoch = 0;  ///< faults: named by this epoch; overfitting: "overfitting" by then
  bool fast = false;     ///< in the ctest subset
  /// > 0: trained to this epoch, then resumed from its last.pt (a new process would do the
  /// same) to the config's epochs; the readings of both parts, in order.
  int64_t resume_at = 0;
};

/// What the doctor said, epoch by epoch.
struct Outcome {
  std::vector<Diagnosis> readings;  ///< the last reading of each epoch, in epoch order
  std::vector<double> val_losses;   ///< every epoch's validation loss, in order
  std::string config_optimizer;
  double momentum = 0;
  double weight_decay = 0, dropout = 0;
  bool clip = false;
  double seconds = 0;
  std::string error;
};

/// The last reading within each epoch (a non-finite step is read at once, before its epoch
/// ends), numbered by the epoch in progress.
struct Recorder : TrainerObserver {
  std::map<int64_t, Diagnosis> by_epoch;
  std::map<int64_t, double> val;
  int64_t epoch = 1;
  void onStep(const StepRecord& r) override { epoch = r.epoch; }
  void onEpoch(const EpochRecord& r) override { val[r.epoch] = r.val_loss; }
  void onDiagnosis(const Diagnosis& d) override {
    Diagnosis copy = d;
    copy.epoch = std::max(d.epoch, epoch);
    by_epoch[copy.epoch] = copy;
  }
};

/// Trains `config` with `options`, returning the readings and validation losses by epoch.
Recorder readingsOf(TrainConfig config, TrainerOptions options) {
  config.training.num_threads = 1;
  options.front_end = "test";
  options.default_non_finite = "stop";
  Trainer trainer(config, options);
  Recorder recorder;
  trainer.addObserver(&recorder);
  trainer.run();
  return recorder;
}

Outcome train(const Case& c) {
  Outcome o;
  const auto t0 = std::chrono::steady_clock::now();
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path scratch = fs::temp_directory_path() / ("trainscope-verdict-corpus-" +
                                                        std::to_string(getpid()) + "-" +
                                                        std::to_string(++counter));
  try {
    TrainConfig config = resolveConfig(c.preset, {}, c.sets);
    o.config_optimizer = config.optimizer.name;
    o.momentum = config.optimizer.momentum;
    o.weight_decay = config.optimizer.weight_decay;
    o.dropout = config.model.dropout;
    o.clip = config.training.clip.enabled;
    Recorder all;
    if (c.resume_at > 0) {
      // The first part writes a run folder (its last.pt at every epoch end), the second resumes
      // from it as `train --resume` does.
      TrainConfig first = config;
      first.training.epochs = c.resume_at;
      first.checkpoint.interval_seconds = 0;
      TrainerOptions a;
      a.run_dir = scratch / "first";
      all = readingsOf(first, a);
      const fs::path last = scratch / "first" / "checkpoints" / "last.pt";
      TrainConfig resumed = checkpointConfig(inspectCheckpoint(last));
      resumed.training.epochs = config.training.epochs;
      TrainerOptions b;
      b.run_dir = scratch / "resumed";
      b.resume_from = last;
      const Recorder second = readingsOf(resumed, b);
      for (auto& [epoch, d] : second.by_epoch)
        if (epoch > c.resume_at) all.by_epoch[epoch] = d;
      for (auto& [epoch, v] : second.val)
        if (epoch > c.resume_at) all.val[epoch] = v;
    } else {
      all = readingsOf(config, {});
    }
    for (auto& [epoch, d] : all.by_epoch) o.readings.push_back(d);
    for (auto& [epoch, v] : all.val) o.val_losses.push_back(v);
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  std::error_code ignored;
  fs::remove_all(scratch, ignored);  // created by this program alone
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

std::string firstCause(const Diagnosis& d) {
  return d.checks.empty() ? d.kind : d.checks.front().code;
}

bool names(const Diagnosis& d, const std::set<std::string>& cause) {
  return cause.count(d.kind) || (!d.checks.empty() && cause.count(d.checks.front().code));
}

/// Advice that contradicts the run's own config, or a number worded against its sign; empty
/// when none.
std::string contradiction(const Diagnosis& d, const Outcome& o) {
  for (const Finding& f : d.checks) {
    if (f.code == "other_optimizer" && f.text.find("Adam") != std::string::npos &&
        o.config_optimizer == "adam")
      return "advises Adam on an Adam run";
    if (f.code == "other_optimizer" && f.text.find("momentum") != std::string::npos &&
        o.config_optimizer == "sgd" && o.momentum > 0 && f.text.find("Adam") == std::string::npos)
      return "advises momentum on a run with momentum";
    if (f.code == "clip_on" && o.clip) return "advises clipping on a run that clips";
    if (f.code == "regularise" && (o.weight_decay > 0 || o.dropout > 0))
      return "advises adding regularisation to a run with weight decay or dropout";
    if (f.code == "raise_lr")
      for (const Finding& e : d.evidence)
        if (e.code == "update_ratio" && !e.values.empty() && e.values[0] > 0.01)
          return "advises a higher learning rate while the weights move over 1% a step";
    if (f.code == "more_capacity" && d.kind == "overfitting")
      return "advises more capacity while overfitting";
  }
  for (const auto* list : {&d.evidence, &d.checks})
    for (const Finding& f : *list)
      if (f.text.find("-") != std::string::npos && f.text.find("% better") != std::string::npos) {
        const size_t at = f.text.find("% better");
        const size_t open = f.text.rfind('(', at);
        if (open != std::string::npos && f.text[open + 1] == '-') return "says \"-x% better\"";
      }
  return "";
}

/// The folder of the data this program writes (removed at its end).
std::filesystem::path dataDir() {
  return std::filesystem::temp_directory_path() /
         ("trainscope-verdict-corpus-" + std::to_string(getpid()) + "-data");
}

/// tests/common/unscaled_target_csv.h's table, written once into dataDir().
std::string unscaledTargetCsv() {
  static const std::string path = [] {
    std::filesystem::create_directories(dataDir());
    const std::filesystem::path file = dataDir() / "unscaled-target.csv";
    testdata::writeUnscaledTargetCsv(file);
    return file.string();
  }();
  return path;
}

// ---- the corpus ----

/// The corpus over `seeds` (training.seed values); the fast subset: the marked cases of seeds 1-2.
std::vector<Case> corpus(const std::vector<int>& seeds) {
  std::vector<Case> cs;
  const auto seed = [](int s) { return "training.seed=" + std::to_string(s); };
  const auto add = [&](Case c) { cs.push_back(std::move(c)); };
  // Healthy runs of the presets, several seeds, short and long, optimizers and schedulers.
  for (int s : seeds) {
    const bool f = s <= 2;
    add({"moons e10 s" + std::to_string(s), "moons", {seed(s), "training.epochs=10"},
         Truth::Healthy, {}, 0, f});
    add({"moons e15 s" + std::to_string(s), "moons", {seed(s), "training.epochs=15"},
         Truth::Healthy, {}, 0, false});
    add({"moons e40 s" + std::to_string(s), "moons", {seed(s), "training.epochs=40"},
         Truth::Healthy, {}, 0, false});
    add({"moons sgd e20 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=20", "optimizer.name=\"sgd\"", "optimizer.lr=0.1"},
         Truth::Healthy, {}, 0, f});
    add({"moons sgd-momentum e20 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=20", "optimizer.name=\"sgd\"", "optimizer.lr=0.05",
          "optimizer.momentum=0.9"},
         Truth::Healthy, {}, 0, false});
    add({"moons steplr e20 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=20", "scheduler.name=\"StepLR\"", "scheduler.step_size=5",
          "scheduler.gamma=0.5"},
         Truth::Healthy, {}, 0, false});
    add({"moons cosine e20 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=20", "scheduler.name=\"CosineAnnealingLR\"", "scheduler.T_max=20"},
         Truth::Healthy, {}, 0, false});
    add({"circles s" + std::to_string(s), "circles", {seed(s)}, Truth::Healthy, {}, 0, f});
    add({"circles e10 s" + std::to_string(s), "circles", {seed(s), "training.epochs=10"},
         Truth::Healthy, {}, 0, false});
    add({"spirals s" + std::to_string(s), "spirals", {seed(s)}, Truth::Healthy, {}, 0, false});
    add({"flowers-csv s" + std::to_string(s), "flowers-csv", {seed(s)}, Truth::Healthy, {}, 0,
         f});
    add({"housing-csv s" + std::to_string(s), "housing-csv", {seed(s)}, Truth::Healthy, {}, 0,
         false});
    // An unscaled regression target: slow first epochs, a gradient norm that grows as the
    // model grows into its targets; healthy.
    add({"unscaled-target csv e60 s" + std::to_string(s), "housing-csv",
         {seed(s), "data.csv.path=\"" + unscaledTargetCsv() + "\"", "data.csv.target=\"target\""},
         Truth::Healthy, {}, 0, f});
    add({"unscaled-target csv lr 1e-3 e150 s" + std::to_string(s), "housing-csv",
         {seed(s), "data.csv.path=\"" + unscaledTargetCsv() + "\"", "data.csv.target=\"target\"",
          "optimizer.lr=0.001", "training.epochs=150"},
         Truth::Healthy, {}, 0, false});
    add({"exploding clipped s" + std::to_string(s), "exploding",
         {seed(s), "training.clip.enabled=true"}, Truth::Healthy, {}, 0, false});
    add({"rnn-exploding clipped s" + std::to_string(s), "rnn-exploding",
         {seed(s), "training.clip.enabled=true"}, Truth::Healthy, {}, 0, false});
  }
  for (int s : seeds) {
    if (s > 2) break;
    add({"fashion-mnist-mlp e3 s" + std::to_string(s), "fashion-mnist-mlp",
         {seed(s), "training.epochs=3"}, Truth::Healthy, {}, 0, false});
    add({"fashion-png e5 s" + std::to_string(s), "fashion-png", {seed(s), "training.epochs=5"},
         Truth::Healthy, {}, 0, false});
  }
  // Regularised runs that do not overfit: the lessons' remedies.
  for (int s : seeds) {
    add({"overfit-sine dropout0.3 e300 s" + std::to_string(s), "overfit-sine",
         {seed(s), "training.epochs=300", "model.dropout=0.3"}, Truth::Regularised, {}, 0, s <= 2});
    add({"overfit-sine wd0.01 e300 s" + std::to_string(s), "overfit-sine",
         {seed(s), "training.epochs=300", "optimizer.weight_decay=0.01"}, Truth::Regularised, {},
         0, false});
    add({"overfit-moons n2000 e100 s" + std::to_string(s), "overfit-moons",
         {seed(s), "training.epochs=100", "data.n_samples=2000"}, Truth::Regularised, {}, 0,
         false});
  }
  // True overfitting.
  for (int s : seeds) {
    add({"overfit-sine s" + std::to_string(s), "overfit-sine", {seed(s)}, Truth::Overfitting,
         {"overfitting"}, 0, false});
    add({"overfit-moons s" + std::to_string(s), "overfit-moons", {seed(s)}, Truth::Overfitting,
         {"overfitting"}, 0, s <= 2});
  }
  // Learning rates far too high and far too low.
  for (int s : seeds) {
    const bool f = s <= 2;
    // Adam at lr 1 (x100) flails near chance (it learns a little between jumps): named once its
    // losses stay above chance.
    add({"moons adam lr x100 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=10", "optimizer.lr=1.0"}, Truth::Fault,
         {"lower_lr_10x"}, 10, false});
    add({"moons sgd lr 1000 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=10", "optimizer.name=\"sgd\"", "optimizer.lr=1000"},
         Truth::Fault, {"lower_lr_10x"}, 3, f});
    add({"moons lr_x1000 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=10", "teaching.mistakes=[\"lr_x1000\"]"}, Truth::Fault,
         {"lower_lr_10x"}, 5, false});
    add({"moons lr x1e-4 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=10", "optimizer.lr=1e-6"}, Truth::Fault, {"raise_lr"}, 5,
         false});
    add({"moons lr_x1e-6 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=10", "teaching.mistakes=[\"lr_x1e-6\"]"}, Truth::Fault,
         {"raise_lr"}, 5, f});
    add({"circles lr_x1e-6 s" + std::to_string(s), "circles",
         {seed(s), "training.epochs=10", "teaching.mistakes=[\"lr_x1e-6\"]"}, Truth::Fault,
         {"raise_lr"}, 5, false});
  }
  // Shuffled labels.
  for (int s : seeds) {
    add({"moons shuffled_labels e10 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=10", "teaching.mistakes=[\"shuffled_labels\"]"}, Truth::Fault,
         {"no_signal"}, 5, s <= 2});
    add({"circles shuffled_labels e10 s" + std::to_string(s), "circles",
         {seed(s), "training.epochs=10", "teaching.mistakes=[\"shuffled_labels\"]"}, Truth::Fault,
         {"no_signal"}, 5, false});
    add({"flowers-csv shuffled_labels s" + std::to_string(s), "flowers-csv",
         {seed(s), "training.epochs=15", "teaching.mistakes=[\"shuffled_labels\"]"}, Truth::Fault,
         {"no_signal"}, 5, false});
  }
  // The other teaching mistakes.
  for (int s : seeds) {
    add({"moons no_zero_grad e10 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=10", "teaching.mistakes=[\"no_zero_grad\"]"}, Truth::Fault,
         {"zero_grad"}, 3, s <= 2});
    add({"circles no_zero_grad e10 s" + std::to_string(s), "circles",
         {seed(s), "training.epochs=10", "teaching.mistakes=[\"no_zero_grad\"]"}, Truth::Fault,
         {"zero_grad"}, 3, false});
    // One step late, or validation in train mode / with gradients: the losses cannot tell (the
    // run learns), so no alarm may be raised that names another cause.
    add({"moons step_before_backward s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=15", "teaching.mistakes=[\"step_before_backward\"]"},
         Truth::Healthy, {}, 0, false});
    add({"moons val_with_grad s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=15", "teaching.mistakes=[\"val_with_grad\"]"}, Truth::Healthy,
         {}, 0, false});
    add({"moons eval_in_train_mode s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=15", "teaching.mistakes=[\"eval_in_train_mode\"]"},
         Truth::Healthy, {}, 0, false});
  }
  // Exploding gradients without clipping.
  for (int s : seeds) {
    add({"exploding s" + std::to_string(s), "exploding", {seed(s)}, Truth::Fault,
         {"diverging", "lower_lr_10x", "clip_on"}, 3, s <= 2});
    add({"rnn-exploding s" + std::to_string(s), "rnn-exploding", {seed(s)}, Truth::Fault,
         {"diverging", "lower_lr_10x", "clip_on"}, 3, false});
  }
  // Resumed runs: judged as their uninterrupted twins (the healthy ones stay quiet, overfitting
  // is still found).
  for (int s : seeds) {
    if (s > 3) break;
    add({"moons resumed@5 e15 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=15"}, Truth::Healthy, {}, 0, false, 5});
    add({"overfit-sine dropout0.3 resumed@150 s" + std::to_string(s), "overfit-sine",
         {seed(s), "training.epochs=300", "model.dropout=0.3"}, Truth::Regularised, {}, 0, false,
         150});
    add({"overfit-moons resumed@100 s" + std::to_string(s), "overfit-moons", {seed(s)},
         Truth::Overfitting, {"overfitting"}, 0, false, 100});
    add({"moons shuffled_labels resumed@4 s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=10", "teaching.mistakes=[\"shuffled_labels\"]"},
         Truth::Fault, {"no_signal"}, 5, s <= 2, 4});
  }
  // Early-stopped runs.
  for (int s : seeds) {
    if (s > 2) break;
    add({"overfit-sine early-stopped s" + std::to_string(s), "overfit-sine",
         {seed(s), "training.early_stopping.enabled=true", "training.early_stopping.patience=30"},
         Truth::Any, {}, 0, false});
    add({"moons early-stopped s" + std::to_string(s), "moons",
         {seed(s), "training.epochs=60", "training.early_stopping.enabled=true",
          "training.early_stopping.patience=5"},
         Truth::Any, {}, 0, false});
  }
  return cs;
}

// ---- scoring ----

struct Score {
  std::vector<std::string> failures;  ///< "case: what"
  int changes = 0;                    ///< verdict changes after the third epoch
  int64_t first_named = -1;           ///< faults: epoch the cause was first named
  Truth truth = Truth::Any;           ///< the label judged (an unconfirmed overfitting: Any)
};

const std::set<std::string> kQuiet = {"healthy", "too_early"};

/// A run made to overfit is confirmed from its validation losses, not from the doctor: the
/// mean of its last tenth (at least 5 epochs) is >= 1.5x the lowest mean of as many
/// consecutive epochs. Unconfirmed (overfit-sine with some seeds turns up only at the very end):
/// the run is not judged.
bool overfittingConfirmed(const std::vector<double>& val, std::string* why) {
  const size_t n = val.size(), w = std::max<size_t>(5, n / 10);
  if (n < 2 * w) return false;
  double lowest = INFINITY, sum = 0;
  for (size_t i = 0; i < n; ++i) {
    sum += val[i];
    if (i >= w) sum -= val[i - w];
    if (i + 1 >= w) lowest = std::min(lowest, sum / static_cast<double>(w));
  }
  const double last = sum / static_cast<double>(w);
  *why = "last " + std::to_string(w) + " epochs' mean " + std::to_string(last) +
         ", lowest such mean " + std::to_string(lowest);
  return last >= 1.5 * lowest;
}

Score score(Case c, const Outcome& o) {
  Score s;
  std::string why;
  if (c.truth == Truth::Overfitting && !overfittingConfirmed(o.val_losses, &why)) {
    std::printf("  %-40s overfitting not confirmed (%s): not judged\n", c.name.c_str(),
                why.c_str());
    c.truth = Truth::Any;
  }
  s.truth = c.truth;
  const auto fail = [&](const std::string& what) { s.failures.push_back(c.name + ": " + what); };
  if (!o.error.empty()) {
    fail("error: " + o.error);
    return s;
  }
  if (o.readings.empty()) {
    fail("no reading");
    return s;
  }
  std::string previous;
  for (const Diagnosis& d : o.readings) {
    if (d.epoch > 3 && !previous.empty() && d.kind != previous) ++s.changes;
    previous = d.kind;
    if (std::string why = contradiction(d, o); !why.empty())
      fail("epoch " + std::to_string(d.epoch) + " " + d.kind + " " + why);
    if (d.epoch > 3 && (c.truth == Truth::Healthy || c.truth == Truth::Regularised) &&
        !kQuiet.count(d.kind))
      fail("false alarm at epoch " + std::to_string(d.epoch) + ": " + d.kind + " (" + d.summary +
           ")");
    if (c.truth == Truth::Fault && s.first_named < 0 && names(d, c.cause)) s.first_named = d.epoch;
  }
  const Diagnosis& last = o.readings.back();
  if (s.changes > 1) fail(std::to_string(s.changes) + " verdict changes after epoch 3");
  switch (c.truth) {
    case Truth::Healthy:
    case Truth::Regularised:
      if (last.kind != "healthy") fail("ends " + last.kind + ", expected healthy");
      break;
    case Truth::Overfitting:
      if (last.kind != "overfitting") fail("ends " + last.kind + ", expected overfitting");
      break;
    case Truth::Fault:
      if (s.first_named < 0 || s.first_named > c.by_epoch)
        fail("cause not named first by epoch " + std::to_string(c.by_epoch) + " (first named at " +
             std::to_string(s.first_named) + "; at the end " + last.kind + ", first check " +
             firstCause(last) + ")");
      else if (!names(last, c.cause))
        fail("cause named at epoch " + std::to_string(s.first_named) + " but not at the end (" +
             last.kind + ", " + firstCause(last) + ")");
      break;
    case Truth::Any: break;
  }
  return s;
}

std::string expectedOf(const Case& c) {
  switch (c.truth) {
    case Truth::Healthy:
    case Truth::Regularised: return "healthy";
    case Truth::Overfitting: return "overfitting";
    case Truth::Fault: return c.cause.count("diverging") ? "diverging" : *c.cause.begin();
    case Truth::Any: return "(any)";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  bool fast = false, verbose = false;
  std::string only;
  std::vector<int> seeds = {1, 2, 3, 4, 5};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--fast")) {
      fast = true;
    } else if (!std::strcmp(argv[i], "--verbose")) {
      verbose = true;
    } else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else if (!std::strcmp(argv[i], "--seeds") && i + 1 < argc) {
      seeds.clear();
      for (int k = 1, n = std::atoi(argv[++i]); k <= n; ++k) seeds.push_back(k);
    } else {
      std::fprintf(stderr,
                   "usage: verdict_corpus [--fast] [--verbose] [--only SUBSTRING] [--seeds N]\n"
                   "  --fast: the ctest subset (exit 1 when a target is missed)\n"
                   "  --seeds N: training seeds 1..N (default 5)\n");
      return 2;
    }
  }
  std::vector<Case> cases;
  for (Case& c : corpus(seeds))
    if ((!fast || c.fast) && (only.empty() || c.name.find(only) != std::string::npos))
      cases.push_back(std::move(c));
  std::printf("verdict corpus: %zu runs%s\n", cases.size(), fast ? " (the fast subset)" : "");

  std::vector<std::string> failures;
  std::map<std::string, std::map<std::string, int>> confusion;  // truth -> end verdict -> runs
  std::map<std::string, int> quiet_runs, alarmed_runs;           // false alarms by truth
  std::map<std::string, std::vector<int64_t>> detection;         // fault cause -> epochs
  std::map<std::string, int> fault_runs, fault_named;
  int total_changes = 0, max_changes = 0, contradictions = 0;
  double seconds = 0;
  for (const Case& original : cases) {
    const Outcome o = train(original);
    const Score s = score(original, o);
    Case c = original;
    c.truth = s.truth;
    seconds += o.seconds;
    const std::string truth = truthName(c.truth);
    const std::string end = o.readings.empty() ? "(none)" : o.readings.back().kind;
    confusion[expectedOf(c)][end]++;
    if (c.truth == Truth::Healthy || c.truth == Truth::Regularised) {
      quiet_runs[truth]++;
      for (const auto& f : s.failures)
        if (f.find("false alarm") != std::string::npos) {
          alarmed_runs[truth]++;
          break;
        }
    }
    if (c.truth == Truth::Fault) {
      const std::string cause = expectedOf(c);
      fault_runs[cause]++;
      if (s.first_named >= 0 && s.first_named <= c.by_epoch) fault_named[cause]++;
      detection[cause].push_back(s.first_named);
    }
    for (const auto& f : s.failures)
      if (f.find("advises") != std::string::npos || f.find("% better") != std::string::npos)
        ++contradictions;
    total_changes += s.changes;
    max_changes = std::max(max_changes, s.changes);
    std::string trail, shown;
    for (const Diagnosis& d : o.readings)
      if (trail.empty() || d.kind != shown) {
        trail += (trail.empty() ? "" : " > ") + std::to_string(d.epoch) + ":" + d.kind;
        shown = d.kind;
      }
    if (verbose || !s.failures.empty())
      std::printf("  %-40s %5.1fs %s\n", c.name.c_str(), o.seconds, trail.c_str());
    if (verbose && !only.empty())
      for (const Diagnosis& d : o.readings) {
        std::printf("    %3lld %-12s", static_cast<long long>(d.epoch), d.kind.c_str());
        for (const Finding& f : d.evidence) std::printf(" | %s", f.text.c_str());
        std::printf("\n");
      }
    for (const auto& f : s.failures) std::printf("    FAIL %s\n", f.c_str());
    failures.insert(failures.end(), s.failures.begin(), s.failures.end());
    std::fflush(stdout);
  }

  std::printf("\nexpected (rows) against the verdict at the end (columns):\n");
  std::set<std::string> columns;
  for (auto& [row, cols] : confusion)
    for (auto& [col, n] : cols) columns.insert(col);
  std::printf("  %-14s", "");
  for (const auto& col : columns) std::printf(" %12s", col.c_str());
  std::printf("\n");
  for (auto& [row, cols] : confusion) {
    std::printf("  %-14s", row.c_str());
    for (const auto& col : columns) std::printf(" %12d", cols.count(col) ? cols.at(col) : 0);
    std::printf("\n");
  }
  std::printf("\nfalse alarms after epoch 3 (runs with any):\n");
  for (auto& [truth, n] : quiet_runs)
    std::printf("  %-12s %d of %d runs\n", truth.c_str(), alarmed_runs[truth], n);
  std::printf("\ninjected faults named first, in time:\n");
  for (auto& [cause, n] : fault_runs) {
    std::string epochs;
    for (int64_t e : detection[cause]) epochs += (epochs.empty() ? "" : ",") + std::to_string(e);
    std::printf("  %-14s %d of %d runs (%.0f%%), first named at epochs %s\n", cause.c_str(),
                fault_named[cause], n, 100.0 * fault_named[cause] / n, epochs.c_str());
  }
  std::printf("\nverdict changes after epoch 3: %d in all, at most %d in one run\n",
              total_changes, max_changes);
  std::printf("advice contradicting the config or a number's sign: %d\n", contradictions);
  std::printf("failures: %zu; %.1f s of training\n", failures.size(), seconds);
  std::error_code ignored;
  std::filesystem::remove_all(dataDir(), ignored);  // written by this program alone
  return failures.empty() ? 0 : 1;
}

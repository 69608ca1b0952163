// Each config key declared once: JSON name, member, range or choices, help text. The tables
// drive configToJson (write), configFromJson (read), validate() and the key reference
// (configKeyInfos: `trainscope-cli config --keys`, docs/config-keys.md). Defaults are the
// struct defaults of TrainConfig (train_config.h).
#include "core/config/config_keys.h"

#include <cmath>
#include <limits>
#include <variant>

#include "core/config/config_file.h"
#include "core/config/key_table.h"
#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/system/number_format.h"
#include "core/config/mistakes.h"

namespace trainscope::config_keys {
namespace {

using json = nlohmann::json;

bool validName(const std::string& name) {
  // The name becomes a folder name: no separators, no control characters, not "." or "..".
  bool ok = !name.empty() && name != "." && name != ".." && name.size() <= 100;
  for (unsigned char ch : name) ok = ok && ch >= 0x20 && ch != 0x7f && ch != '/';
  return ok;
}

bool validDevice(const std::string& dev) {
  if (dev == "auto" || dev == "cpu" || dev == "cuda") return true;
  return dev.rfind("cuda:", 0) == 0 && dev.size() > 5 &&
         dev.find_first_not_of("0123456789", 5) == std::string::npos;
}

const std::vector<Key<TrainConfig>>& topKeys() {
  static const std::vector<Key<TrainConfig>> keys = {
      Key<TrainConfig>("name", &TrainConfig::name, "names the run directory")
          .matching(validName,
                    "must be 1-100 characters without '/' or control characters (it names the "
                    "run folder)"),
  };
  return keys;
}

const std::vector<Key<ModelConfig>>& modelKeys() {
  using K = Key<ModelConfig>;
  static const std::vector<K> keys = {
      K("kind", &ModelConfig::kind, "model family").oneOf(modelKindNames()),
      K("hidden", &ModelConfig::hidden, "hidden layer widths").atLeast(1).atMost(65536),
      K("activation", &ModelConfig::activation, "activation after each hidden layer")
          .oneOf({"relu", "tanh", "gelu", "sigmoid"}),
      K("dropout", &ModelConfig::dropout, "dropout probability after each activation")
          .atLeast(0)
          .below(1),
  };
  return keys;
}

const std::vector<Key<CnnConfig>>& cnnKeys() {
  using K = Key<CnnConfig>;
  static const std::vector<K> keys = {
      K("channels", &CnnConfig::channels,
        "cnn: out_channels of each conv block (Conv2d [-> BatchNorm2d] -> activation [-> pool])")
          .atLeast(1)
          .atMost(4096),
      K("kernel_size", &CnnConfig::kernel_size, "cnn: Conv2d kernel_size").atLeast(1).atMost(31),
      K("stride", &CnnConfig::stride, "cnn: Conv2d stride").atLeast(1).atMost(16),
      K("padding", &CnnConfig::padding,
        "cnn: Conv2d zero padding on each side (kernel_size // 2 keeps the size at stride 1)")
          .atLeast(0)
          .atMost(31),
      K("batch_norm", &CnnConfig::batch_norm, "cnn: BatchNorm2d after each conv"),
      K("pool", &CnnConfig::pool, "cnn: pooling after each block: max, avg or none")
          .oneOf({"max", "avg", "none"}),
      K("pool_size", &CnnConfig::pool_size, "cnn: the pooling's kernel_size and stride")
          .atLeast(1)
          .atMost(16),
      K("hidden", &CnnConfig::hidden,
        "cnn: Linear widths between the flatten and the output layer (model.activation and "
        "model.dropout after each)")
          .atLeast(1)
          .atMost(65536),
  };
  return keys;
}

const std::vector<Key<RnnConfig>>& rnnKeys() {
  using K = Key<RnnConfig>;
  static const std::vector<K> keys = {
      K("cell", &RnnConfig::cell, "rnn: the recurrent layer: rnn (torch.nn.RNN), lstm or gru")
          .oneOf({"rnn", "lstm", "gru"}),
      K("nonlinearity", &RnnConfig::nonlinearity, "rnn: nn.RNN's nonlinearity (cell rnn only)")
          .oneOf({"tanh", "relu"}),
      K("hidden_size", &RnnConfig::hidden_size, "rnn: features of the hidden state")
          .atLeast(1)
          .atMost(65536),
      K("num_layers", &RnnConfig::num_layers, "rnn: stacked recurrent layers").atLeast(1).atMost(64),
      K("bidirectional", &RnnConfig::bidirectional, "rnn: a second direction over reversed time"),
      K("dropout", &RnnConfig::dropout,
        "rnn: dropout between stacked layers (nn.LSTM's dropout; needs num_layers >= 2)")
          .atLeast(0)
          .below(1),
      K("output", &RnnConfig::output,
        "rnn: what feeds the linear head: last (output[:, -1]) or mean (output.mean(1))")
          .oneOf({"last", "mean"}),
  };
  return keys;
}

const std::vector<Key<TorchScriptConfig>>& torchScriptKeys() {
  using K = Key<TorchScriptConfig>;
  static const std::vector<K> keys = {
      K("path", &TorchScriptConfig::path,
        "torchscript: the file of torch.jit.script(model).save(path) (or torch.jit.trace)"),
      K("allow_file_access", &TorchScriptConfig::allow_file_access,
        "torchscript: load a module whose code reads or writes files (torch.from_file, "
        "torch.save); refused otherwise, before it is loaded: a TorchScript file is a program"),
      K("grad_cam_layer", &TorchScriptConfig::grad_cam_layer,
        "torchscript: the submodule whose output feature maps Grad-CAM reads (its dotted name, "
        "\"features.3\"); null: the module's last torch.nn.Conv2d"),
  };
  return keys;
}

const std::vector<Key<OptimizerConfig>>& optimizerKeys() {
  using K = Key<OptimizerConfig>;
  static const std::vector<K> keys = {
      K("name", &OptimizerConfig::name, "torch.optim optimizer").oneOf(optimizerNames()),
      K("lr", &OptimizerConfig::lr, "learning rate").above(0).live(),
      K("momentum", &OptimizerConfig::momentum, "SGD momentum").atLeast(0),
      K("weight_decay", &OptimizerConfig::weight_decay, "L2 penalty (AdamW: decoupled)").atLeast(0),
      K("betas", &OptimizerConfig::betas, "Adam/AdamW coefficients of the running averages")
          .atLeast(0)
          .below(1),
  };
  return keys;
}

const std::vector<Key<TrainingConfig>>& trainingKeys() {
  using K = Key<TrainingConfig>;
  static const std::vector<K> keys = {
      K("epochs", &TrainingConfig::epochs, "passes over the training split")
          .atLeast(1)
          .atMost(1'000'000),
      K("batch_size", &TrainingConfig::batch_size, "samples per optimizer step")
          .atLeast(1)
          .atMost(1 << 24),
      K("seed", &TrainingConfig::seed, "training seed (null: draw one and record it)")
          .atLeast(0)
          .atMost(kMaxSeedD),
      K("device", &TrainingConfig::device, "device to train on")
          .matching(validDevice, "must be auto, cpu, cuda or cuda:N"),
      K("num_threads", &TrainingConfig::num_threads,
        "intra-op threads, or \"auto\": measured at the start of the run (null: auto too)")
          .nullWord("auto")
          .atLeast(1)
          .atMost(1024),
      K("non_finite", &TrainingConfig::non_finite,
        "what a non-finite loss or gradient does (null: the front end's default)")
          .oneOf({"pause", "stop", "skip"}),
      K("amp", &TrainingConfig::amp,
        "mixed precision: bf16 autocast on CPU, fp16 autocast with loss scaling on CUDA")
          .live(),
      K("deterministic", &TrainingConfig::deterministic,
        "use only deterministic algorithms (torch.use_deterministic_algorithms)"),
      K("grad_accum_steps", &TrainingConfig::grad_accum_steps,
        "micro-batches of batch_size per optimizer step (gradient accumulation)")
          .atLeast(1)
          .atMost(65536),
      K("class_weights", &TrainingConfig::class_weights,
        "classification: weights of the classes in the training loss (CrossEntropyLoss's "
        "weight): none, balanced (n_samples / (n_classes * count), as scikit-learn) or a list "
        "with one weight per class"),
      K("drop_last", &TrainingConfig::drop_last,
        "leave out each epoch's last batch when it is smaller than batch_size (DataLoader's "
        "drop_last)"),
      K("layer_stats_every", &TrainingConfig::layer_stats_every,
        "per-layer gradient norms and update ratios (layers.csv) every N steps (0: off)")
          .atLeast(0)
          .atMost(1'000'000'000),
      K("distributions_every", &TrainingConfig::distributions_every,
        "percentiles and histograms of each layer's weights, gradients and activations (the "
        "Distributions view, TensorBoard histograms) every N steps (0: off; null: at step 10, "
        "every 500 steps and at the end of the last epoch)")
          .atLeast(0)
          .atMost(1'000'000'000),
      K("snapshot_every", &TrainingConfig::snapshot_every,
        "in-memory snapshot for rollback every N steps (0: only the run's start)")
          .atLeast(0)
          .atMost(1'000'000'000),
      K("monitor", &TrainingConfig::monitor,
        "validation metric that picks best.pt, early stopping and the test's best weights "
        "(lower is better for val_loss, val_mae, val_rmse; higher for val_accuracy, val_r2)")
          .oneOf({"val_loss", "val_accuracy", "val_r2", "val_mae", "val_rmse"}),
  };
  return keys;
}

const std::vector<Key<ClipConfig>>& clipKeys() {
  using K = Key<ClipConfig>;
  static const std::vector<K> keys = {
      K("enabled", &ClipConfig::enabled, "clip gradients by their total L2 norm").live(),
      K("max_norm", &ClipConfig::max_norm,
        "largest total gradient norm (> 0; clip_grad_norm_'s max_norm)")
          .above(0)
          .live(),
      K("norm_type", &ClipConfig::norm_type,
        "p of the total gradient norm: 2 (Euclidean), another integer >= 1, or \"inf\" (max |g|)")
          .nullWord("inf")
          .atLeast(1)
          .atMost(1000),
  };
  return keys;
}

const std::vector<Key<CheckpointConfig>>& checkpointKeys() {
  using K = Key<CheckpointConfig>;
  static const std::vector<K> keys = {
      K("save_last", &CheckpointConfig::save_last,
        "write checkpoints/last.pt at epoch ends (see interval_seconds) and when the run "
        "stops, pauses or ends"),
      K("save_best", &CheckpointConfig::save_best,
        "write checkpoints/best.pt when validation loss improves (see interval_seconds)"),
      K("interval_seconds", &CheckpointConfig::interval_seconds,
        "automatic last.pt and best.pt at most once per this many seconds of wall time, at an "
        "epoch end, and always when the run stops, pauses, is interrupted or ends (0: at "
        "every epoch end)")
          .atLeast(0)
          .atMost(1e6),
      K("every_epochs", &CheckpointConfig::every_epochs,
        "write checkpoints/epoch-NNNN.pt every N epochs (0: off)")
          .atLeast(0)
          .atMost(1'000'000),
      K("keep_last", &CheckpointConfig::keep_last,
        "keep the newest K epoch-NNNN.pt files (0: keep all)")
          .atLeast(0)
          .atMost(1'000'000),
  };
  return keys;
}

const std::vector<Key<EarlyStoppingConfig>>& earlyStoppingKeys() {
  using K = Key<EarlyStoppingConfig>;
  static const std::vector<K> keys = {
      K("enabled", &EarlyStoppingConfig::enabled,
        "stop when training.monitor (validation loss by default) has not improved for "
        "`patience` epochs"),
      K("patience", &EarlyStoppingConfig::patience,
        "epochs without improvement before stopping (also the overfitting-onset watch)")
          .atLeast(1)
          .atMost(1'000'000),
      K("min_delta", &EarlyStoppingConfig::min_delta,
        "a change of training.monitor by more than this, in its better direction, counts as "
        "an improvement")
          .atLeast(0),
      K("restore_best_weights", &EarlyStoppingConfig::restore_best_weights,
        "at the stop, go back to the weights of the best epoch"),
  };
  return keys;
}

const std::vector<Key<SchedulerConfig>>& schedulerKeys() {
  using K = Key<SchedulerConfig>;
  static const std::vector<K> keys = {
      K("name", &SchedulerConfig::name,
        "torch.optim.lr_scheduler class stepped once per epoch after validation")
          .oneOf({"none", "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR",
                  "ReduceLROnPlateau"}),
      K("step_size", &SchedulerConfig::step_size, "StepLR: epochs between decays")
          .atLeast(1)
          .atMost(1'000'000),
      K("gamma", &SchedulerConfig::gamma, "StepLR/MultiStepLR/ExponentialLR: decay factor")
          .above(0),
      K("milestones", &SchedulerConfig::milestones, "MultiStepLR: epochs at which lr *= gamma")
          .atLeast(1)
          .atMost(1'000'000),
      K("T_max", &SchedulerConfig::T_max, "CosineAnnealingLR: epochs of the half period")
          .atLeast(1)
          .atMost(1'000'000),
      K("eta_min", &SchedulerConfig::eta_min, "CosineAnnealingLR: the lowest lr").atLeast(0),
      K("mode", &SchedulerConfig::mode, "ReduceLROnPlateau: min or max of the validation loss")
          .oneOf({"min", "max"}),
      K("factor", &SchedulerConfig::factor, "ReduceLROnPlateau: lr *= factor on a plateau")
          .above(0)
          .below(1),
      K("patience", &SchedulerConfig::patience, "ReduceLROnPlateau: bad epochs tolerated")
          .atLeast(0)
          .atMost(1'000'000),
      K("threshold", &SchedulerConfig::threshold,
        "ReduceLROnPlateau: the change that counts as an improvement")
          .atLeast(0),
      K("threshold_mode", &SchedulerConfig::threshold_mode,
        "ReduceLROnPlateau: threshold relative (rel) or absolute (abs)")
          .oneOf({"rel", "abs"}),
      K("cooldown", &SchedulerConfig::cooldown,
        "ReduceLROnPlateau: epochs after a reduction in which bad epochs are not counted")
          .atLeast(0)
          .atMost(1'000'000),
      K("min_lr", &SchedulerConfig::min_lr, "ReduceLROnPlateau: the lowest lr").atLeast(0),
      K("warmup_epochs", &SchedulerConfig::warmup_epochs,
        "linear warm-up epochs in front of the schedule (LinearLR + SequentialLR; 0: none)")
          .atLeast(0)
          .atMost(1'000'000),
      K("warmup_start_factor", &SchedulerConfig::warmup_start_factor,
        "the warm-up starts at this factor of optimizer.lr (LinearLR's start_factor)")
          .above(0)
          .atMost(1),
  };
  return keys;
}

const std::vector<Key<DistributedConfig>>& distributedKeys() {
  using K = Key<DistributedConfig>;
  static const std::vector<K> keys = {
      K("backend", &DistributedConfig::backend,
        "torch.distributed backend when launched with more than one rank (gloo; nccl: CUDA "
        "builds)")
          .oneOf({"gloo", "nccl"}),
      K("timeout_seconds", &DistributedConfig::timeout_seconds,
        "longest wait for another rank (joining, one collective) before the run fails naming it")
          .atLeast(1)
          .atMost(86400),
  };
  return keys;
}

const std::vector<Key<LoggingConfig>>& loggingKeys() {
  using K = Key<LoggingConfig>;
  static const std::vector<K> keys = {
      K("tensorboard", &LoggingConfig::tensorboard,
        "also write a TensorBoard event file (events.out.tfevents.*) in the run directory"),
  };
  return keys;
}

const std::vector<Key<TeachingConfig>>& teachingKeys() {
  using K = Key<TeachingConfig>;
  static const std::vector<K> keys = {
      K("mistakes", &TeachingConfig::mistakes,
        "teaching only: classic training-loop bugs injected on purpose (no_zero_grad, "
        "step_before_backward, eval_in_train_mode, val_with_grad, shuffled_labels, lr_x1000, "
        "lr_x1e-6, augment_validation); recorded in config.json and run.json and shown while on")
          .oneOf(mistakeNames()),
  };
  return keys;
}

/// Calls fn(prefix, section-of-config, keys) for every section, outer sections first.
template <class Config, class Fn>
void forEachSection(Config& c, Fn&& fn) {
  fn("", c, topKeys());
  fn("data", c.data, dataKeys());
  fn("data.csv", c.data.csv, csvKeys());
  fn("data.image_folder", c.data.image_folder, imageFolderKeys());
  fn("data.npy", c.data.npy, npyKeys());
  fn("data.idx", c.data.idx, idxKeys());
  fn("data.augment", c.data.augment, augmentKeys());
  fn("model", c.model, modelKeys());
  fn("model.cnn", c.model.cnn, cnnKeys());
  fn("model.rnn", c.model.rnn, rnnKeys());
  fn("model.torchscript", c.model.torchscript, torchScriptKeys());
  fn("optimizer", c.optimizer, optimizerKeys());
  fn("training", c.training, trainingKeys());
  fn("training.clip", c.training.clip, clipKeys());
  fn("training.early_stopping", c.training.early_stopping, earlyStoppingKeys());
  fn("checkpoint", c.checkpoint, checkpointKeys());
  fn("scheduler", c.scheduler, schedulerKeys());
  fn("distributed", c.distributed, distributedKeys());
  fn("logging", c.logging, loggingKeys());
  fn("teaching", c.teaching, teachingKeys());
}

std::string fullName(const std::string& prefix, const char* name) {
  return prefix.empty() ? name : prefix + "." + name;
}

/// The JSON object of section `prefix` ("training.clip") inside `root`.
template <class J>
J& sectionNode(J& root, const std::string& prefix) {
  J* node = &root;
  size_t start = 0;
  while (start < prefix.size()) {
    size_t dot = prefix.find('.', start);
    if (dot == std::string::npos) dot = prefix.size();
    const std::string part = prefix.substr(start, dot - start);
    if constexpr (std::is_const_v<J>) {
      node = &node->at(part);
    } else {
      node = &(*node)[part];
    }
    start = dot + 1;
  }
  return *node;
}

// ---- reading: JSON types only ----

std::string show(const json& v) { return v.dump(); }

std::string readString(const json& v, const std::string& key, const std::vector<std::string>& c) {
  if (v.is_string()) return v.get<std::string>();
  if (c.empty()) fail(key, key + " must be a string, got " + show(v));
  std::string list;
  for (const auto& s : c) list += (list.empty() ? "" : "|") + s;
  fail(key, key + " must be one of " + list + ", got " + show(v));
}

/// `alternative`: what else the key takes, said after "an integer" (" or null").
int64_t readInt(const json& v, const std::string& key, const std::string& alternative = {}) {
  bool integral = v.is_number_integer() || (v.is_number_float() && std::isfinite(v.get<double>()) &&
                                            std::floor(v.get<double>()) == v.get<double>());
  if (!integral)
    fail(key, key + " must be an integer" + alternative + ", got " + show(v));
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
    return INT64_MAX;
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (d >= 9.2e18) return INT64_MAX;
    if (d <= -9.2e18) return INT64_MIN;
    return static_cast<int64_t>(d);
  }
  return v.get<int64_t>();
}

double readNumber(const json& v, const std::string& key) {
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    fail(key, key + " must be a finite number, got " + show(v));
  return v.get<double>();
}

template <class S>
void readKey(const json& v, S& s, const Key<S>& k, const std::string& key) {
  std::visit(
      [&](auto m) {
        using T = std::decay_t<decltype(s.*m)>;
        T& out = s.*m;
        if constexpr (std::is_same_v<T, std::string>) {
          out = readString(v, key, k.choices);
        } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
          out = v.is_null() ? std::nullopt : std::optional(readString(v, key, k.choices));
        } else if constexpr (std::is_same_v<T, int64_t>) {
          out = readInt(v, key);
        } else if constexpr (std::is_same_v<T, std::optional<int64_t>>) {
          const bool word = k.null_word && v.is_string() && v.get<std::string>() == k.null_word;
          out = v.is_null() || word ? std::nullopt
                                    : std::optional(readInt(v, key,
                                                            k.null_word ? std::string(" or \"") + k.null_word + "\""
                                                                        : std::string(" or null")));
        } else if constexpr (std::is_same_v<T, double>) {
          out = readNumber(v, key);
        } else if constexpr (std::is_same_v<T, bool>) {
          if (!v.is_boolean()) fail(key, key + " must be true or false, got " + show(v));
          out = v.get<bool>();
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          if (!v.is_array()) fail(key, key + " must be a list of integers, got " + show(v));
          out.clear();
          for (const auto& e : v) out.push_back(readInt(e, key));
        } else if constexpr (std::is_same_v<T, std::array<double, 2>>) {
          if (!v.is_array() || v.size() != 2)
            fail(key, key + " must be a list of two numbers, got " + show(v));
          for (size_t i = 0; i < 2; ++i) out[i] = readNumber(v[i], key);
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          if (!v.is_array()) fail(key, key + " must be a list of numbers, got " + show(v));
          out.clear();
          for (const auto& e : v) out.push_back(readNumber(e, key));
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          if (!v.is_array()) fail(key, key + " must be a list of strings, got " + show(v));
          out.clear();
          for (const auto& e : v) out.push_back(readString(e, key, {}));
        } else if constexpr (std::is_same_v<T, ClassWeights>) {
          out = ClassWeights{};
          if (v.is_string() && (v == "none" || v == "balanced")) {
            out.mode = v.get<std::string>();
          } else if (v.is_array()) {
            out.mode = "list";
            for (const auto& e : v) out.weights.push_back(readNumber(e, key));
          } else {
            fail(key, key + " must be \"none\", \"balanced\" or a list of numbers (one weight "
                            "per class), got " + show(v));
          }
        } else if constexpr (std::is_same_v<T, ColumnRef>) {
          out = ColumnRef{};
          if (v.is_string()) {
            out.name = v.get<std::string>();
          } else if (!v.is_null()) {
            if (!v.is_number_integer())
              fail(key, key + " must be a column name (a string), a 0-based column index (an "
                              "integer) or null, got " + show(v));
            out.index = readInt(v, key);
          }
        }
      },
      k.member);
}

// ---- writing ----

template <class S>
json writeKey(const S& s, const Key<S>& k) {
  return std::visit(
      [&](auto m) -> json {
        using T = std::decay_t<decltype(s.*m)>;
        const T& v = s.*m;
        if constexpr (std::is_same_v<T, std::optional<int64_t>>) {
          return v ? json(*v) : k.null_word ? json(k.null_word) : json(nullptr);
        } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
          return v ? json(*v) : json(nullptr);
        } else if constexpr (std::is_same_v<T, std::array<double, 2>>) {
          return json{v[0], v[1]};
        } else if constexpr (std::is_same_v<T, ColumnRef>) {
          return v.name ? json(*v.name) : v.index ? json(*v.index) : json(nullptr);
        } else if constexpr (std::is_same_v<T, ClassWeights>) {
          return v.mode == "list" ? json(v.weights) : json(v.mode);
        } else {
          return json(v);
        }
      },
      k.member);
}

// ---- validation of typed values ----

/// A bound or value as the messages and the key reference write it.
std::string boundText(double v, bool integral) {
  return integral ? std::to_string(static_cast<int64_t>(v)) : formatNumber(v);
}

template <class S>
void checkNumber(const Key<S>& k, const std::string& key, double x, bool integral) {
  auto text = [&](double v) { return boundText(v, integral); };
  if (!std::isfinite(x)) fail(key, key + " must be a finite number, got " + formatNumber(x));
  if (k.lo_open ? !(x > k.lo) : x < k.lo)
    fail(key, key + " must be " + (k.lo_open ? "> " : ">= ") + text(k.lo) + ", got " + text(x));
  if (k.hi_open ? !(x < k.hi) : x > k.hi)
    fail(key, key + " must be " + (k.hi_open ? "< " : "<= ") + text(k.hi) + ", got " + text(x));
  // Training computes in float32: a finite double it cannot hold (lr 1e39) overflowed deep in
  // libtorch ("value cannot be converted to type float without overflow"), one it rounds to 0
  // (1e-50) silently became 0.
  if (!integral && std::fabs(x) > std::numeric_limits<float>::max())
    fail(key, key + " is " + formatNumber(x) + ", more than float32 (the dtype training " +
                  "computes in) holds: at most " + formatNumber(std::numeric_limits<float>::max()));
  if (!integral && x != 0 && std::fabs(x) < std::numeric_limits<float>::denorm_min())
    fail(key, key + " is " + formatNumber(x) + ", which float32 (the dtype training computes " +
                  "in) rounds to 0: use 0 or at least " +
                  formatNumber(std::numeric_limits<float>::min()));
}

template <class S>
void checkString(const Key<S>& k, const std::string& key, const std::string& s) {
  if (!k.choices.empty()) {
    std::string list;
    bool found = false;
    for (const auto& c : k.choices) {
      list += (list.empty() ? "" : "|") + c;
      found = found || s == c;
    }
    if (!found) fail(key, key + " must be one of " + list + ", got " + json(s).dump());
  }
  if (k.accept && !k.accept(s)) fail(key, key + " " + k.rule + ", got " + json(s).dump());
}

template <class S>
void checkKey(const S& s, const Key<S>& k, const std::string& key) {
  std::visit(
      [&](auto m) {
        using T = std::decay_t<decltype(s.*m)>;
        const T& v = s.*m;
        if constexpr (std::is_same_v<T, std::string>) {
          checkString(k, key, v);
        } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
          if (v) checkString(k, key, *v);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          checkNumber(k, key, static_cast<double>(v), true);
        } else if constexpr (std::is_same_v<T, std::optional<int64_t>>) {
          if (v) checkNumber(k, key, static_cast<double>(*v), true);
        } else if constexpr (std::is_same_v<T, double>) {
          checkNumber(k, key, v, false);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          for (int64_t e : v) checkNumber(k, key, static_cast<double>(e), true);
        } else if constexpr (std::is_same_v<T, std::array<double, 2>> ||
                             std::is_same_v<T, std::vector<double>>) {
          for (double e : v) checkNumber(k, key, e, false);
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          for (const std::string& e : v) checkString(k, key, e);
        } else if constexpr (std::is_same_v<T, ColumnRef>) {
          if (v.name && v.name->empty()) fail(key, key + " names no column (an empty string)");
        } else if constexpr (std::is_same_v<T, ClassWeights>) {
          if (v.mode != "none" && v.mode != "balanced" && v.mode != "list")
            fail(key, key + " must be \"none\", \"balanced\" or a list of numbers");
          if (v.mode == "list" && v.weights.empty())
            fail(key, key + " is an empty list: give one weight per class");
          double sum = 0;
          for (double w : v.weights) {
            checkNumber(k, key, w, false);
            if (w < 0) fail(key, key + " has a negative weight (" + formatNumber(w) + ")");
            sum += w;
          }
          if (v.mode == "list" && !(sum > 0)) fail(key, key + " weights are all 0");
        }
      },
      k.member);
}

// ---- the key reference ----

template <class S>
ConfigKeyInfo describeKey(const S& defaults, const Key<S>& k, const std::string& key) {
  ConfigKeyInfo info;
  info.key = key;
  info.help = k.help;
  info.default_value = writeKey(defaults, k);
  info.choices = k.choices;
  info.rule = k.rule;
  info.live = k.is_live;
  bool integral = false, list = false;
  std::visit(
      [&](auto m) {
        using T = std::decay_t<decltype(defaults.*m)>;
        if constexpr (std::is_same_v<T, std::string>) {
          info.type = "string";
        } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
          info.type = "string or null";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          info.type = "integer";
          integral = true;
        } else if constexpr (std::is_same_v<T, std::optional<int64_t>>) {
          info.type = k.null_word ? std::string("integer or \"") + k.null_word + "\""
                                  : std::string("integer or null");
          integral = true;
        } else if constexpr (std::is_same_v<T, double>) {
          info.type = "number";
        } else if constexpr (std::is_same_v<T, bool>) {
          info.type = "boolean";
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          info.type = "list of integers";
          integral = list = true;
        } else if constexpr (std::is_same_v<T, std::array<double, 2>>) {
          info.type = "list of 2 numbers";
          list = true;
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          info.type = "list of numbers";
          list = true;
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          info.type = "list of strings";
        } else if constexpr (std::is_same_v<T, ColumnRef>) {
          info.type = "string, integer or null";
        } else if constexpr (std::is_same_v<T, ClassWeights>) {
          info.type = "\"none\", \"balanced\" or list of numbers";
        }
      },
      k.member);
  if (std::isfinite(k.lo)) {
    info.min = k.lo;
    info.min_exclusive = k.lo_open;
  }
  if (std::isfinite(k.hi)) {
    info.max = k.hi;
    info.max_exclusive = k.hi_open;
  }
  std::string range;
  if (info.min && info.max) {
    range = boundText(*info.min, integral) + (k.lo_open ? " < x" : " <= x") +
            (k.hi_open ? " < " : " <= ") + boundText(*info.max, integral);
  } else if (info.min) {
    range = std::string("x ") + (k.lo_open ? "> " : ">= ") + boundText(*info.min, integral);
  } else if (info.max) {
    range = std::string("x ") + (k.hi_open ? "< " : "<= ") + boundText(*info.max, integral);
  }
  if (!range.empty() && list) range = "each " + range;
  if (!k.choices.empty()) {
    for (const auto& c : k.choices) info.allowed += (info.allowed.empty() ? "" : ", ") + c;
  } else if (k.accept) {
    info.allowed = k.rule;
    if (info.allowed.rfind("must be ", 0) == 0) info.allowed = info.allowed.substr(8);
  } else {
    info.allowed = range;
  }
  return info;
}

}  // namespace

json write(const TrainConfig& config) {
  json j = json::object();
  forEachSection(config, [&](const std::string& prefix, const auto& section, const auto& keys) {
    json& node = sectionNode(j, prefix);
    for (const auto& k : keys) node[k.name] = writeKey(section, k);
  });
  return j;
}

TrainConfig read(const json& full) {
  TrainConfig c;
  forEachSection(c, [&](const std::string& prefix, auto& section, const auto& keys) {
    const json& node = sectionNode(full, prefix);
    for (const auto& k : keys) readKey(node.at(k.name), section, k, fullName(prefix, k.name));
  });
  return c;
}

}  // namespace trainscope::config_keys

namespace trainscope {
namespace {

/// data.augment.* beyond each key's own range: the lists' shapes and orders, one crop, and
/// image data.
void validateAugment(const DataConfig& d, const DataSourceKind& source) {
  const AugmentConfig& a = d.augment;
  auto fail = [](const char* key, const std::string& message) {
    throw Error(ErrorCode::Config, key, message);
  };
  auto pair = [](const std::array<double, 2>& v) {
    return "[" + formatNumber(v[0]) + ", " + formatNumber(v[1]) + "]";
  };
  if (a.color_jitter.size() != 4)
    fail("data.augment.color_jitter",
         "data.augment.color_jitter must be [brightness, contrast, saturation, hue] (4 numbers, "
         "0 for off), got " + nlohmann::json(a.color_jitter).dump());
  if (a.color_jitter[3] > 0.5)
    fail("data.augment.color_jitter",
         "data.augment.color_jitter's hue is " + formatNumber(a.color_jitter[3]) +
             ": hue shifts lie in [-0.5, 0.5] (a full turn of the colour wheel), use at most 0.5");
  if (a.scale[0] > a.scale[1])
    fail("data.augment.scale", "data.augment.scale must be [min, max] with min <= max, got " +
                                   pair(a.scale));
  if (a.ratio[0] > a.ratio[1])
    fail("data.augment.ratio", "data.augment.ratio must be [min, max] with min <= max, got " +
                                   pair(a.ratio));
  const AugmentConfig defaults;
  for (const auto& [key, set] : {std::pair{"data.augment.scale", a.scale != defaults.scale},
                                 std::pair{"data.augment.ratio", a.ratio != defaults.ratio}})
    if (set && !a.random_resized_crop)
      fail(key, std::string(key) + " is set but data.augment.random_resized_crop is false, so "
                                   "nothing reads it; set random_resized_crop true or remove " +
                    key);
  if (a.random_resized_crop && a.crop_padding > 0)
    fail("data.augment.crop_padding",
         "data.augment.crop_padding and data.augment.random_resized_crop are both on: use one "
         "crop (RandomCrop with padding, or RandomResizedCrop)");
  if (a.any() && !source.image_data && (!source.read_from_files || source.key_section == "data.csv")) {
    const char* key = a.hflip > 0                 ? "data.augment.hflip"
                      : a.crop_padding > 0        ? "data.augment.crop_padding"
                      : a.random_resized_crop     ? "data.augment.random_resized_crop"
                      : a.rotation != 0           ? "data.augment.rotation"
                                                  : "data.augment.color_jitter";
    fail(key, std::string(key) + " is set, but data.source \"" + d.source +
                  "\" gives " + (source.key_section == "data.csv" ? "a table" : "no images") +
                  ": augmentation transforms images (image-folder, fashion-mnist, or .npy / IDX "
                  "images)");
  }
}

}  // namespace

void validate(const TrainConfig& config) {
  using namespace config_keys;
  forEachSection(config, [&](const std::string& prefix, const auto& section, const auto& keys) {
    for (const auto& k : keys) checkKey(section, k, fullName(prefix, k.name));
  });
  // lr_x1000 with lr_x1e-6 is refused; augment_validation needs an augmentation to misapply
  if (parseMistakes(config.teaching.mistakes).augment_validation && !config.data.augment.any())
    throw Error(ErrorCode::Config, "teaching.mistakes",
                "teaching.mistakes augment_validation sends the validation images through the "
                "training augmentation, but data.augment sets none (image data only: set e.g. "
                "data.augment.crop_padding or data.augment.hflip)");
  // A path no loader reads would be silently ignored (and the run would train on other data).
  const DataConfig& d = config.data;
  const DataSourceKind& source = dataSource(d.source);
  auto quoted = [](const std::string& s) { return nlohmann::json(s).dump(); };
  if (d.path && !(source.read_from_files && source.key_section == "data"))
    throw Error(ErrorCode::Config, "data.path",
                "data.path is set (" + quoted(*d.path) + ") but data.source \"" + d.source +
                    "\" does not read it; remove data.path (it names the folder of "
                    "fashion-mnist's files)" +
                    (source.key_section != "data" ? "; this source reads " + source.key_section +
                                                        ".path"
                                                  : std::string()));
  DataConfig fields_of = d;  // sourceFields points into a DataConfig it may change
  for (const char* section : {"data.csv", "data.image_folder", "data.npy", "data.idx"}) {
    const std::optional<std::string>* path = sourceFields(fields_of, section).path;
    const std::string key = std::string(section) + ".path";
    if (source.key_section == section && (!*path || (*path)->empty()))
      throw Error(ErrorCode::Config, key,
                  "data.source is \"" + d.source + "\", which reads " + key +
                      ", but it is not set; set " + key + " to your file or folder");
    if (source.key_section != section && *path)
      throw Error(ErrorCode::Config, key,
                  key + " is set (" + quoted(**path) + ") but data.source is \"" + d.source +
                      "\", which does not read it; set data.source to the source of " + section +
                      " or remove " + key);
  }
  if (!d.image_folder.size.empty() && d.image_folder.size.size() != 2)
    throw Error(ErrorCode::Config, "data.image_folder.size",
                "data.image_folder.size must be [height, width] or [] (the first image's size), "
                "got " + nlohmann::json(d.image_folder.size).dump());
  if (d.idx.path && !d.idx.y_path)
    throw Error(ErrorCode::Config, "data.idx.y_path",
                "data.idx.path is set but data.idx.y_path is not: set it to the IDX file of the "
                "labels");
  if (d.idx.test_path.has_value() != d.idx.test_y_path.has_value())
    throw Error(ErrorCode::Config, d.idx.test_path ? "data.idx.test_y_path" : "data.idx.test_path",
                "data.idx.test_path and data.idx.test_y_path go together: set both or neither");
  if (config.model.kind == "torchscript" &&
      (!config.model.torchscript.path || config.model.torchscript.path->empty()))
    throw Error(ErrorCode::Config, "model.torchscript.path",
                "model.kind is \"torchscript\", which reads model.torchscript.path, but it is not "
                "set; set it to the file of torch.jit.script(model).save(\"model.pt\")");
  if (config.model.kind != "torchscript" && config.model.torchscript.path)
    throw Error(ErrorCode::Config, "model.torchscript.path",
                "model.torchscript.path is set (" + quoted(*config.model.torchscript.path) +
                    ") but model.kind is \"" + config.model.kind +
                    "\", which does not read it; set model.kind to \"torchscript\" or remove "
                    "model.torchscript.path");
  // nn.LSTM and nn.GRU have no nonlinearity argument: a relu there would be silently ignored.
  if (config.model.rnn.nonlinearity != "tanh" && config.model.rnn.cell != "rnn")
    throw Error(ErrorCode::Config, "model.rnn.nonlinearity",
                "model.rnn.nonlinearity is \"" + config.model.rnn.nonlinearity +
                    "\" but model.rnn.cell is \"" + config.model.rnn.cell +
                    "\": only nn.RNN (cell \"rnn\") takes a nonlinearity; LSTM and GRU use tanh "
                    "and sigmoid gates");
  if (d.image_folder.channels == 2)
    throw Error(ErrorCode::Config, "data.image_folder.channels",
                "data.image_folder.channels must be 1 (grayscale) or 3 (RGB), got 2");
  validateAugment(d, source);
}

std::vector<ConfigKeyInfo> configKeyInfos() {
  using namespace config_keys;
  const TrainConfig defaults;
  std::vector<ConfigKeyInfo> out;
  forEachSection(defaults, [&](const std::string& prefix, const auto& section, const auto& keys) {
    for (const auto& k : keys) out.push_back(describeKey(section, k, fullName(prefix, k.name)));
  });
  return out;
}

bool configKeyApplies(const std::string& key, const nlohmann::json& config,
                      const std::string& task) {
  auto text = [&](const char* section, const char* name, const char* fallback) {
    const auto s = config.find(section);
    if (s == config.end() || !s->is_object()) return std::string(fallback);
    const auto v = s->find(name);
    return v != s->end() && v->is_string() ? v->get<std::string>() : std::string(fallback);
  };
  auto under = [&](const std::string& section) { return key.rfind(section + ".", 0) == 0; };
  const DataSourceKind* source = findDataSource(text("data", "source", "sine"));
  if (source) {
    for (const DataSourceKind& s : dataSources())
      if (s.key_section != "data" && under(s.key_section) && s.name != source->name) return false;
    const bool classes = task.empty() ? source->classification : task == "classification";
    const bool regression = task.empty() ? !source->classification && source->key_section == "data"
                                         : task == "regression";
    if ((key == "data.noise" || key == "data.n_samples") && source->read_from_files) return false;
    if (key == "data.path" && !(source->read_from_files && source->key_section == "data")) return false;
    if (key == "data.limit" && !source->read_from_files) return false;
    if (key == "data.seq_len" && !source->sequence_data) return false;
    if (key == "data.target_scale" && classes) return false;
    if (key == "data.stratify" && regression) return false;
    if ((key == "training.class_weights" || key == "data.sampler") && regression) return false;
    if (under("data.augment") && !source->image_data &&
        (!source->read_from_files || source->key_section == "data.csv"))
      return false;
  }
  const std::string kind = text("model", "kind", "mlp");
  for (const ModelKind& m : modelKinds())
    if (m.key_section != "model" && under(m.key_section) && m.name != kind) return false;
  if (key == "model.hidden" && kind != "mlp") return false;
  if (key == "model.activation" && kind != "mlp" && kind != "cnn") return false;
  if (key == "model.dropout" && kind == "torchscript") return false;
  const std::string optimizer = text("optimizer", "name", "adam");
  if (key == "optimizer.momentum" && optimizer != "sgd") return false;
  if (key == "optimizer.betas" && optimizer == "sgd") return false;
  return true;
}

}  // namespace trainscope

#pragma once
/// TrainConfig: the whole configuration of one run (ARCHITECTURE §6). The struct defaults below
/// are the built-in defaults (the JSON defaults are derived from TrainConfig{}); validation and
/// built-in presets. The JSON form lives in core/config/config_json.h. Torch-free, JSON-free.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/system/seed.h"  // kMaxSeed

namespace trainscope {

/// A table column named by its header cell or by its 0-based position (negative: from the end,
/// as Python's indexing); neither set = the default (for data.csv.target: the last column). In
/// JSON a string is a name and an integer a position.
struct ColumnRef {
  std::optional<std::string> name;
  std::optional<int64_t> index;
  bool isSet() const { return name || index; }
};

/// `data.csv.*`: a CSV table (data.source "csv"), read by core/data/csv_table.h.
struct CsvConfig {
  std::optional<std::string> path;  ///< the training table (required for "csv")
  ColumnRef target;                 ///< the label / target column; unset = the last column
  std::string header = "auto";      ///< auto | yes | no
  std::string delimiter = "auto";   ///< auto | , | ; | \t (or "tab")
  std::string task = "auto";        ///< auto | classification | regression
  /// Cells that mean "missing" besides an empty cell (pandas' common na_values).
  std::vector<std::string> missing{"NA", "N/A", "NaN", "nan", "null"};
  std::string on_missing = "error";  ///< error | drop_row
  std::vector<std::string> features;  ///< feature columns by name; empty = all but the target
  std::vector<std::string> exclude;   ///< columns left out (ids, free text)
  std::string categorical = "error";  ///< a text feature column: error | one_hot
  std::optional<std::string> val_path;   ///< a validation table (replaces the seeded split)
  std::optional<std::string> test_path;  ///< a test table
};

/// `data.image_folder.*`: torchvision's ImageFolder layout (data.source "image-folder").
struct ImageFolderConfig {
  std::optional<std::string> path;  ///< root/<class>/<image>, or root/train/<class>/... with val/, test/
  std::vector<int64_t> size;        ///< [H, W] to resize to; empty = the first image's size
  int64_t channels = 1;             ///< 1 (grayscale) or 3 (RGB)
  /// How images are resized to `size`: bilinear (with antialiasing, torchvision 0.14's Resize
  /// on PIL images) | nearest | bicubic (antialiased) | area (torch's interpolate mode="area").
  std::string resize = "bilinear";
};

/// `data.augment.*`: random transforms of training images, torchvision.transforms' names,
/// parameters and sampling (core/data/augment/transforms.h); all off by default. Validation
/// and test images are never augmented.
struct AugmentConfig {
  double hflip = 0;                  ///< RandomHorizontalFlip(p): the probability of a flip
  int64_t crop_padding = 0;          ///< RandomCrop(size, padding): pixels padded; 0 = off
  bool random_resized_crop = false;  ///< RandomResizedCrop(size, scale, ratio, antialias=True)
  std::array<double, 2> scale{0.08, 1.0};             ///< its area fraction [min, max]
  std::array<double, 2> ratio{3.0 / 4.0, 4.0 / 3.0};  ///< its aspect ratio [min, max]
  /// ColorJitter(brightness, contrast, saturation, hue); 0 leaves that property alone.
  std::vector<double> color_jitter{0, 0, 0, 0};
  double rotation = 0;  ///< RandomRotation(degrees): an angle uniform in [-rotation, rotation]
  /// Whether ColorJitter is on (any of its four strengths).
  bool jitter() const {
    for (double v : color_jitter)
      if (v != 0) return true;
    return false;
  }
  /// Whether any random transform is on.
  bool any() const {
    return hflip > 0 || crop_padding > 0 || random_resized_crop || jitter() || rotation != 0;
  }
};

/// `data.npy.*`: NumPy arrays (data.source "npy").
struct NpyConfig {
  std::optional<std::string> path;    ///< an .npz, or the .npy of x
  std::optional<std::string> y_path;  ///< the .npy of y (with an .npy path)
  std::string x = "x";                ///< the .npz member of the inputs
  std::string y = "y";                ///< the .npz member of the targets
  std::string task = "auto";          ///< auto | classification | regression
};

/// `data.idx.*`: any pair of IDX files (data.source "idx"): MNIST, KMNIST, EMNIST, ... plain or
/// .gz, element types 0x08-0x0E (core/data/idx_reader.h).
struct IdxConfig {
  std::optional<std::string> path;         ///< the inputs, e.g. train-images-idx3-ubyte.gz
  std::optional<std::string> y_path;       ///< the labels / targets, e.g. train-labels-idx1-ubyte.gz
  std::optional<std::string> test_path;    ///< test inputs (optional, with test_y_path)
  std::optional<std::string> test_y_path;  ///< test labels
  std::string task = "auto";               ///< auto | classification | regression
};

/// `data.*`: where samples come from and how they are split and standardised.
struct DataConfig {
  std::string source = "sine";      ///< a row of dataSources() (core/config/kinds.h)
  std::optional<std::string> path;  ///< folder of IDX .gz files (fashion-mnist); null = default
  int64_t seed = 0;                 ///< 0..kMaxSeed: generates synthetic data, draws limit, split
  int64_t n_samples = 200;          ///< synthetic sources only
  int64_t seq_len = 50;             ///< sequence sources: time steps T of each sample [T, F]
  double noise = 0.1;               ///< synthetic sources: std of the Gaussian noise
  double val_fraction = 0.2;        ///< fraction of the training pool held out for validation
  std::optional<int64_t> limit;  ///< take N samples of the pool (seeded shuffle) before the split
  bool standardize = true;       ///< per-feature (tabular) / per-channel (images) z-scoring
  /// Regression only: targets are multiplied by this after generation (preset `exploding`: 50).
  double target_scale = 1.0;
  CsvConfig csv;
  ImageFolderConfig image_folder;
  NpyConfig npy;
  IdxConfig idx;
  AugmentConfig augment;
  /// Loader threads that make training batches ahead of the training thread (DataLoader's
  /// num_workers); null ("auto"): 0 without augmentation (a batch is a slice of memory),
  /// else min(4, max(1, cores / 2)).
  std::optional<int64_t> workers;
  int64_t prefetch = 2;  ///< batches made ahead per worker (DataLoader's prefetch_factor)
  /// Data larger than memory (core/data/file_rows.h): an .npy of inputs (uint8 images or
  /// float32 features) or an image folder's decoded cache stays on disk, its rows read as
  /// batches ask (positioned reads: nothing resident, no SIGBUS), instead of being read into
  /// memory when it is larger than in_memory_limit, or always when memory_map is true. (The
  /// key's name is the contract; rows are not read through a memory map: core/io/row_file.h.)
  bool memory_map = false;
  /// Bytes of input data read into memory at most; null ("auto"): half the memory available
  /// when the data is loaded (MemAvailable).
  std::optional<int64_t> in_memory_limit;
  /// How each epoch's training order is drawn: "random" (a permutation, DataLoader's
  /// shuffle=True) or "weighted" (torch.utils.data.WeightedRandomSampler over the training
  /// split with replacement, each sample weighted 1 / its class's count: classes drawn
  /// equally often). Classification only.
  std::string sampler = "random";
  /// Classification: split train/val per class (each class keeps val_fraction of its samples,
  /// as sklearn's train_test_split(stratify=y)); else one seeded permutation of all samples.
  bool stratify = false;
};

/// `model.cnn.*`: the convolutional kind (model.kind "cnn", core/model/cnn.h). Per entry of
/// `channels` one block Conv2d(in, out, kernel_size, stride, padding) [-> BatchNorm2d] ->
/// model.activation [-> MaxPool2d / AvgPool2d(pool_size)], then Flatten [-> Dropout] and
/// Linear layers (`hidden`, then the head). Names and defaults as torch.nn's.
struct CnnConfig {
  std::vector<int64_t> channels{32, 64};  ///< out_channels of each conv block
  int64_t kernel_size = 3;
  int64_t stride = 1;
  int64_t padding = 1;                    ///< zero padding on each side (kernel_size // 2: same size)
  bool batch_norm = false;                ///< BatchNorm2d between each conv and its activation
  std::string pool = "max";               ///< max | avg | none, after each block's activation
  int64_t pool_size = 2;                  ///< the pooling's kernel_size and stride
  std::vector<int64_t> hidden;            ///< Linear widths between the flatten and the head
};

/// `model.rnn.*`: the recurrent kind (model.kind "rnn", core/model/rnn.h) for [T, F] samples:
/// torch.nn.RNN / LSTM / GRU (batch_first) with these constructor arguments, then the last
/// time step's output or the mean over time, [nn.Dropout(model.dropout)] and nn.Linear.
struct RnnConfig {
  std::string cell = "lstm";          ///< rnn (Elman, torch.nn.RNN) | lstm | gru
  std::string nonlinearity = "tanh";  ///< cell rnn only: tanh | relu (nn.RNN's nonlinearity)
  int64_t hidden_size = 64;
  int64_t num_layers = 1;
  bool bidirectional = false;
  double dropout = 0.0;           ///< between stacked layers (nn.LSTM's dropout)
  std::string output = "last";    ///< last (output[:, -1]) | mean (output.mean(1)) into the head
};

/// `model.torchscript.*`: a module scripted in Python (model.kind "torchscript",
/// core/model/torchscript.h): torch.jit.script(model).save(path) or torch.jit.trace(...).save.
struct TorchScriptConfig {
  std::optional<std::string> path;  ///< the TorchScript file (.pt); stored absolute
  /// A TorchScript file is a program: one whose code reads or writes files (torch.from_file,
  /// torch.save) is refused before it is loaded unless this is set.
  bool allow_file_access = false;
  /// The submodule whose output Grad-CAM reads (its dotted name, "features.3"; issue 49 §3):
  /// nullopt = the last torch.nn.Conv2d of the module (pre-order). Training does not use it.
  std::optional<std::string> grad_cam_layer;
};

/// `model.*`: the model of a run. `kind` picks a row of the model kinds registry
/// (core/config/kinds.h); "mlp" reads the flat keys below, "cnn" also model.cnn.*, "rnn"
/// model.rnn.*, "torchscript" model.torchscript.path.
struct ModelConfig {
  std::string kind = "mlp";
  std::vector<int64_t> hidden{128, 128};  ///< hidden layer widths
  std::string activation = "relu";        ///< relu | tanh | gelu | sigmoid
  double dropout = 0.0;                   ///< nn.Dropout p after each hidden activation
  CnnConfig cnn;
  RnnConfig rnn;
  TorchScriptConfig torchscript;
};

/// `optimizer.*`: same names and meanings as torch.optim.SGD / Adam / AdamW.
struct OptimizerConfig {
  std::string name = "adam";  ///< sgd | adam | adamw
  double lr = 1e-3;
  double momentum = 0.0;  ///< sgd only
  double weight_decay = 0.0;
  std::array<double, 2> betas{0.9, 0.999};  ///< adam / adamw
};

/// `training.clip.*`: gradient clipping by the total norm over all parameters, as
/// torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type) (core/train/step/clipping.h).
struct ClipConfig {
  bool enabled = false;
  double max_norm = 1.0;  ///< > 0 and finite (a negative one would flip the gradients' sign)
  /// The p of the p-norm (integer >= 1; 2 = Euclidean, the default); nullopt = "inf" in JSON
  /// (max |g|). grad_norm in steps.csv is measured in this norm.
  std::optional<int64_t> norm_type = 2;
};

/// `training.early_stopping.*`: stop when validation loss has not improved by more than
/// min_delta for `patience` epochs (Keras' / Lightning's EarlyStopping on val_loss, mode min).
/// `patience` also sets the overfitting-onset watch, which runs whether or not this is enabled.
struct EarlyStoppingConfig {
  bool enabled = false;
  int64_t patience = 10;
  double min_delta = 0.0;
  bool restore_best_weights = false;  ///< at the stop, go back to the best epoch's weights
};

/// `training.class_weights`: the weight of each class in the training loss,
/// CrossEntropyLoss(weight=...): "none", "balanced" (scikit-learn's
/// compute_class_weight("balanced"): n_samples / (n_classes * the class's count), over the
/// training split) or one non-negative weight per class in class order. In JSON a string or a
/// list of numbers.
struct ClassWeights {
  std::string mode = "none";    ///< none | balanced | list
  std::vector<double> weights;  ///< mode "list": one per class
};

/// `training.*`
struct TrainingConfig {
  int64_t epochs = 10;
  int64_t batch_size = 32;
  std::optional<int64_t> seed;  ///< 0..kMaxSeed (2^31-1); null = draw one and record it
  ClipConfig clip;
  std::string device = "auto";  ///< auto | cpu | cuda | cuda:N
  /// Intra-op threads. nullopt = "auto" in JSON (null, from older files, reads as "auto" too):
  /// the fastest of 1, 2, 4, ... up to the cores the front end may use (OMP_NUM_THREADS when
  /// set), timed on a few real steps at the start of the run (core/train/probes/thread_choice.h). The
  /// count a run uses is written back here, so config.json always holds an integer.
  std::optional<int64_t> num_threads;
  std::optional<std::string> non_finite;  ///< pause | stop | skip; null = the front end's default
  /// Mixed precision: bf16 autocast on CPU, fp16 autocast + GradScaler on CUDA. Live: a
  /// running engine toggles it at the next step (Trainer::setAmp).
  bool amp = false;
  /// libtorch's deterministic algorithms (torch.use_deterministic_algorithms(True)) and, on
  /// CUDA, cuDNN's deterministic mode.
  bool deterministic = false;
  /// Gradient accumulation: micro-batches of batch_size per optimizer step (1 = none).
  int64_t grad_accum_steps = 1;
  /// DataLoader(drop_last=True): each epoch leaves out the last batch when it is smaller than
  /// batch_size (a last batch of one sample breaks BatchNorm in training mode).
  bool drop_last = false;
  ClassWeights class_weights;
  /// Per-layer gradient norms and update ratios (layers.csv) every N steps; 0 = off.
  int64_t layer_stats_every = 10;
  /// Percentiles and histograms of each layer's weights, gradients and activations (the
  /// Distributions view, TensorBoard histograms) every N steps; 0 = off; null (default): at
  /// step 10 of the run, every 500 steps and at the end of the last epoch (deterministic, so
  /// two runs write the same files; a reading costs <= 1% of 500 steps of the presets).
  std::optional<int64_t> distributions_every;
  /// In-memory snapshot of the training state every N steps for rollback (the newest 3 and the
  /// run's start are kept); 0 = only the start.
  int64_t snapshot_every = 50;
  /// The validation metric that picks best.pt, early stopping and the test's "best" weights:
  /// val_loss | val_accuracy (classification) | val_r2 | val_mae | val_rmse (regression);
  /// lower is better for val_loss/val_mae/val_rmse, higher for val_accuracy/val_r2 (Keras's
  /// ModelCheckpoint(monitor=..., mode="auto"); Lightning's `monitor` with its `mode`).
  std::string monitor = "val_loss";
  EarlyStoppingConfig early_stopping;
};

/// `scheduler.*`: a learning-rate schedule stepped once per epoch after validation, with the
/// class names and argument names of torch.optim.lr_scheduler (core/optim/schedulers/).
struct SchedulerConfig {
  /// none | StepLR | MultiStepLR | ExponentialLR | CosineAnnealingLR | ReduceLROnPlateau
  std::string name = "none";
  int64_t step_size = 10;              ///< StepLR
  double gamma = 0.1;                  ///< StepLR, MultiStepLR, ExponentialLR
  std::vector<int64_t> milestones;     ///< MultiStepLR: epochs
  int64_t T_max = 10;                  ///< CosineAnnealingLR: epochs of the half period
  double eta_min = 0.0;                ///< CosineAnnealingLR: the lowest lr
  std::string mode = "min";            ///< ReduceLROnPlateau: min | max (of the validation loss)
  double factor = 0.1;                 ///< ReduceLROnPlateau: lr *= factor
  int64_t patience = 10;               ///< ReduceLROnPlateau: bad epochs tolerated
  double threshold = 1e-4;             ///< ReduceLROnPlateau: what counts as an improvement
  std::string threshold_mode = "rel";  ///< ReduceLROnPlateau: rel | abs
  int64_t cooldown = 0;                ///< ReduceLROnPlateau: epochs ignored after a reduction
  double min_lr = 0.0;                 ///< ReduceLROnPlateau: the lowest lr
  /// Linear warm-up in front of the schedule (LinearLR chained with SequentialLR): epochs, 0 =
  /// none, and the factor of optimizer.lr it starts from (LinearLR's start_factor, 1/3 as in
  /// PyTorch).
  int64_t warmup_epochs = 0;
  double warmup_start_factor = 1.0 / 3.0;
};

/// `checkpoint.*`: automatic checkpoints in <run dir>/checkpoints/ at each epoch end, after
/// validation (ARCHITECTURE §5).
struct CheckpointConfig {
  bool save_last = true;  ///< last.pt at epoch ends (interval_seconds) and at stop/pause/end
  bool save_best = true;  ///< best.pt when validation loss improves (needs a validation split)
  /// Automatic last.pt and best.pt (and a TorchScript model's model.pt) are written at an epoch
  /// end at most once per this many seconds of wall time, and always when the run stops,
  /// pauses, is interrupted or ends; an improvement in between is kept in memory (best.pt
  /// then holds the best epoch's state, as if written at once). 0 = at every epoch end.
  double interval_seconds = 5;
  int64_t every_epochs = 0;  ///< epoch-NNNN.pt every N epochs; 0 = off
  int64_t keep_last = 3;     ///< keep the newest K epoch-NNNN.pt files; 0 = keep all
};

/// `distributed.*`: data-parallel training over c10d (core/distributed/), used when the environment a
/// launcher sets (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT) asks for more than one rank.
struct DistributedConfig {
  /// torch.distributed backend: "gloo" (CPU); "nccl" is accepted only by CUDA builds with it.
  std::string backend = "gloo";
  /// Longest wait for another rank (joining the group, one collective), seconds; PyTorch's
  /// init_process_group(timeout=) (its default is 1800 s; ours is shorter so that a lost rank
  /// ends a run within minutes).
  double timeout_seconds = 120;
};

/// `logging.*`: what a run writes besides metrics.jsonl and its checkpoints (ARCHITECTURE §5).
struct LoggingConfig {
  /// TensorBoard event file (events.out.tfevents.*) in the run directory, beside metrics.jsonl:
  /// the same scalars under TensorBoard's tags (train/loss, val/loss, grad_norm, lr, ...).
  bool tensorboard = true;
};

/// `teaching.*`: switches for the classroom (core/config/mistakes.h).
struct TeachingConfig {
  /// Classic training-loop bugs injected on purpose, by name (mistakeNames()); empty: none.
  std::vector<std::string> mistakes;
};

/// The resolved configuration of one run.
struct TrainConfig {
  std::string name = "run";  ///< used to name the run directory
  DataConfig data;
  ModelConfig model;
  OptimizerConfig optimizer;
  TrainingConfig training;
  CheckpointConfig checkpoint;
  SchedulerConfig scheduler;
  DistributedConfig distributed;
  LoggingConfig logging;
  TeachingConfig teaching;
};

/// A built-in preset: a named partial config with a fixed seed.
struct PresetInfo {
  std::string name;
  std::string description;  ///< one line, English
};

/// The built-in presets, the default (`overfit-sine`) first.
std::vector<PresetInfo> presets();
/// Name of the preset used when none is given.
std::string defaultPresetName();
/// The defaults with preset `name` applied (validated). Throws Error(Config, "preset") naming
/// the unknown preset and listing the available ones.
TrainConfig presetConfig(const std::string& name);

/// The members of `d` that a data source's own key section holds (DataSourceKind::
/// key_section): its file or folder (data.csv.path ...; data.path for "data"), a second file
/// of labels (data.npy.y_path, data.idx.y_path), its task (data.csv/npy/idx.task), the table's
/// target column (data.csv.target) and the images' size and channels (data.image_folder.*).
/// Null where the section has none. The config validation and the Data dialog use it, so
/// neither names the sources.
struct SourceFields {
  std::optional<std::string>* path = nullptr;
  std::optional<std::string>* labels_path = nullptr;
  std::string* task = nullptr;
  ColumnRef* target = nullptr;
  std::vector<int64_t>* image_size = nullptr;
  int64_t* channels = nullptr;
};
SourceFields sourceFields(DataConfig& d, const std::string& key_section);

/// The layer sizes of a model kind's section (ModelKind::key_section): model.hidden ("model"),
/// model.cnn.channels ("model.cnn"), one model.rnn.hidden_size per stacked layer
/// (model.rnn.num_layers of them, "model.rnn"); nullopt for a section whose file fixes the
/// architecture (model.torchscript). The dashboard's layer sizes field edits them.
std::optional<std::vector<int64_t>> layerSizes(const ModelConfig& m,
                                               const std::string& key_section);
/// Sets them; recurrent layers share one size, the first (num_layers = the count; nothing
/// changes for an empty list). No effect for a section without sizes.
void setLayerSizes(ModelConfig& m, const std::string& key_section,
                   const std::vector<int64_t>& sizes);

/// Checks every value of `config` against its key's range or choices (the same rules
/// configFromJson applies). Throws Error(Config, key) naming the key and the value, e.g.
/// "training.batch_size must be >= 1, got 0".
void validate(const TrainConfig& config);

}  // namespace trainscope

#pragma once
/// Value records the Trainer reports to its observers. Plain copyable structs with no tensors
/// and no pointers into engine state, so they can cross threads. Fields may be added later.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/data/data_summary.h"
#include "core/model/model_summary.h"
#include "core/run/class_metrics.h"
#include "core/run/watch_records.h"

namespace trainscope {

/// Why a run ended (summary.json `stop_reason`).
enum class StopReason {
  Completed,
  Stopped,
  NonFinite,
  EarlyStop,
  Interrupted,
  Error,
  Diverged,
  Pruned
};
/// "completed" | "stopped" | "non_finite" | "early_stop" | "interrupted" | "error" |
/// "diverged" (a finite divergence under training.non_finite "stop", issue 11) | "pruned" (a
/// sweep's pruner ended the trial: core/sweep/orchestrator.h)
std::string toString(StopReason reason);
/// The StopReason whose toString() is `text`; nullopt for any other text.
std::optional<StopReason> stopReasonFromString(const std::string& text);

/// What an Event is about. Its text form (toString) is the stable `kind` of events.jsonl.
enum class EventKind {
  RunStarted,        ///< "run_started": data and model ready, before the first step
  Paused,            ///< "paused": the engine waits (command or non-finite policy "pause")
  Resumed,           ///< "resumed"
  Stopped,           ///< "stopped": stopped or interrupted before the planned end
  NonFinite,         ///< "non_finite": a non-finite loss or gradient norm (value, what)
  EarlyStop,         ///< "early_stop" (early stopping issue)
  Overfitting,       ///< "overfitting" (overfitting-onset issue)
  CheckpointSaved,   ///< "checkpoint_saved" (checkpoint issue)
  CheckpointLoaded,  ///< "checkpoint_loaded" (checkpoint issue)
  ConfigChanged,     ///< "config_changed" (live settings)
  Slowdown,          ///< "slowdown": an epoch trained at under 1/3 of the rate measured at start
  Finished,          ///< "finished": the run ended (any stop reason but Error)
  Error,             ///< "error": the run ended on an error
  CheckpointFailed,  ///< "checkpoint_failed": a checkpoint could not be written; the run goes on
  /// "weights_imported": TrainerOptions::init_weights were loaded before the first step
  /// (Event::file the file, value the number of tensors, what "tensors")
  WeightsImported,
  MemoryWarning,  ///< "memory_warning": the run's estimated memory exceeds what is available
  Diverged,       ///< "diverged": finite divergence (what "train_loss" | "val_accuracy")
  ClipWarning,    ///< "clip_warning": what "clip_never_fires" | "clip_always_fires"
  Diagnosis,      ///< "diagnosis": the loss doctor's kind changed (what = the kind)
  RolledBack,     ///< "rolled_back": state restored from an in-memory snapshot (value: its step)
  /// "group_formed": a data-parallel run's ranks joined (value: the world size, what
  /// "world_size"; the message names the backend, hosts and the global batch)
  GroupFormed,
  /// "validation_cost": teaching.mistakes val_with_grad, after the first validation: the pass
  /// with every batch's graph kept against the same pass under torch.no_grad(). `values`:
  /// {seconds with graphs, seconds without, resident memory the pass added with graphs, bytes,
  /// the same without}; nan where not measured (without: not with eval_in_train_mode, whose
  /// dropout would draw the run's random numbers twice).
  ValidationCost,
  /// "augmented_validation": teaching.mistakes augment_validation, after the first
  /// validation: the validation through the training augmentation against a clean evaluation
  /// of the same weights. value: the augmented validation loss; `values`: {that loss, the clean
  /// loss, the augmented accuracy, the clean accuracy} (accuracies nan for regression).
  AugmentedValidation,
  /// "data_warning": what the data report warns about, said once before the first step (issue
  /// 43): what "leakage" | "duplicates" | "imbalance" | "few_samples" | "no_val_samples" |
  /// "constant_features" (value: the count, file: the class or features named, values: {the
  /// imbalance ratio}; ReportWarning, core/data/data_report.h) | "note"
  /// (the source's own note: rows dropped, images that could not be decoded and were skipped)
  /// | "csv_header" (the CSV header decision: value 1 read as the header, 0 as data; file the
  /// table)
  DataWarning,
  /// "model_warning": what a TorchScript model's import found (issue 43), said once before the
  /// first step: what "traced" (torch.jit.trace: control flow on the data was not recorded;
  /// dropout / batch norm keep their traced mode) | "frozen_parameters" (value: their count)
  ModelWarning
};
/// "run_started" | "paused" | "resumed" | "stopped" | "non_finite" | "early_stop" |
/// "overfitting" | "checkpoint_saved" | "checkpoint_loaded" | "config_changed" | "slowdown" |
/// "finished" | "error" | "checkpoint_failed" | "weights_imported" | "memory_warning" |
/// "diverged" | "clip_warning" | "diagnosis" | "rolled_back" | "group_formed" |
/// "validation_cost" | "data_warning" | "model_warning"
std::string toString(EventKind kind);
/// The EventKind whose toString() is `text`; nullopt for any other text.
std::optional<EventKind> eventKindFromString(const std::string& text);

/// One optimizer step (steps.csv row). A step whose loss or gradient norm was non-finite is
/// reported too; its optimizer update was not applied.
struct StepRecord {
  int64_t step = 0;   ///< 1-based global optimizer step (one batch, or one group of
                      ///< training.grad_accum_steps micro-batches)
  int64_t epoch = 0;  ///< 1-based epoch the step belongs to
  int64_t batch = 0;  ///< 1-based index of the step's last (micro-)batch within the epoch
  int64_t batches_per_epoch = 0;  ///< (micro-)batches per epoch
  int64_t batch_samples = 0;  ///< samples of this step, all micro-batches (the last may be partial)
  double loss = 0;            ///< mean loss of the batch (train mode)
  double grad_norm = 0;       ///< total L2 norm before clipping (clip_grad_norm_'s return)
  double grad_norm_clipped = 0;      ///< norm of the gradient the optimizer used
  double lr = 0;                     ///< learning rate used by this step
  std::optional<double> loss_scale;  ///< GradScaler scale this step used; empty without a scaler
  /// false when the optimizer step was skipped: a non-finite value, or (loss finite and
  /// loss_scale set) the GradScaler found inf/NaN gradients — normal fp16 AMP behaviour.
  bool applied = true;
  double elapsed_seconds = 0;  ///< wall time since the run started
  /// training.clip.max_norm in force for this step; empty when clipping is off (not in
  /// steps.csv: front ends draw it as the threshold series).
  std::optional<double> max_norm;
  bool clipped = false;  ///< clipping scaled this step's gradients (factor < 1)
  /// Seconds this step waited for its batches (data.workers 0: the time making them took);
  /// empty in runs written before (steps.csv `data_wait`).
  std::optional<double> data_wait;
};

/// One completed epoch (metrics.csv row): training pass plus validation.
struct EpochRecord {
  int64_t epoch = 0;      ///< 1-based
  int64_t step = 0;       ///< global step at which the epoch ended
  double train_loss = 0;  ///< sample-weighted mean of the epoch's batch losses (train mode)
  double val_loss = 0;    ///< sample-weighted mean over the validation split (eval mode)
  std::optional<double> val_accuracy;  ///< classification only, in [0, 1]
  double lr = 0;                       ///< learning rate of the epoch's last step
  double epoch_seconds = 0;            ///< wall time of training + validation
  double samples_per_second = 0;       ///< training samples / training wall time of the epoch
  /// Classification only: fraction of the epoch's training samples classified correctly, in
  /// [0, 1], measured on the fly in train mode (like train_loss; metrics.csv `train_accuracy`).
  std::optional<double> train_accuracy;
  /// training.early_stopping.enabled: the epoch at which early stopping fires if validation
  /// loss does not improve again (the preview front ends draw); not in metrics.csv.
  std::optional<int64_t> early_stop_at;
  /// The share of the epoch's training time spent waiting for batches (the steps' data_wait
  /// over the epoch's training seconds, 0..1; observers only, not in metrics.csv).
  std::optional<double> data_wait_share;
  /// Regression only, over the validation split in target units (the targets as in
  /// the data, data.target_scale undone): the coefficient of determination 1 - SSE / SST
  /// (sklearn.metrics.r2_score, "uniform_average" over the targets), the mean absolute error
  /// and the root of the mean squared error (metrics.csv `val_r2`, `val_mae`, `val_rmse`).
  std::optional<double> val_r2, val_mae, val_rmse;
};

/// A validation sample the evaluation view shows: one the model gets most wrong
/// (ValidationDetail::worst) or one of a confusion matrix cell (ValidationDetail::cells).
struct WorstSample {
  int64_t position = 0;  ///< row of the validation split (0-based)
  /// The source's sample number (split.json's numbering: CSV data row, image file of
  /// split.json `files`); -1 when the validation split is a file of its own (then `position`).
  int64_t sample = -1;
  int64_t target = 0;        ///< true class index
  int64_t predicted = 0;     ///< argmax of the model's outputs
  double loss = 0;           ///< the sample's cross-entropy (nats)
  double probability = 0;    ///< softmax probability the model gives the true class, in [0, 1]
  /// The sample as the user gave it: images [C*H*W] pixel values 0-255 (RunInfo::data
  /// input_shape); tables one value per feature with the standardisation undone.
  std::vector<float> raw;
  /// Worst samples of image data and a convolutional model, for the dashboard: signed
  /// Grad-CAM maps (core/model/grad_cam.h) for each class c, cams[c] [H * W] at the image
  /// size; empty otherwise.
  std::vector<std::vector<float>> cams;
};

/// The penultimate layer's features of up to kMaxPoints validation samples (seeded, stratified
/// by class) projected on their first two principal components (issue 49 §2,
/// core/train/probes/embedding.h): where the model puts each sample just before its last
/// layer, so classes can be watched separating epoch by epoch.
struct EmbeddingRecord {
  int64_t epoch = 0;
  int64_t features = 0;  ///< width of the penultimate layer (0: not computed)
  std::vector<float> x, y;  ///< first and second principal component of each point
  std::vector<int64_t> label;     ///< true class
  std::vector<int64_t> position;  ///< row of the validation split
  std::vector<int64_t> sample;    ///< split.json's sample number, -1 when none
  std::vector<double> explained_variance_ratio;  ///< of the two components
  /// The points on their first `reduced_dims` principal components (min(kReducedDims,
  /// features, points)), row-major [n * reduced_dims]: what t-SNE starts from, as van der
  /// Maaten's and scikit-learn's guides advise (PCA to 50 dimensions first).
  std::vector<float> reduced;
  int64_t reduced_dims = 0;
  static constexpr int64_t kMaxPoints = 5000;
  static constexpr int64_t kReducedDims = 50;
};

/// The validation split in detail at an epoch's end (TrainerOptions::validation_detail), the
/// "evaluation" view: for classification the confusion matrix and its cells' samples, the
/// worst-predicted samples and the per-class quality; for regression predicted against true
/// values.
struct ValidationDetail {
  int64_t epoch = 0;
  int64_t step = 0;  ///< the global step the pass ran after
  int64_t n_classes = 0;  ///< 0 for regression
  /// [n_classes * n_classes] sample counts, row-major: confusion[t * n_classes + p] counts
  /// samples of true class t predicted as p (sklearn.metrics.confusion_matrix's layout).
  std::vector<int64_t> confusion;
  std::vector<WorstSample> worst;  ///< at most kWorstSamples, highest loss first
  /// Regression: the first output's true and predicted values (target units) of up to
  /// kMaxPoints validation samples, in split order.
  std::vector<float> target, predicted;
  /// Classification: each class against the rest on the softmax probabilities
  /// (core/run/class_metrics.h: scikit-learn's precision, recall, F1, average precision, ROC
  /// AUC and curves), the curves thinned to at most kMaxCurvePoints points (evenly by index,
  /// both ends kept; `curves_thinned` says so).
  std::vector<ClassReport> classes;
  bool curves_thinned = false;
  int64_t samples = 0;  ///< validation samples of the pass
  /// Classification: per class, [kThresholds] counts of the samples whose probability of the
  /// class is at least threshold k / (kThresholds - 1), bucketed as TensorBoard's pr_curves
  /// plugin does (floor(p * (kThresholds - 1)) >= k): `tp_at` of the class's own samples,
  /// `fp_at` of the others. A two-class task's confusion matrix at any of these thresholds
  /// follows from class 1's (the threshold slider).
  std::vector<std::vector<int64_t>> tp_at, fp_at;
  /// Classification: the samples of each confusion matrix cell (index t * n_classes + p), the
  /// first in split order, at most cellSampleLimit() each, with their raw values.
  std::vector<std::vector<WorstSample>> cells;
  /// Classification with a dashboard watching: the embedding (EmbeddingRecord::features 0 when
  /// not computed this epoch: the model has no Linear layer, or the pictures, the embedding
  /// and the worst samples' Grad-CAM maps, would take more than kPictureShare of the engine's
  /// time: they are computed when the time since the last ones is at least their cost /
  /// kPictureShare, and at the planned last epoch).
  EmbeddingRecord embedding;
  static constexpr double kPictureShare = 0.05;
  static constexpr int64_t kWorstSamples = 12;
  static constexpr int64_t kMaxPoints = 2000;
  static constexpr std::size_t kMaxCurvePoints = 1000;
  static constexpr int64_t kThresholds = 201;  ///< thresholds 0, 0.005, ..., 1
  static constexpr int64_t kCellSamples = 8;
  /// Raw values all cells' samples may hold together (4 MB of floats): large images keep fewer
  /// than kCellSamples per cell.
  static constexpr int64_t kCellValues = 1 << 20;
  /// Samples kept per cell for `classes` classes of `values` raw values each: kCellSamples,
  /// fewer where kCellValues would be exceeded, at least 1.
  static int64_t cellSampleLimit(int64_t classes, int64_t values);
};

/// The evidence of a "non_finite" or "diverged" event (issue 11) as fields, so front ends can
/// word it in their language without parsing Event::message. Not written to events.jsonl (the
/// message has the same facts in English).
struct EventEvidence {
  /// non_finite: the step's batch loss; diverged: the epoch's training loss (may be inf / nan)
  double loss = 0;
  double grad_norm = 0;  ///< non_finite: total norm before clipping (may be inf / nan); else nan
  double lr = 0;         ///< learning rate in force
  /// Parameter tensors (state_dict names) whose gradient norm went non-finite, in state_dict
  /// order, at most 3; when none did, the one with the largest norm (empty for diverged).
  std::vector<std::pair<std::string, double>> layers;
  bool layers_non_finite = false;  ///< `layers` lists non-finite gradients (else: the largest)
  bool clip_enabled = false;       ///< training.clip.enabled at the step
  double max_norm = 0;             ///< training.clip.max_norm at the step
  std::vector<Finding> causes;     ///< likely causes, most likely first
};

/// Something that happened (events.jsonl line). `kind` says what (written as toString(kind));
/// `message` is English; the GUI builds translated text from kind and the numeric fields.
struct Event {
  int64_t step = 0;
  int64_t epoch = 0;
  EventKind kind = EventKind::RunStarted;
  std::string message;
  std::optional<double> value;  ///< the number the event is about (e.g. the non-finite loss)
  std::string what;             ///< which quantity: "loss" | "grad_norm" | ...
  /// The file the event is about (checkpoint_saved / checkpoint_loaded / checkpoint_failed /
  /// weights_imported); data_warning: the class or the features the warning names.
  std::string file;
  /// Further numbers of kinds that have several (validation_cost); events.jsonl "values".
  std::vector<double> values{};
  /// non_finite and diverged events: the evidence as fields (empty for other kinds).
  std::optional<EventEvidence> evidence{};
};

/// One candidate intra-op thread count timed at the start of a run (training.num_threads auto).
struct ThreadRate {
  int threads = 1;
  double samples_per_second = 0;  ///< training steps on a throwaway copy of the model
  /// The rate of each timing round (interleaved with the other candidates; one round when the
  /// candidate was dropped after the first). Where they spread over 20% (rateSpread,
  /// core/system/noise.h) the description shows the range: other programs, or a heavy
  /// model still warming up. Empty in run.json files written before.
  std::vector<double> rounds;
};

/// How a run's intra-op thread count was chosen.
struct ThreadChoice {
  int threads = 1;                ///< the count the run uses, for the whole run
  bool automatic = false;         ///< training.num_threads was "auto"
  int max_threads = 1;            ///< auto: the largest candidate
  bool limited_by_omp = false;    ///< auto: OMP_NUM_THREADS was set and gave max_threads
  std::vector<ThreadRate> rates;  ///< auto: the candidates measured (empty: one candidate)
};
/// English description for progress lines and the device panel, e.g.
/// "1 thread (auto: 1 = 66k/s, 2 = 11k/s)", "2 threads", "1 thread (auto: 1 core available)",
/// "1 thread (auto: 1 = 40k-66k/s, 2 = 11k/s; rates varied over 20% between rounds (other
/// programs or warm-up): an uncertain choice)" (a candidate's range where its rounds spread
/// over 20%),
/// "2 threads (auto: 1 = 30k/s, 2 = 50k/s; OMP_NUM_THREADS=2 is the largest candidate)".
std::string describeThreads(const ThreadChoice& choice);
/// The part in parentheses of describeThreads (empty for an explicit count).
std::string describeThreadDetail(const ThreadChoice& choice);
/// A rate in samples/s, short: "860/s", "66k/s", "1.2M/s".
std::string formatRate(double samples_per_second);

/// The facts of a run, sent once to observers when it has prepared its data and model, before
/// the first step; run.json holds those marked (run.json) (toJson / runInfoFromJson,
/// core/run/run_description.h), so a finished run reads back into the same value.
struct RunInfo {
  std::string run_dir;         ///< empty when the run writes no files
  int64_t seed = 0;            ///< the training seed (drawn when the config had null) (run.json)
  std::string device;          ///< "cpu", "cuda:0" (run.json)
  int num_threads = 1;         ///< intra-op threads of the training thread (run.json)
  ThreadChoice thread_choice;  ///< how num_threads was chosen, the measured rates (run.json)
  std::string torch_version;   ///< libtorch's version (run.json)
  /// The machine and the start (run.json): TrainScope's version, CUDA available, the CPU's
  /// name, the BLAS library, the local start time (ISO 8601) and the host name.
  std::string trainscope_version;
  bool cuda_available = false;
  std::string cpu, blas_library, start_time, host;
  std::string front_end;     ///< "cli" | "gui" | "test" (run.json)
  std::string command_line;  ///< (run.json)
  int64_t epochs = 0;
  int64_t batches_per_epoch = 0;
  int64_t batch_size = 0;
  int64_t grad_accum_steps = 1;  ///< micro-batches per optimizer step
  bool drop_last = false;        ///< training.drop_last: a smaller last batch is left out
  /// Data parallel: ranks training together (1: a single process); every rank steps alike.
  /// run.json `distributed`: {"world_size", "backend", "hosts"} (hosts in rank order), written
  /// when world_size > 1.
  int world_size = 1;
  std::string backend;
  /// training.class_weights as used, one per class (balanced: as computed); empty for none
  /// (run.json class_weights).
  std::vector<double> class_weights;
  std::string sampler = "random";  ///< data.sampler (run.json sampler)
  int64_t data_workers = 0;  ///< loader threads (data.workers as chosen; run.json loader.workers)
  int64_t prefetch = 2;      ///< batches ahead per worker (run.json loader.prefetch)
  std::vector<std::string> hosts;
  /// batch_size x grad_accum_steps x world_size: samples per optimizer step (the global batch)
  int64_t effective_batch_size = 0;
  bool amp = false;            ///< training.amp at the start
  std::string amp_kind;        ///< "bf16 autocast" | "fp16 autocast with loss scaling"
  bool deterministic = false;  ///< training.deterministic
  /// teaching.mistakes: the bugs injected on purpose (run.json `teaching_mistakes`, written
  /// when not empty); a front end shows them while the run is on screen.
  std::vector<std::string> mistakes;
  /// Estimated memory of the run on the CPU (parameters, gradients, optimizer state, one
  /// batch's activations, data), bytes; 0 when not estimated.
  int64_t memory_estimate_bytes = 0;
  DataSummary data;         ///< (run.json)
  ModelSummary model;       ///< (run.json)
  std::string config_json;  ///< the resolved config (seed filled in; config.json)
  /// Resumed runs: the checkpoint file (absolute), else empty (run.json `resumed_from`:
  /// {"file", "step"}, step = start_step).
  std::string resumed_from;
  /// Runs started from imported weights (TrainerOptions::init_weights): the file (absolute),
  /// else empty; the form it held ("state_dict" | "model_state_dict" |
  /// "trainscope_checkpoint") and its tensor count (run.json `init_weights`: {"file", "form",
  /// "tensors"}).
  std::string init_weights;
  std::string init_weights_form;
  int64_t init_weights_tensors = 0;
  int64_t start_step = 0;   ///< global step the run starts from (the checkpoint's; else 0)
  int64_t start_epoch = 0;  ///< epochs completed at the start (the checkpoint's; else 0)
  /// Completed epochs restored from the checkpoint, in order, so front ends redraw the curves
  /// (empty for a new run). Step rows before start_step are in the source run's steps.csv.
  std::vector<EpochRecord> history;
};

/// The end state of a run (summary.json).
struct RunSummary {
  StopReason stop_reason = StopReason::Completed;
  int64_t epochs_completed = 0;
  int64_t global_step = 0;
  int64_t best_epoch = 0;  ///< epoch of the lowest val_loss, 0 when none
  std::optional<double> best_val_loss;
  std::optional<EpochRecord> final_metrics;
  /// Test split metrics (when there is a test split) of the weights `test_weights` names:
  /// "best" (checkpoints/best.pt's, the epoch of lowest validation loss: `test_epoch`) when the
  /// run kept a best checkpoint, else "last" (the final weights). summary.json "test_loss",
  /// "test_accuracy", "test_weights", "test_epoch".
  std::optional<double> test_loss, test_accuracy;
  std::string test_weights;
  int64_t test_epoch = 0;
  /// The final weights' test metrics where test_weights is "best" and the last epoch is another
  /// (summary.json "last_test_loss", "last_test_accuracy").
  std::optional<double> last_test_loss, last_test_accuracy;
  double wall_seconds = 0;
  int64_t seed = 0;
  std::string error;                   ///< English detail when stop_reason is Error
  int64_t skipped_steps = 0;           ///< steps not applied (non-finite loss or gradient)
  std::optional<Diagnosis> diagnosis;  ///< the loss doctor's last reading (summary.json)
  /// Checkpoint saves that failed (disk full, permissions), automatic and requested; the
  /// last failure's message. summary.json "checkpoints_failed", "checkpoint_error".
  int64_t checkpoints_failed = 0;
  std::string checkpoint_error;
  /// False when the run's last automatic save (its final state, checkpoints/last.pt) failed:
  /// the run cannot be resumed from where it ended. summary.json "final_state_saved".
  bool final_state_saved = true;
};

}  // namespace trainscope

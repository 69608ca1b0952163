#pragma once
/// Evaluating a checkpoint without training (`trainscope-cli evaluate`, the dashboard's
/// Evaluate): its model on its own data or on other data of the same shape, with the
/// preprocessing the checkpoint recorded. Torch-free.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/config/train_config.h"
#include "core/run/class_metrics.h"

namespace trainscope {

/// What to evaluate.
struct EvaluationRequest {
  std::filesystem::path checkpoint;
  /// Other data to evaluate on (a config's data section); nullopt = the checkpoint's own.
  std::optional<DataConfig> data;
  std::string split = "val";  ///< train | val | test
  int64_t batch_size = 1024;  ///< samples per forward pass (the result does not depend on it)
  /// The checkpoint's own data whose files changed since its run read them (size or SHA-256,
  /// core/data/data_fingerprint.h): refused (Error(Data, file)) unless this is set; then the
  /// changes are EvaluationResult::warnings. Other data (`data`) is not compared.
  bool allow_changed_data = false;
};

/// One class's support, precision, recall, F1, average precision and ROC AUC
/// (core/run/class_metrics.h: sklearn's classification_report and the areas under its
/// one-vs-rest curves on the softmax scores; the curves themselves are left empty here), named.
struct ClassMetrics : ClassReport {
  std::string name;
};

/// The result of evaluateCheckpoint.
struct EvaluationResult {
  std::string checkpoint;  ///< absolute path
  std::string split;
  std::string task;        ///< classification | regression
  int64_t samples = 0;
  double loss = 0;  ///< mean cross-entropy (classification) or mean squared error, per sample,
                    ///< as the run's val_loss
  std::optional<double> accuracy;  ///< classification only
  /// Regression only: R^2 (sklearn's r2_score), MAE and RMSE in target units (data.target_scale
  /// undone), as metrics.csv's val_r2, val_mae, val_rmse.
  std::optional<double> r2, mae, rmse;
  std::vector<ClassMetrics> classes;
  /// confusion[true][predicted]: sample counts (classification; rows and columns in class order).
  std::vector<std::vector<int64_t>> confusion;
  /// Per sample, in split order: the predicted class (classification) ...
  std::vector<int64_t> predicted_class;
  /// ... its softmax probabilities (classification, [samples * classes] row-major, the float32
  /// values widened) and its true class ...
  std::vector<double> scores;
  std::vector<int64_t> true_class;
  /// ... or the model's outputs (regression, [samples * outputs] row-major, in target units).
  std::vector<double> predicted_value;
  /// ... and the true targets in the same layout (regression).
  std::vector<double> target_value;
  /// Per sample, its number in the source (split.json's numbering); empty for a split that is a
  /// file of its own (its rows in order).
  std::vector<int64_t> sample_index;
  /// English sentences: the data files that changed since the run (allow_changed_data).
  std::vector<std::string> warnings;
};

/// Loads the checkpoint's config and model weights, the data (`request.data`, or the
/// checkpoint's data section) without standardisation, applies the checkpoint's recorded
/// preprocessing (its `data` part), and evaluates `request.split` in eval mode. Throws
/// Error(Checkpoint, file) for an unreadable checkpoint, Error(Data, file) for unreadable data,
/// Error(Config, "--split") for a split the data does not have, and Error(Data, ...) when the
/// data's input shape, task or classes differ from the checkpoint's.
EvaluationResult evaluateCheckpoint(const EvaluationRequest& request);

}  // namespace trainscope

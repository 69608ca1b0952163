#pragma once
/// The import report: what a data config gives before anything trains (`trainscope-cli data`,
/// the dashboard's Data section): sizes, shape, task, classes with counts, the warnings good
/// tools give, the first rows, the memory. Torch-free.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/data/data_summary.h"

namespace trainscope {

/// Samples of one class in each split.
struct ClassCount {
  std::string name;
  int64_t train = 0, val = 0, test = 0;
};

/// One of DataReport::warnings as facts, so front ends can word it in their language.
struct ReportWarning {
  /// few_samples | no_val_samples | imbalance | duplicates | leakage | constant_features
  std::string kind;
  std::string name;   ///< the class (few_samples, no_val_samples) or the features' list
  int64_t count = 0;  ///< training samples of the class, repeated or leaked samples, features
  double ratio = 0;   ///< imbalance: largest / smallest training class
};

/// What dataReport finds.
struct DataReport {
  DataSummary summary;  ///< sizes, shapes, task, class and feature names
  std::string files;    ///< the file or folder read (empty for generated data)
  /// "per_feature" | "per_channel" | "global" | "none": what training will standardise (statistics of
  /// the training split).
  std::string standardize;
  std::vector<ClassCount> classes;  ///< classification only, in class order
  /// The first training samples (up to 5) of tabular data, raw (before standardisation):
  /// features then the target (class name or value).
  std::vector<std::vector<std::string>> first_rows;
  /// Image data stored as uint8: the first training images of each class (up to
  /// kImagesPerClass, classes in order; regression: the first ones), pixels [C*H*W] as
  /// summary.image_shape says, with their class index (-1 for regression). Not in the JSON.
  std::vector<std::pair<int64_t, std::vector<uint8_t>>> first_images;
  int64_t bytes = 0;  ///< memory of all splits' tensors as training holds them
  /// Problems worth a look that do not stop training, one English sentence each: a class
  /// with very few samples, imbalance above 10:1, duplicate samples, validation samples that
  /// also occur in training, a constant feature.
  std::vector<std::string> warnings;
  std::vector<ReportWarning> warning_facts;  ///< the same warnings as facts, in the same order
  /// What the source did on its own: rows dropped, files skipped.
  std::vector<std::string> notes;
};

/// Loads the data of `config` as a run would (same split) and reports it. Throws what
/// loadData throws (Error(Data, file) naming file and row/column; Error(Config, key)).
DataReport dataReport(const DataConfig& config);

struct PreparedData;
/// The report's warnings alone (warnings and warning_facts: class counts, duplicates and
/// leakage, constant features) for data already loaded; the other fields stay empty. O(n log n)
/// in the training samples (exact byte comparisons).
DataReport dataWarnings(const PreparedData& data);

/// Images per class in DataReport::first_images.
inline constexpr int64_t kImagesPerClass = 4;
/// A class with fewer training samples than this is warned about.
inline constexpr int64_t kFewSamples = 10;
/// Largest / smallest class count above this is warned about.
inline constexpr double kImbalanceRatio = 10.0;

/// The report as JSON (`trainscope-cli data --json`): the fields above by name.
nlohmann::json toJson(const DataReport& report);
/// The report as English text (`trainscope-cli data`): a bar per class.
std::string describe(const DataReport& report);

}  // namespace trainscope

#pragma once
/// What a run's data is, as plain values: the preprocessing, the files read and the summary
/// (run.json `data`, the checkpoint's `data`). Torch-free.
#include <cstdint>
#include <string>
#include <vector>

namespace trainscope {

/// What turns a split's stored x into the model's input (run.json `data.preprocessing`, the
/// checkpoint's `data`.`preprocessing`), so a model can be evaluated outside TrainScope with the
/// same numbers: input = (x / pixel_scale - mean) / std, with mean and std per feature
/// ("per_feature": one value per input, tabular data), one per channel ("per_channel":
/// images), or x / pixel_scale alone ("none"). Regression targets were multiplied by
/// target_scale (data.target_scale) before training.
struct Preprocessing {
  double pixel_scale = 1;            ///< uint8 x: 255 (pixels to 0..1); float32 x: 1
  /// "none" | "per_feature" | "per_channel" (one-channel images) | "global" (one mean and std
  /// over all pixels of all channels: RGB images)
  std::string standardize = "none";
  std::vector<double> mean, std;     ///< in units of x / pixel_scale; empty for "none"
  double target_scale = 1;           ///< regression only; 1 for classification
  /// Image folders resized to data.image_folder.size: how (data.image_folder.resize,
  /// "bilinear" = torchvision's Resize with antialiasing); empty when nothing was resized.
  std::string resize;
};

/// A data file (or image folder) a run read, fingerprinted so that `evaluate`, `train --resume`
/// and `train --replay` notice when it changed since: run.json `data.files`, the
/// checkpoint's `data.files`, split.json `data_files`, each entry {"key", "path", "size",
/// "mtime_ns", "sha256"} (core/data/data_fingerprint.h).
struct DataFile {
  std::string key;   ///< the config key that named it ("data.csv.path"; fashion-mnist:
                     ///< "data.path/train-images-idx3-ubyte.gz"; image folders: the split folder's key)
  std::string path;  ///< absolute
  int64_t size = 0;  ///< bytes (image folders: the number of images listed)
  int64_t mtime_ns = 0;  ///< modification time, nanoseconds since the epoch (informative only)
  /// Lower-case hex SHA-256 of the file's bytes; image folders: "listing:" and the 16-hex-digit
  /// image cache key (every image's relative path, class, size and modification time).
  std::string sha256;
};

/// Sizes, shape, task and preprocessing of the data of a run.
struct DataSummary {
  std::string source;
  std::string task;                            ///< "regression" | "classification"
  int64_t n_train = 0, n_val = 0, n_test = 0;  ///< n_test 0 when there is no test set
  int64_t n_features = 0;                      ///< inputs per sample (784 for 28x28 images)
  /// One sample's shape as the model takes it: a split's x is [N, input_shape...] ([784] for
  /// Fashion-MNIST and an MLP; [2] for moons).
  std::vector<int64_t> input_shape;
  /// Image data: one image's [C, H, W] ([1, 28, 28] for Fashion-MNIST; its x holds the pixels
  /// row by row, channel by channel); empty for other data.
  std::vector<int64_t> image_shape;
  std::string x_dtype;    ///< how x is stored: "uint8" (raw pixels) | "float32"
  int64_t n_classes = 0;  ///< 0 for regression
  int64_t outputs = 0;    ///< model outputs: n_classes (classification) or targets per sample
  std::vector<std::string> class_names;
  /// Tabular data: the name of each input feature, in x's column order (CSV: the header cells;
  /// one-hot columns "<column>=<category>"); empty for other data.
  std::vector<std::string> feature_names;
  Preprocessing preprocessing;
  /// Every data file the run read (empty for generated data and runs written before).
  std::vector<DataFile> files;
  /// The random transforms of data.augment, as torchvision expressions in the order applied
  /// ("T.RandomHorizontalFlip(p=0.5)"; run.json data.augmentation.transforms); empty: none.
  std::vector<std::string> augmentation;
  /// The splits they were applied to (data.augmentation.applied_to): ["train"], or with
  /// teaching mistake augment_validation ["train", "val"]; empty when there are none.
  std::vector<std::string> augmented_splits;
};

}  // namespace trainscope

#pragma once
/// The built-in data sources' loaders (rows of core/config/kinds.h dataSources()) and the
/// seeded generator streams every source and the split draw from. Torch types: internal to
/// core/data.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <optional>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/data/dataset.h"

namespace trainscope {

/// What a source loads: the whole pool (split later into train/val by data.val_fraction) and,
/// where the source has a fixed one, the test split; class names for classification.
struct SourceData {
  TensorPair pool;
  TensorPair val;   ///< a fixed validation split (a file of its own); empty = split the pool
  TensorPair test;
  std::vector<std::string> class_names;
  std::vector<int64_t> image_shape;  ///< image data: one image's [C, H, W]; empty otherwise
  /// Set by sources whose task depends on the data (csv, npy); else the registry row's.
  std::optional<bool> classification;
  /// Tabular data: the name of each input feature (x's columns), for reports and run.json.
  std::vector<std::string> feature_names;
  /// Where the pool's samples come from, for split.json: the source's own sample numbers of the
  /// pool's rows (int64 [N]; undefined = 0..N-1), e.g. the CSV data rows left after dropping
  /// rows with missing values.
  at::Tensor pool_rows;
  /// The files the pool / val / test samples were read from (empty for generated data).
  std::string pool_file, val_file, test_file;
  /// Image folders: each split folder's fingerprint (its image cache key; DataFile); the
  /// files of other sources are fingerprinted from the config (dataFilesOf).
  std::vector<DataFile> folders;
  /// Sample names of the pool (image files relative to the root; empty for other sources).
  std::vector<std::string> pool_names;
  /// What the import report lists: rows dropped, files skipped ... (English, one line each).
  std::vector<std::string> notes;
};

/// `config` with every file and folder path of the data (data.path, data.<source>.*path) made
/// absolute against the current directory, so config.json names them wherever it is read.
DataConfig withAbsolutePaths(DataConfig config);

/// Independent generator streams derived from data.seed (never the global torch generator, so
/// the data does not depend on, or disturb, model initialisation).
enum DataStream : uint64_t { kGenerateStream = 0, kLimitStream = 1, kSplitStream = 2 };

/// The CPU generator of `stream` for data.seed `seed`.
at::Generator dataGenerator(int64_t seed, DataStream stream);

/// "sine": y = sin(x) + noise * N(0, 1), x ~ U(-pi, pi); float32 x [n, 1], y [n, 1].
void loadSineSource(const DataConfig& config, SourceData& out);
/// "moons": sklearn.datasets.make_moons's construction; float32 x [n, 2], int64 y [n].
void loadMoonsSource(const DataConfig& config, SourceData& out);
/// "circles": sklearn.datasets.make_circles (factor 0.5); float32 x [n, 2], int64 y [n].
void loadCirclesSource(const DataConfig& config, SourceData& out);
/// "spirals": two interleaved spirals; float32 x [n, 2], int64 y [n].
void loadSpiralsSource(const DataConfig& config, SourceData& out);
/// "fashion-mnist": train and t10k IDX files of data.path (default kFashionMnistDir); uint8
/// x [n, 784] (x_scale 255), int64 y [n], image_shape [1, rows, cols]. Throws Error(Data, file) for missing or malformed
/// files and for test images of another size than the training images.
void loadFashionMnistSource(const DataConfig& config, SourceData& out);

}  // namespace trainscope

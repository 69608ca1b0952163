#pragma once
/// Datasets as in-memory tensors: synthetic sine and moons, Fashion-MNIST from IDX .gz files;
/// limit, seeded train/validation split, standardisation, seeded shuffled batching.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/data/default_paths.h"  // kFashionMnistDir
#include "core/data/data_summary.h"

namespace trainscope {

namespace augment {
class Augmentation;
}
struct FileRows;

/// Inputs and targets of one split. x: float32 [N, input_shape...] model inputs, or uint8
/// [N, input_shape...] raw pixels (images, kept compact: 1 byte a pixel instead of 4) that
/// inputs() converts per batch (DataSummary::input_shape, x_dtype and preprocessing describe
/// it). y: float32 [N, outputs] (regression) or int64 [N] class indices (classification).
struct TensorPair {
  at::Tensor x;
  at::Tensor y;
  /// uint8 x only: the model input is (float(x) - x_offset) / x_scale (for pixels /255 and the
  /// standardisation folded into one subtraction and one division).
  double x_offset = 0;
  double x_scale = 1;
  /// Data larger than memory (data.memory_map; core/data/file_rows.h): x is a meta tensor
  /// (shape and dtype, no storage) of all rows of a file left on disk, which only `on_disk`
  /// reads (positioned reads, nothing resident); this split holds the file's rows `index`
  /// (int64 [n], in the split's order: y[i] is the target of row index[i]). Null and undefined
  /// for data in memory. Read rows with raw(), never through x.
  std::shared_ptr<const FileRows> on_disk;
  at::Tensor index;
  /// On-disk float32 x standardised per feature as rows are read: (x - mean) / std, float32
  /// [1, F] (data in memory is standardised in place instead); undefined: none.
  at::Tensor feature_mean, feature_std;

  int64_t size() const { return index.defined() ? index.numel() : x.defined() ? x.size(0) : 0; }
  /// Rows [start, start + len) as stored (uint8 or float32 [len, ...], x's sample shape): a view
  /// of x in memory, a copy read from the file when on disk.
  at::Tensor raw(int64_t start, int64_t len) const;
  /// The rows at positions `idx` (int64 [B]) as stored, a copy.
  at::Tensor raw(const at::Tensor& idx) const;
  /// The rows at positions `idx` as a TensorPair of the same storage (uint8 stays uint8; a
  /// split on disk stays on disk, its index and y selected).
  TensorPair take(const at::Tensor& idx) const;
  /// Bytes this split holds in memory (a split on disk: its targets and index only).
  int64_t residentBytes() const;
  /// Model inputs of rows [start, start + len): float32 [len, F] (converted here when x is
  /// uint8; a view of x otherwise).
  at::Tensor inputs(int64_t start, int64_t len) const;
  /// All model inputs, float32 [N, F] (a full float copy when x is uint8: for tests and small
  /// data; training and evaluation convert per batch).
  at::Tensor inputs() const { return inputs(0, size()); }
  /// Rows [start, start + len) as model-ready data (float32 x).
  TensorPair rows(int64_t start, int64_t len) const;
  /// The rows `idx` (int64 [B]) as model-ready data (float32 x).
  TensorPair select(const at::Tensor& idx) const;
  /// Float32 model inputs for raw rows `raw` of x (uint8 or float32).
  at::Tensor toInputs(const at::Tensor& raw) const;
};

/// Which of the source's samples each split holds (split.json): sample numbers of the source's
/// pool (CSV: data rows of the training table, 0-based, header excluded; images: the files of
/// pool_names; generated: the generation order), before data.limit and the split.
struct SplitIndices {
  at::Tensor train;  ///< int64 [n_train], in the order of PreparedData::train
  at::Tensor val;    ///< int64 [n_val]; undefined when the validation split is a file of its own
  std::string pool_file, val_file, test_file;  ///< the files read (empty for generated data)
  std::vector<std::string> pool_names;         ///< image files relative to the source's root
};

/// A prepared dataset: splits standardised with training-split statistics (images: stored as
/// uint8 with the statistics in x_offset/x_scale, applied per batch).
struct PreparedData {
  TensorPair train, val, test;  ///< test is empty (size 0) when the source has no test set
  /// Sizes, input shape, task, outputs and the preprocessing applied (summary.preprocessing:
  /// tabular data standardised per feature gives raw = input * std + mean, the model view's
  /// raw coordinates).
  DataSummary summary;
  bool classification = false;
  SplitIndices split;
  std::vector<std::string> notes;  ///< the source's notes for the import report (rows dropped...)
};

/// Builds the dataset described by `config` (ARCHITECTURE §6): generate or read the pool, take
/// `limit` samples after a shuffle seeded by data.seed, split train/val with data.seed (never
/// the global torch generator), standardise from training statistics (features with
/// std < 1e-8 keep std 1; targets untouched). Throws Error(Config) for bad data.* values and
/// Error(Data, file) for missing or corrupt files.
PreparedData loadData(const DataConfig& config);

/// Applies recorded preprocessing `pre` (a checkpoint's or run.json's) to data loaded with
/// data.standardize false: float32 x becomes (x / pixel_scale - mean) / std per feature; uint8
/// x gets x_offset = mean * pixel_scale and x_scale = std * pixel_scale (one channel value).
/// Sets data.summary.preprocessing to `pre`. Throws Error(Data, "preprocessing") when the
/// statistics do not fit the data's features.
void applyPreprocessing(PreparedData& data, const Preprocessing& pre);

/// Seeded split of `n` indices: returns {train_indices, val_indices} (int64, disjoint, covering
/// 0..n-1). val count = round(n * val_fraction), at least 1 when n >= 2 and val_fraction > 0.
std::pair<at::Tensor, at::Tensor> splitIndices(int64_t n, double val_fraction, uint64_t seed);

/// Stratified seeded split (data.stratify, as sklearn's train_test_split(stratify=y)): class
/// labels `y` (int64 [n]); each class with n_c samples gives round(n_c * val_fraction) to
/// validation, at least 1 and at most n_c - 1 when n_c >= 2 (a class of one sample trains).
/// Returns {train_indices, val_indices}, each in a seeded random order.
std::pair<at::Tensor, at::Tensor> stratifiedSplitIndices(const at::Tensor& y, double val_fraction,
                                                         uint64_t seed);

/// Iterates a split in batches. Each epoch draws a permutation from `generator` (the shuffle
/// generator, seeded from the training seed); the last partial batch is kept (no drop_last).
/// With an augmentation, each batch's images are transformed as torchvision's ToTensor,
/// the random transforms and Normalize would, drawing from the batch's own generator.
class BatchIterator {
 public:
  /// `drop_last`: DataLoader's drop_last=True, a smaller last batch is left out.
  BatchIterator(const TensorPair& data, int64_t batch_size, bool shuffle, bool drop_last = false);
  /// Data parallel: from the next startEpoch on, iterate only the samples rank `rank` of
  /// `world_size` takes from each epoch's order, as torch.utils.data.DistributedSampler does
  /// (core/data/distributed_sampler.h). Every rank must draw from an identical generator.
  void setShard(int64_t rank, int64_t world_size);
  /// Training images (uint8 x): every batch goes through `aug` with the generator
  /// augment::batchGenerator(seed, epoch, rank, batch index), so a batch is the same at any
  /// worker count and after a resume, and differs between epochs. Throws Error(Config,
  /// "data.augment") when x is not uint8 pixels.
  void setAugmentation(std::shared_ptr<const augment::Augmentation> aug, uint64_t seed);
  /// data.sampler "weighted": each epoch's order is `n` draws with replacement from
  /// `weights` (float64 [n], one per sample), torch.multinomial as
  /// torch.utils.data.WeightedRandomSampler draws them, from the shuffle generator.
  void setSampleWeights(at::Tensor weights) { sample_weights_ = std::move(weights); }
  /// Starts epoch `epoch` (1-based; it seeds the augmentation): draws a fresh permutation
  /// when shuffling (then shards it).
  void startEpoch(at::Generator& generator, int64_t epoch = 1);
  /// Starts epoch `epoch` of an iterator that draws nothing (no shuffle, no sample weights):
  /// validation and dry-run batches. Throws Error(Internal) for one that would draw.
  void startEpoch(int64_t epoch);
  int64_t batchesPerEpoch() const;
  /// Batch `i` (0-based) of the current epoch: {x [B, F], y [B] or [B, 1]}.
  TensorPair batch(int64_t i) const;

 private:
  TensorPair data_;
  int64_t batch_size_;
  bool shuffle_;
  bool drop_last_;
  at::Tensor order_;
  int64_t rank_ = 0, world_size_ = 1;
  std::shared_ptr<const augment::Augmentation> aug_;
  at::Tensor sample_weights_;
  uint64_t aug_seed_ = 0;
  int64_t epoch_ = 1;
  int64_t size() const;
};

}  // namespace trainscope

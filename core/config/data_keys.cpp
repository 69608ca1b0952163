// The data.* sections of the config key table (core/config/key_table.h): where samples come
// from, the source's own keys, and the training images' augmentation.
#include "core/config/key_table.h"

#include "core/config/kinds.h"

namespace trainscope::config_keys {

const std::vector<Key<DataConfig>>& dataKeys() {
  using K = Key<DataConfig>;
  static const std::vector<K> keys = {
      K("source", &DataConfig::source, "where samples come from")
          .oneOf(dataSourceNames()),
      K("path", &DataConfig::path,
        "fashion-mnist only: folder of its IDX .gz files (null: the Debian package's, "
        "/usr/share/datasets/fashion-mnist)"),
      K("seed", &DataConfig::seed, "generates synthetic data, draws limit and split")
          .atLeast(0)
          .atMost(kMaxSeedD),
      K("n_samples", &DataConfig::n_samples, "samples of a synthetic source")
          .atLeast(2)
          .atMost(10'000'000),
      K("noise", &DataConfig::noise, "std of the Gaussian noise of a synthetic source").atLeast(0),
      K("seq_len", &DataConfig::seq_len,
        "time steps of each sample of a sequence source (sine-sequence: x [seq_len, 1])")
          .atLeast(1)
          .atMost(100'000),
      K("val_fraction", &DataConfig::val_fraction, "fraction held out for validation")
          .above(0)
          .below(1),
      K("limit", &DataConfig::limit, "take N samples of the pool before the split (null: all)")
          .atLeast(2)
          .atMost(static_cast<double>(int64_t{1} << 40)),
      K("standardize", &DataConfig::standardize, "z-score inputs with training statistics"),
      K("workers", &DataConfig::workers,
        "threads that make training batches (decode, augment) ahead of the training thread, "
        "or \"auto\" (0 without augmentation, else up to 4); 0: on the training thread")
          .nullWord("auto")
          .atLeast(0)
          .atMost(64),
      K("prefetch", &DataConfig::prefetch,
        "training batches each worker makes ahead (DataLoader's prefetch_factor)")
          .atLeast(1)
          .atMost(64),
      K("memory_map", &DataConfig::memory_map,
        "leave an .npy of inputs (uint8 images, float32 features) or an image folder's "
        "decoded cache on disk, reading rows as batches ask, instead of reading it into "
        "memory (always; false: only when larger than data.in_memory_limit)"),
      K("in_memory_limit", &DataConfig::in_memory_limit,
        "bytes of inputs read into memory at most; larger data stays on disk (as "
        "data.memory_map), or \"auto\" (half the memory available at load)")
          .nullWord("auto")
          .atLeast(1 << 20)
          .atMost(static_cast<double>(int64_t{1} << 50)),
      K("sampler", &DataConfig::sampler,
        "classification: each epoch's training order, random (a permutation) or weighted "
        "(WeightedRandomSampler: classes drawn equally often, with replacement)")
          .oneOf({"random", "weighted"}),
      K("stratify", &DataConfig::stratify,
        "classification: split train/validation per class (each class keeps val_fraction of "
        "its samples in validation)"),
      K("target_scale", &DataConfig::target_scale,
        "regression: multiply the targets by this (large values make gradients explode)")
          .above(0)
          .atMost(1e6),
  };
  return keys;
}

const std::vector<Key<CsvConfig>>& csvKeys() {
  using K = Key<CsvConfig>;
  static const std::vector<K> keys = {
      K("path", &CsvConfig::path, "csv: the training table (a CSV file)"),
      K("target", &CsvConfig::target,
        "csv: the target column, by header name or 0-based index (negative: from the end; null: "
        "the last column)"),
      K("header", &CsvConfig::header,
        "csv: is the first row a header (auto: when none of its cells is a number, when one is "
        "a word over a column of numbers, or when Python's csv.Sniffer would say so, text "
        "lengths counted)")
          .oneOf({"auto", "yes", "no"}),
      K("delimiter", &CsvConfig::delimiter,
        "csv: the cell separator (auto: whichever of , ; tab splits the first lines evenly)")
          .oneOf({"auto", ",", ";", "\t", "tab"}),
      K("task", &CsvConfig::task,
        "csv: auto (text or at most 20 distinct whole numbers: classification; else "
        "regression), classification or regression")
          .oneOf({"auto", "classification", "regression"}),
      K("missing", &CsvConfig::missing, "csv: cells that mean missing, besides an empty cell"),
      K("on_missing", &CsvConfig::on_missing,
        "csv: a missing value in a used column is an error (naming row and column) or drops its "
        "row")
          .oneOf({"error", "drop_row"}),
      K("features", &CsvConfig::features,
        "csv: the feature columns by name (empty: every column but the target and excluded)"),
      K("exclude", &CsvConfig::exclude, "csv: columns to leave out (ids, free text)"),
      K("categorical", &CsvConfig::categorical,
        "csv: a feature column holding text is an error or is one-hot encoded (categories "
        "sorted)")
          .oneOf({"error", "one_hot"}),
      K("val_path", &CsvConfig::val_path,
        "csv: a validation table with the same columns (null: data.val_fraction of the training "
        "table, seeded)"),
      K("test_path", &CsvConfig::test_path, "csv: a test table with the same columns"),
  };
  return keys;
}

const std::vector<Key<ImageFolderConfig>>& imageFolderKeys() {
  using K = Key<ImageFolderConfig>;
  static const std::vector<K> keys = {
      K("path", &ImageFolderConfig::path,
        "image-folder: the root, root/<class>/<image> (or root/train/<class>/... beside val/ "
        "and test/)"),
      K("size", &ImageFolderConfig::size,
        "image-folder: [height, width] every image is resized to (empty: the first image's "
        "size, which all must have)")
          .atLeast(1)
          .atMost(4096),
      K("channels", &ImageFolderConfig::channels, "image-folder: 1 (grayscale) or 3 (RGB)")
          .atLeast(1)
          .atMost(3),
      K("resize", &ImageFolderConfig::resize,
        "image-folder: how images are resized to size: bilinear (antialiased, as torchvision's "
        "Resize), nearest, bicubic (antialiased) or area")
          .oneOf({"bilinear", "nearest", "bicubic", "area"}),
  };
  return keys;
}

const std::vector<Key<NpyConfig>>& npyKeys() {
  using K = Key<NpyConfig>;
  static const std::vector<K> keys = {
      K("path", &NpyConfig::path, "npy: an .npz file, or the .npy file of the inputs"),
      K("y_path", &NpyConfig::y_path, "npy: the .npy file of the targets (with an .npy path)"),
      K("x", &NpyConfig::x,
        "npy: the .npz array of the inputs (arrays <x>_val, <y>_val and <x>_test, <y>_test "
        "beside it: the validation and test splits)"),
      K("y", &NpyConfig::y, "npy: the .npz array of the targets"),
      K("task", &NpyConfig::task,
        "npy: auto (integer or bool targets: classification; float: regression), "
        "classification or regression")
          .oneOf({"auto", "classification", "regression"}),
  };
  return keys;
}

const std::vector<Key<IdxConfig>>& idxKeys() {
  using K = Key<IdxConfig>;
  static const std::vector<K> keys = {
      K("path", &IdxConfig::path,
        "idx: the IDX file of the inputs, plain or .gz (e.g. train-images-idx3-ubyte.gz)"),
      K("y_path", &IdxConfig::y_path,
        "idx: the IDX file of the labels or targets (e.g. train-labels-idx1-ubyte.gz)"),
      K("test_path", &IdxConfig::test_path, "idx: the IDX file of the test inputs (optional)"),
      K("test_y_path", &IdxConfig::test_y_path, "idx: the IDX file of the test labels"),
      K("task", &IdxConfig::task,
        "idx: auto (integer labels: classification; float: regression), classification or "
        "regression")
          .oneOf({"auto", "classification", "regression"}),
  };
  return keys;
}

const std::vector<Key<AugmentConfig>>& augmentKeys() {
  using K = Key<AugmentConfig>;
  static const std::vector<K> keys = {
      K("hflip", &AugmentConfig::hflip,
        "images, training only: probability of a horizontal flip (RandomHorizontalFlip(p))")
          .atLeast(0)
          .atMost(1),
      K("crop_padding", &AugmentConfig::crop_padding,
        "images, training only: pad by this many pixels, then crop back to the image size at a "
        "random place (RandomCrop(size, padding)); 0: off; less than the images' height and "
        "width")
          .atLeast(0)
          .atMost(4096),
      K("random_resized_crop", &AugmentConfig::random_resized_crop,
        "images, training only: crop a random area and aspect ratio and resize it back "
        "(RandomResizedCrop(size, scale, ratio), bilinear, antialiased)"),
      K("scale", &AugmentConfig::scale,
        "random_resized_crop: [min, max] fraction of the image's area a crop takes")
          .above(0)
          .atMost(1),
      K("ratio", &AugmentConfig::ratio,
        "random_resized_crop: [min, max] aspect ratio (width / height) of a crop")
          .above(0)
          .atMost(100),
      K("color_jitter", &AugmentConfig::color_jitter,
        "images, training only: [brightness, contrast, saturation, hue] strengths of "
        "ColorJitter (factors in [1 - v, 1 + v]; hue shifts in [-v, v], v <= 0.5); 0: off")
          .atLeast(0),
      K("rotation", &AugmentConfig::rotation,
        "images, training only: rotate by an angle uniform in [-rotation, rotation] degrees "
        "(RandomRotation(degrees))")
          .atLeast(0)
          .atMost(180),
  };
  return keys;
}

}  // namespace trainscope::config_keys

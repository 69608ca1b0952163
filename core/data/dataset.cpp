// Datasets: generation / reading, limit, split, standardisation, batching.
#include "core/data/dataset.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <array>
#include <cmath>

#include "core/data/distributed_sampler.h"
#include "core/data/idx_reader.h"
#include "core/data/synthetic_2d.h"
#include "core/errors.h"

namespace trainscope {
namespace {

// Independent generator streams derived from data.seed (never the global torch generator, so
// the split does not depend on, or disturb, model initialisation).
enum Stream : uint64_t { kGenerate = 0, kLimit = 1, kSplit = 2 };

at::Generator dataGenerator(int64_t seed, Stream stream) {
  return at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(seed) * 1000003ULL +
                                                  stream * 7919ULL + 1);
}

const at::TensorOptions kF32 = at::TensorOptions().dtype(at::kFloat);

// y = sin(x) + noise * N(0, 1), x ~ U(-pi, pi).
TensorPair makeSine(const DataConfig& c) {
  at::Generator gen = dataGenerator(c.seed, kGenerate);
  at::Tensor x = at::rand({c.n_samples, 1}, gen, kF32) * (2 * M_PI) - M_PI;
  at::Tensor noise = at::randn({c.n_samples, 1}, gen, kF32) * c.noise;
  return {x, at::sin(x) + noise};
}

// Same construction as sklearn.datasets.make_moons: outer half circle (class 0), inner one
// shifted by (1, -0.5) (class 1), Gaussian noise of std `noise` on both coordinates.
TensorPair makeMoons(const DataConfig& c) {
  at::Generator gen = dataGenerator(c.seed, kGenerate);
  int64_t n_out = c.n_samples / 2, n_in = c.n_samples - n_out;
  at::Tensor t_out = at::linspace(0, M_PI, n_out, kF32);
  at::Tensor t_in = at::linspace(0, M_PI, n_in, kF32);
  at::Tensor outer = at::stack({at::cos(t_out), at::sin(t_out)}, 1);
  at::Tensor inner = at::stack({1 - at::cos(t_in), 1 - at::sin(t_in) - 0.5}, 1);
  at::Tensor x = at::cat({outer, inner}, 0);
  x = x + at::randn(x.sizes(), gen, kF32) * c.noise;
  at::Tensor y = at::cat({at::zeros({n_out}, at::kLong), at::ones({n_in}, at::kLong)});
  return {x, y};
}

/// "28x28": the shape of one image.
std::string imageShapeText(const std::vector<int64_t>& shape) {
  std::string s;
  for (int64_t d : shape) s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

/// Reads `<prefix>-images-idx3-ubyte.gz` and its labels; `image_shape` gets [rows, cols].
TensorPair readFashionMnist(const std::filesystem::path& dir, const std::string& prefix,
                            std::vector<int64_t>& image_shape) {
  auto read = [&](const std::string& name) {
    std::filesystem::path file = dir / name;
    try {
      return readIdxFile(file);
    } catch (const Error& e) {
      std::string hint =
          dir == kFashionMnistDir
              ? " (install the Debian package dataset-fashion-mnist, or set data.path)"
              : " (data.path is " + dir.string() + ")";
      throw Error(ErrorCode::Data, e.subject(), e.what() + hint);
    }
  };
  at::Tensor images = read(prefix + "-images-idx3-ubyte.gz");
  at::Tensor labels = read(prefix + "-labels-idx1-ubyte.gz");
  std::filesystem::path img_file = dir / (prefix + "-images-idx3-ubyte.gz");
  if (images.dim() != 3)
    throw Error(ErrorCode::Data, img_file.string(),
                "IDX file " + img_file.string() + ": expected 3 dimensions (N, rows, cols)");
  if (labels.dim() != 1 || labels.size(0) != images.size(0))
    throw Error(ErrorCode::Data, (dir / (prefix + "-labels-idx1-ubyte.gz")).string(),
                "labels file has " + std::to_string(labels.numel()) + " entries but " +
                    img_file.string() + " has " + std::to_string(images.size(0)) + " images");
  if (labels.max().item<int64_t>() > 9)
    throw Error(ErrorCode::Data, (dir / (prefix + "-labels-idx1-ubyte.gz")).string(),
                "labels out of range 0..9");
  image_shape = {images.size(1), images.size(2)};
  // Kept as uint8 (47 MB for the 60,000 training images instead of 188 MB as float32);
  // TensorPair::inputs converts per batch: x / 255 unless standardised.
  TensorPair out{images.reshape({images.size(0), -1}).contiguous(), labels.to(at::kLong)};
  out.x_scale = 255.0;
  return out;
}

/// Rows `idx` of `p`, in the storage of `p` (uint8 stays uint8).
TensorPair take(const TensorPair& p, const at::Tensor& idx) {
  TensorPair out = p;
  out.x = p.x.index_select(0, idx);
  out.y = p.y.index_select(0, idx);
  return out;
}

/// Mean and population std of all values of a uint8 tensor, from exact integer counts: the
/// same result whatever the thread count (a float reduction's order depends on it).
std::pair<double, double> byteMeanStd(const at::Tensor& bytes) {
  at::Tensor c = bytes.contiguous();
  const uint8_t* p = c.data_ptr<uint8_t>();
  const int64_t n = c.numel();
  std::array<int64_t, 256> counts{};
  for (int64_t i = 0; i < n; ++i) ++counts[p[i]];
  double sum = 0;
  for (int v = 0; v < 256; ++v) sum += static_cast<double>(counts[v]) * v;  // exact below 2^53
  const double mean = n > 0 ? sum / n : 0;
  double sq = 0;
  for (int v = 0; v < 256; ++v) sq += static_cast<double>(counts[v]) * (v - mean) * (v - mean);
  return {mean, n > 0 ? std::sqrt(sq / n) : 0};
}

}  // namespace

std::pair<at::Tensor, at::Tensor> splitIndices(int64_t n, double val_fraction, uint64_t seed) {
  at::Generator gen = dataGenerator(static_cast<int64_t>(seed), kSplit);
  at::Tensor perm = at::randperm(n, gen, at::TensorOptions().dtype(at::kLong));
  int64_t n_val = static_cast<int64_t>(std::llround(static_cast<double>(n) * val_fraction));
  if (n >= 2) n_val = std::clamp<int64_t>(n_val, 1, n - 1);
  return {perm.narrow(0, n_val, n - n_val), perm.narrow(0, 0, n_val)};
}

PreparedData loadData(const DataConfig& c) {
  PreparedData out;
  TensorPair pool;
  bool images = false;
  std::vector<std::string> class_names;
  if (c.source == "sine") {
    pool = makeSine(c);
  } else if (c.source == "moons") {
    pool = makeMoons(c);
    out.classification = true;
    class_names = {"upper moon", "lower moon"};
  } else if (c.source == "circles" || c.source == "spirals") {
    at::Generator gen = dataGenerator(c.seed, kGenerate);
    pool = c.source == "circles" ? makeCircles(c, gen) : makeSpirals(c, gen);
    out.classification = true;
    class_names = c.source == "circles" ? std::vector<std::string>{"outer circle", "inner circle"}
                                        : std::vector<std::string>{"spiral A", "spiral B"};
  } else if (c.source == "fashion-mnist") {
    std::filesystem::path dir = c.path ? std::filesystem::path(*c.path) : kFashionMnistDir;
    std::vector<int64_t> train_shape, test_shape;
    pool = readFashionMnist(dir, "train", train_shape);
    out.test = readFashionMnist(dir, "t10k", test_shape);
    if (test_shape != train_shape) {
      // Found here, not as a matrix-size error of the first test batch after training.
      const std::string train_file = (dir / "train-images-idx3-ubyte.gz").string();
      const std::string test_file = (dir / "t10k-images-idx3-ubyte.gz").string();
      throw Error(ErrorCode::Data, test_file,
                  "the test images in " + test_file + " are " + imageShapeText(test_shape) +
                      " but the training images in " + train_file + " are " +
                      imageShapeText(train_shape) + "; both splits must have the same image size");
    }
    out.classification = true;
    images = true;
    class_names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                   "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
  } else {
    throw Error(ErrorCode::Config, "data.source", "unknown data.source '" + c.source + "'");
  }

  if (!out.classification && c.target_scale != 1.0) pool.y = pool.y * c.target_scale;
  if (c.limit && *c.limit < pool.size()) {
    at::Generator gen = dataGenerator(c.seed, kLimit);
    at::Tensor idx = at::randperm(pool.size(), gen, at::TensorOptions().dtype(at::kLong));
    pool = take(pool, idx.narrow(0, 0, *c.limit));
  }
  if (pool.size() < 2)
    throw Error(ErrorCode::Config, "data.limit",
                "need at least 2 samples to split, got " + std::to_string(pool.size()));
  auto [train_idx, val_idx] = splitIndices(pool.size(), c.val_fraction, c.seed);
  out.train = take(pool, train_idx);
  out.val = take(pool, val_idx);

  if (c.standardize && images) {
    // One mean/std per channel (Fashion-MNIST has one channel), in pixel units (0..255): the
    // per-batch conversion (x - offset) / scale is then ((x / 255) - mean) / std.
    const auto [mean, sd] = byteMeanStd(out.train.x);
    for (TensorPair* p : {&out.train, &out.val, &out.test}) {
      p->x_offset = mean;
      p->x_scale = sd / 255.0 < 1e-8 ? 255.0 : sd;  // a constant image keeps std 1 (of x / 255)
    }
  } else if (c.standardize) {  // per feature, population std (as sklearn's StandardScaler)
    at::Tensor mean = out.train.x.mean(0, /*keepdim=*/true);
    at::Tensor std = out.train.x.std(0, /*unbiased=*/false, /*keepdim=*/true);
    std = at::where(std < 1e-8, at::ones_like(std), std);
    for (int64_t f = 0; f < mean.size(1); ++f) {
      out.feature_mean.push_back(mean[0][f].item<double>());
      out.feature_std.push_back(std[0][f].item<double>());
    }
    for (TensorPair* p : {&out.train, &out.val, &out.test})
      if (p->size() > 0) p->x = (p->x - mean) / std;
  }

  DataSummary& s = out.summary;
  s.source = c.source;
  s.task = out.classification ? "classification" : "regression";
  s.n_train = out.train.size();
  s.n_val = out.val.size();
  s.n_test = out.test.size();
  s.n_features = out.train.x.size(1);
  s.n_classes = static_cast<int64_t>(class_names.size());
  s.class_names = class_names;
  return out;
}

at::Tensor TensorPair::toInputs(const at::Tensor& raw) const {
  if (raw.scalar_type() != at::kByte) return raw;
  return raw.to(at::kFloat).sub_(x_offset).div_(x_scale);
}

at::Tensor TensorPair::inputs(int64_t start, int64_t len) const {
  return toInputs(x.narrow(0, start, len));
}

TensorPair TensorPair::rows(int64_t start, int64_t len) const {
  return {inputs(start, len), y.narrow(0, start, len)};
}

TensorPair TensorPair::select(const at::Tensor& idx) const {
  return {toInputs(x.index_select(0, idx)), y.index_select(0, idx)};
}

BatchIterator::BatchIterator(const TensorPair& data, int64_t batch_size, bool shuffle)
    : data_(data), batch_size_(batch_size), shuffle_(shuffle) {}

void BatchIterator::setShard(int64_t rank, int64_t world_size) {
  rank_ = rank;
  world_size_ = world_size;
}

void BatchIterator::startEpoch(at::Generator& generator) {
  if (shuffle_)
    order_ = at::randperm(data_.size(), generator, at::TensorOptions().dtype(at::kLong));
  if (world_size_ > 1 && data_.size() > 0)
    order_ = distributedSamplerIndices(
        shuffle_ ? order_ : at::arange(data_.size(), at::TensorOptions().dtype(at::kLong)), rank_,
        world_size_);
}

int64_t BatchIterator::size() const {
  return world_size_ > 1 ? (data_.size() + world_size_ - 1) / world_size_ : data_.size();
}

int64_t BatchIterator::batchesPerEpoch() const { return (size() + batch_size_ - 1) / batch_size_; }

TensorPair BatchIterator::batch(int64_t i) const {
  int64_t start = i * batch_size_;
  int64_t len = std::min(batch_size_, size() - start);
  if (!shuffle_ && world_size_ == 1) return data_.rows(start, len);
  return data_.select(order_.narrow(0, start, len));
}

}  // namespace trainscope

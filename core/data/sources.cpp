// The built-in data sources: generated (sine, moons, circles, spirals) and read (Fashion-MNIST).
#include "core/data/sources.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>

#include "core/config/train_config.h"
#include "core/data/idx_reader.h"
#include "core/data/synthetic_2d.h"
#include "core/errors.h"

namespace trainscope {
namespace {

const at::TensorOptions kF32 = at::TensorOptions().dtype(at::kFloat);

// y = sin(x) + noise * N(0, 1), x ~ U(-pi, pi).
TensorPair makeSine(const DataConfig& c) {
  at::Generator gen = dataGenerator(c.seed, kGenerateStream);
  at::Tensor x = at::rand({c.n_samples, 1}, gen, kF32) * (2 * M_PI) - M_PI;
  at::Tensor noise = at::randn({c.n_samples, 1}, gen, kF32) * c.noise;
  return {x, at::sin(x) + noise};
}

// Same construction as sklearn.datasets.make_moons: outer half circle (class 0), inner one
// shifted by (1, -0.5) (class 1), Gaussian noise of std `noise` on both coordinates.
TensorPair makeMoons(const DataConfig& c) {
  at::Generator gen = dataGenerator(c.seed, kGenerateStream);
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

}  // namespace

at::Generator dataGenerator(int64_t seed, DataStream stream) {
  return at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(seed) * 1000003ULL +
                                                  stream * 7919ULL + 1);
}

DataConfig withAbsolutePaths(DataConfig c) {
  for (std::optional<std::string>* p : {&c.path, &c.csv.path, &c.csv.val_path, &c.csv.test_path,
                                        &c.image_folder.path, &c.npy.path, &c.npy.y_path, &c.idx.path,
                                        &c.idx.y_path, &c.idx.test_path, &c.idx.test_y_path})
    if (*p && !(*p)->empty()) **p = std::filesystem::absolute(**p).lexically_normal().string();
  return c;
}

void loadSineSource(const DataConfig& c, SourceData& out) { out.pool = makeSine(c); }

void loadMoonsSource(const DataConfig& c, SourceData& out) {
  out.pool = makeMoons(c);
  out.class_names = {"upper moon", "lower moon"};
}

void loadCirclesSource(const DataConfig& c, SourceData& out) {
  at::Generator gen = dataGenerator(c.seed, kGenerateStream);
  out.pool = makeCircles(c, gen);
  out.class_names = {"outer circle", "inner circle"};
}

void loadSpiralsSource(const DataConfig& c, SourceData& out) {
  at::Generator gen = dataGenerator(c.seed, kGenerateStream);
  out.pool = makeSpirals(c, gen);
  out.class_names = {"spiral A", "spiral B"};
}

void loadFashionMnistSource(const DataConfig& c, SourceData& out) {
  std::filesystem::path dir = c.path ? std::filesystem::path(*c.path) : kFashionMnistDir;
  std::vector<int64_t> train_shape, test_shape;
  out.pool = readFashionMnist(dir, "train", train_shape);
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
  out.image_shape = {1, train_shape[0], train_shape[1]};
  out.class_names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                     "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
}

}  // namespace trainscope

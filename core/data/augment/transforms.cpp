// torchvision 0.14's transforms.py: RandomResizedCrop, RandomCrop, RandomHorizontalFlip,
// RandomRotation and ColorJitter, their get_params draw by draw.
#include "core/data/augment/transforms.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>

#include "core/config/train_config.h"
#include "core/data/augment/functional.h"
#include "core/data/augment/pipeline_text.h"
#include "core/errors.h"

namespace trainscope::augment {
namespace {

const auto kFloat32 = at::TensorOptions().dtype(at::kFloat);
const auto kInt64 = at::TensorOptions().dtype(at::kLong);

/// torch.empty(1).uniform_(from, to).item(): a float32 draw, widened.
double uniform(at::Generator& gen, double from, double to) {
  return at::empty({1}, kFloat32).uniform_(from, to, gen).item<float>();
}

/// torch.randint(low, high, size=(1,)).item()
int64_t randint(at::Generator& gen, int64_t low, int64_t high) {
  return at::randint(low, high, {1}, gen, kInt64).item<int64_t>();
}

/// Python's int(round(x)): halves to even, as std::nearbyint in the default rounding mode.
int64_t pyRound(double x) { return static_cast<int64_t>(std::nearbyint(x)); }

}  // namespace

CropBox randomResizedCropParams(at::Generator& gen, int64_t height, int64_t width,
                                std::array<double, 2> scale, std::array<double, 2> ratio) {
  const double area = static_cast<double>(height * width);
  const at::Tensor log_ratio = at::log(at::tensor({ratio[0], ratio[1]}, at::kDouble).to(at::kFloat));
  const double lr0 = log_ratio[0].item<float>(), lr1 = log_ratio[1].item<float>();
  for (int attempt = 0; attempt < 10; ++attempt) {
    const double target_area = area * uniform(gen, scale[0], scale[1]);
    const double aspect =
        at::exp(at::empty({1}, kFloat32).uniform_(lr0, lr1, gen)).item<float>();
    const int64_t w = pyRound(std::sqrt(target_area * aspect));
    const int64_t h = pyRound(std::sqrt(target_area / aspect));
    if (0 < w && w <= width && 0 < h && h <= height) {
      const int64_t i = randint(gen, 0, height - h + 1);
      const int64_t j = randint(gen, 0, width - w + 1);
      return {i, j, h, w};
    }
  }
  // Fallback to central crop
  const double in_ratio = static_cast<double>(width) / static_cast<double>(height);
  int64_t w = width, h = height;
  if (in_ratio < std::min(ratio[0], ratio[1])) {
    h = pyRound(w / std::min(ratio[0], ratio[1]));
  } else if (in_ratio > std::max(ratio[0], ratio[1])) {
    w = pyRound(h * std::max(ratio[0], ratio[1]));
  }
  return {(height - h) / 2, (width - w) / 2, h, w};
}

CropBox randomCropParams(at::Generator& gen, int64_t height, int64_t width, int64_t th, int64_t tw) {
  if (height == th && width == tw) return {0, 0, height, width};
  const int64_t i = randint(gen, 0, height - th + 1);
  const int64_t j = randint(gen, 0, width - tw + 1);
  return {i, j, th, tw};
}

bool flipDraw(at::Generator& gen, double p) {
  // torch.rand(1) < p compares in float32 (the tensor's dtype)
  return at::rand({1}, gen, kFloat32).item<float>() < static_cast<float>(p);
}

double rotationParams(at::Generator& gen, double degrees) { return uniform(gen, -degrees, degrees); }

JitterParams colorJitterParams(at::Generator& gen, const std::array<double, 4>& strength) {
  JitterParams p;
  const at::Tensor perm = at::randperm(4, gen, kInt64);
  for (int k = 0; k < 4; ++k) p.order[k] = perm[k].item<int64_t>();
  for (int k = 0; k < 4; ++k) {
    const double v = strength[k];
    if (v == 0) continue;  // _check_input: [center, center] is None
    const double lo = k == 3 ? -v : std::max(1.0 - v, 0.0);
    const double hi = k == 3 ? v : 1.0 + v;
    p.factors[k] = uniform(gen, lo, hi);
  }
  return p;
}

at::Tensor applyJitter(const at::Tensor& img, const JitterParams& p) {
  at::Tensor x = img;
  for (int64_t fn : p.order) {
    if (!p.factors[fn]) continue;
    const double f = *p.factors[fn];
    switch (fn) {
      case 0: x = adjustBrightness(x, f); break;
      case 1: x = adjustContrast(x, f); break;
      case 2: x = adjustSaturation(x, f); break;
      default: x = adjustHue(x, f); break;
    }
  }
  return x;
}

Augmentation::Augmentation(const AugmentConfig& config, std::vector<int64_t> image_shape)
    : config_(std::make_shared<AugmentConfig>(config)) {
  if (image_shape.size() != 3)
    throw Error(ErrorCode::Config, "data.augment",
                "data.augment transforms images, but this data has no image shape [C, H, W]");
  shape_ = {image_shape[0], image_shape[1], image_shape[2]};
  for (size_t k = 0; k < 4 && k < config.color_jitter.size(); ++k) jitter_[k] = config.color_jitter[k];
  const int64_t side = std::min(shape_[1], shape_[2]);
  if (config.crop_padding >= side)
    throw Error(ErrorCode::Config, "data.augment.crop_padding",
                "data.augment.crop_padding is " + std::to_string(config.crop_padding) +
                    ", not smaller than the images (" + std::to_string(shape_[1]) + "x" +
                    std::to_string(shape_[2]) + "): a crop could hold padding alone; use at most " +
                    std::to_string(side - 1) + " (4 is usual for 32x32 images)");
}

bool Augmentation::empty() const { return !config_->any(); }

at::Tensor Augmentation::operator()(const at::Tensor& img, at::Generator& gen) const {
  const AugmentConfig& a = *config_;
  const int64_t h = shape_[1], w = shape_[2];
  at::Tensor x = img;
  if (a.random_resized_crop) {
    const CropBox b = randomResizedCropParams(gen, h, w, a.scale, a.ratio);
    x = resize(crop(x, b.top, b.left, b.height, b.width), h, w, Interpolation::Bilinear,
               /*antialias=*/true);
  } else if (a.crop_padding > 0) {
    x = pad(x, a.crop_padding);
    const CropBox b = randomCropParams(gen, x.size(-2), x.size(-1), h, w);
    x = crop(x, b.top, b.left, b.height, b.width);
  }
  if (a.hflip > 0 && flipDraw(gen, a.hflip)) x = hflip(x);
  if (a.rotation != 0) x = rotate(x, rotationParams(gen, a.rotation));
  if (a.jitter()) x = applyJitter(x, colorJitterParams(gen, jitter_));
  return x;
}

at::Tensor Augmentation::batch(const at::Tensor& images, at::Generator& gen) const {
  std::vector<at::Tensor> out;
  out.reserve(static_cast<size_t>(images.size(0)));
  for (int64_t i = 0; i < images.size(0); ++i) out.push_back((*this)(images[i], gen));
  return at::stack(out);
}

std::vector<std::string> Augmentation::describe() const {
  return torchvisionTransforms(*config_, shape_[1], shape_[2]);
}

void requirePixels(const at::Tensor& x) {
  if (x.defined() && x.scalar_type() != at::kByte)
    throw Error(ErrorCode::Config, "data.augment",
                "data.augment transforms pixels, but this data's x is " +
                    std::string(c10::toString(x.scalar_type())) +
                    " (images from .npy or IDX files must be uint8 pixels to be augmented)");
}

at::Generator batchGenerator(uint64_t run_seed, int64_t epoch, int64_t rank, int64_t batch) {
  auto mix = [](uint64_t x) {  // SplitMix64's finaliser
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
  };
  uint64_t s = mix(run_seed ^ 0xA5A5A5A5ULL);
  s = mix(s ^ static_cast<uint64_t>(epoch));
  s = mix(s ^ static_cast<uint64_t>(rank));
  s = mix(s ^ static_cast<uint64_t>(batch));
  s ^= s >> 32;  // mt19937 keeps the seed's low 32 bits
  return at::make_generator<at::CPUGeneratorImpl>(s);
}

}  // namespace trainscope::augment

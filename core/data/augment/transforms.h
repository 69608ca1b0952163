#pragma once
/// The random transforms of torchvision.transforms (0.14) that data.augment.* turns on, with
/// torchvision's parameters and its sampling: each get_params draws the same numbers in the
/// same order from the generator it is given (torch.rand, torch.empty(1).uniform_,
/// torch.randint, torch.randperm), so a generator seeded as torch.manual_seed(s) seeds
/// Python's gives the same crops, flips, angles and jitter factors, and (functional.h) the
/// same pixels. Internal to core/data (torch types).
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"

namespace trainscope::augment {

/// A crop box in pixels: rows [top, top + height), columns [left, left + width).
struct CropBox {
  int64_t top = 0, left = 0, height = 0, width = 0;
  bool operator==(const CropBox& o) const {
    return top == o.top && left == o.left && height == o.height && width == o.width;
  }
};

/// RandomResizedCrop.get_params for an image of `height` x `width`: up to 10 draws of an area
/// fraction uniform in `scale` and a log-uniform aspect ratio in `ratio`; the first box that
/// fits is placed uniformly; else the centre crop clamped to `ratio`.
CropBox randomResizedCropParams(at::Generator& gen, int64_t height, int64_t width,
                                std::array<double, 2> scale, std::array<double, 2> ratio);

/// RandomCrop.get_params: a `th` x `tw` box placed uniformly in `height` x `width` (no draw
/// when the sizes are equal).
CropBox randomCropParams(at::Generator& gen, int64_t height, int64_t width, int64_t th, int64_t tw);

/// RandomHorizontalFlip: torch.rand(1) < p.
bool flipDraw(at::Generator& gen, double p);

/// RandomRotation.get_params: an angle in degrees uniform in [-degrees, degrees].
double rotationParams(at::Generator& gen, double degrees);

/// ColorJitter.get_params: the order of the four adjustments (a permutation of 0 brightness,
/// 1 contrast, 2 saturation, 3 hue) and each factor, drawn uniformly from its range; an
/// adjustment that is off (strength 0) draws nothing and has no factor.
struct JitterParams {
  std::array<int64_t, 4> order{0, 1, 2, 3};
  std::array<std::optional<double>, 4> factors;
};
/// `strength` = [brightness, contrast, saturation, hue] as ColorJitter's arguments: the first
/// three give factors in [max(0, 1 - v), 1 + v], hue in [-v, v].
JitterParams colorJitterParams(at::Generator& gen, const std::array<double, 4>& strength);

/// Applies drawn jitter parameters in their order (ColorJitter.forward).
at::Tensor applyJitter(const at::Tensor& img, const JitterParams& p);

/// The training pipeline of data.augment for images of `image_shape` [C, H, W]:
/// RandomResizedCrop or RandomCrop(padding), RandomHorizontalFlip, RandomRotation,
/// ColorJitter, each only when on, in that order, on float32 [C, H, W] images in [0, 1]
/// (ToTensor's output; Normalize follows, done by the data's standardisation).
class Augmentation {
 public:
  /// Throws Error(Config, "data.augment.crop_padding") for a padding of the image's size or
  /// more, Error(Config, "data.augment") without an image shape. (Saturation and hue jitter
  /// of one-channel images are allowed: torchvision leaves those images unchanged.)
  Augmentation(const AugmentConfig& config, std::vector<int64_t> image_shape);

  /// Whether any transform is on.
  bool empty() const;
  /// The images' [C, H, W].
  const std::array<int64_t, 3>& imageShape() const { return shape_; }
  /// One image, float32 [C, H, W] in [0, 1] -> the same shape, drawing from `gen`.
  at::Tensor operator()(const at::Tensor& img, at::Generator& gen) const;
  /// A batch float32 [B, C, H, W]: each image in turn, drawing from `gen`.
  at::Tensor batch(const at::Tensor& images, at::Generator& gen) const;

  /// The transforms as torchvision expressions, in order ("T.RandomHorizontalFlip(p=0.5)"),
  /// for run.json, the run header and the Python export; empty when off.
  std::vector<std::string> describe() const;

 private:
  std::shared_ptr<const AugmentConfig> config_;  // config_fwd.h: the struct is incomplete here
  std::array<int64_t, 3> shape_{};               ///< [C, H, W]
  std::array<double, 4> jitter_{};               ///< ColorJitter's strengths, 0 where unset
};

/// Throws Error(Config, "data.augment") unless `x` holds uint8 pixels (what the transforms
/// take as ToTensor's input).
void requirePixels(const at::Tensor& x);

/// A generator for one batch's augmentation, seeded from (run seed, epoch, rank, batch index)
/// by SplitMix64: the same batch of the same epoch gets the same draws at any worker count
/// and after a resume, and no draw touches torch's global generator.
at::Generator batchGenerator(uint64_t run_seed, int64_t epoch, int64_t rank, int64_t batch);

}  // namespace trainscope::augment

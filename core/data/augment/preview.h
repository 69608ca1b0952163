#pragma once
/// The dashboard's augmentation preview: one training image and variants of it drawn as the
/// run's training batches draw them (core/data/augment/transforms.h). Torch-free header, so
/// the GUI includes it without libtorch.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"

namespace trainscope::augment {

/// An image as 8-bit pixels, channel by channel ([C, H, W], C = 1 or 3).
struct PreviewImage {
  int64_t channels = 0, height = 0, width = 0;
  std::vector<uint8_t> pixels;
};

/// What preview() made.
struct AugmentPreview {
  PreviewImage original;
  std::vector<PreviewImage> variants;
  std::vector<std::string> transforms;  ///< torchvisionTransforms: empty when none is on
  double seconds = 0;                   ///< the time the variants took
};

/// The training images of a config's data, loaded once (as a run loads them: same split).
class PreviewSource {
 public:
  /// Loads `config`'s data. Throws what loadData throws (Error(Config/Data)), and
  /// Error(Config, "data.augment...") for data that cannot be augmented (not images, not uint8
  /// pixels, a crop padding the images cannot take).
  explicit PreviewSource(const TrainConfig& config);
  ~PreviewSource();
  PreviewSource(const PreviewSource&) = delete;
  PreviewSource& operator=(const PreviewSource&) = delete;

  /// Training images available.
  int64_t trainingImages() const;
  /// Training image `index` (clamped) and `n` variants of it, each drawn from the generator of
  /// one batch (batchGenerator(seed, 1, 0, k) for variant k); values clamped to 0..255.
  AugmentPreview preview(int64_t index, int n, uint64_t seed) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trainscope::augment

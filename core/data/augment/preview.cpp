#include "core/data/augment/preview.h"

#include <ATen/ATen.h>

#include "core/config/train_config.h"
#include "core/data/augment/pipeline_text.h"
#include "core/data/augment/transforms.h"
#include "core/data/dataset.h"
#include "core/errors.h"
#include "core/system/clock.h"

namespace trainscope::augment {

struct PreviewSource::Impl {
  TrainConfig config;
  PreparedData data;
};

namespace {

PreviewImage toImage(const at::Tensor& chw01) {
  const at::Tensor px = chw01.mul(255).round_().clamp_(0, 255).to(at::kByte).contiguous();
  PreviewImage out;
  out.channels = px.size(0);
  out.height = px.size(1);
  out.width = px.size(2);
  out.pixels.assign(px.data_ptr<uint8_t>(), px.data_ptr<uint8_t>() + px.numel());
  return out;
}

}  // namespace

PreviewSource::PreviewSource(const TrainConfig& config) : impl_(std::make_unique<Impl>()) {
  impl_->config = config;
  impl_->data = loadData(config.data);
  if (impl_->data.summary.image_shape.size() != 3)
    throw Error(ErrorCode::Config, "data.augment",
                "data.source \"" + config.data.source + "\" gives no images to augment");
  requirePixels(impl_->data.train.x);
}

PreviewSource::~PreviewSource() = default;

int64_t PreviewSource::trainingImages() const { return impl_->data.train.size(); }

AugmentPreview PreviewSource::preview(int64_t index, int n, uint64_t seed) const {
  const TensorPair& train = impl_->data.train;
  const std::vector<int64_t>& shape = impl_->data.summary.image_shape;
  AugmentPreview out;
  if (train.size() == 0) return out;
  index = std::clamp<int64_t>(index, 0, train.size() - 1);
  const at::Tensor image = train.raw(index, 1)[0].to(at::kFloat).div(255).reshape({shape[0], shape[1], shape[2]});
  out.original = toImage(image);
  const Augmentation aug(impl_->config.data.augment, shape);
  out.transforms = aug.describe();
  const auto start = SteadyClock::now();
  for (int k = 0; k < n; ++k) {
    at::Generator gen = batchGenerator(seed, 1, 0, k);
    out.variants.push_back(toImage(aug.empty() ? image : aug(image, gen)));
  }
  out.seconds = secondsSince(start);
  return out;
}

}  // namespace trainscope::augment

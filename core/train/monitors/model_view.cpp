#include <ATen/ATen.h>
#include <torch/nn/functional/activation.h>
#include <torch/utils.h>

#include <algorithm>
#include <cmath>

#include "core/model/sequential_model.h"
#include "core/train/monitors/model_view_impl.h"

namespace trainscope {

namespace {

std::vector<double> toVector(const at::Tensor& t) {
  at::Tensor c = t.to(at::kDouble).contiguous().cpu();
  return {c.data_ptr<double>(), c.data_ptr<double>() + c.numel()};
}

/// Raw coordinates of column f of the first `n` rows of `x` (standardisation undone).
std::vector<double> rawColumn(const PreparedData& d, const TensorPair& split, int64_t f, int64_t n) {
  at::Tensor col = split.raw(0, std::min<int64_t>(n, split.size())).select(1, f).to(at::kDouble);
  const Preprocessing& pre = d.summary.preprocessing;
  // in memory x is standardised in place; a split on disk is read as the file has it
  if (pre.standardize == "per_feature" && !split.on_disk) col = col * pre.std[f] + pre.mean[f];
  return toVector(col);
}

/// Model inputs for raw coordinates (columns of `raw` [N, F]).
at::Tensor toModelInputs(const PreparedData& d, const at::Tensor& points) {
  const Preprocessing& pre = d.summary.preprocessing;
  if (pre.standardize != "per_feature") return points.to(at::kFloat);
  at::Tensor raw = points.clone();
  for (int64_t f = 0; f < raw.size(1); ++f) raw.select(1, f).sub_(pre.mean[f]).div_(pre.std[f]);
  return raw.to(at::kFloat);
}

std::pair<double, double> range(const std::vector<double>& a, const std::vector<double>& b) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto* v : {&a, &b})
    for (double x : *v) lo = std::min(lo, x), hi = std::max(hi, x);
  if (!(lo < hi)) lo -= 1, hi += 1;
  const double m = 0.05 * (hi - lo);
  return {lo - m, hi + m};
}

}  // namespace

std::optional<ModelViewRecord> computeModelView(Model& model, const PreparedData& d,
                                                double truth_sine_scale,
                                                const ModelViewOptions& o) {
  const bool was_training = model.is_training();
  model.eval();
  torch::NoGradGuard no_grad;
  const at::Device device = d.train.y.device();  // x is a meta tensor when on disk
  ModelViewRecord r;
  const int64_t features = d.summary.n_features;
  const bool images = d.train.x.scalar_type() == at::kByte;
  std::optional<ModelViewRecord> out;
  if (images && d.val.size() > 0) {
    r.kind = ModelViewRecord::Kind::Images;
    const int64_t n = std::min<int64_t>(o.images, d.val.size());
    const std::vector<int64_t>& shape = d.summary.image_shape;  // [C, H, W]
    if (shape.size() == 3 && shape[0] == 1 && shape[1] * shape[2] == features) {
      r.image_h = static_cast<int>(shape[1]);
      r.image_w = static_cast<int>(shape[2]);
    } else {  // no grayscale image shape recorded: one row of pixels
      r.image_w = static_cast<int>(features);
      r.image_h = 1;
    }
    const TensorPair part = d.val.rows(0, n);
    at::Tensor p = torch::nn::functional::softmax(model.forward(part.x), 1);
    auto [conf, pred] = p.max(1);
    at::Tensor raw = d.val.raw(0, n).contiguous().cpu();
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t* px = raw[i].data_ptr<uint8_t>();
      r.images.emplace_back(px, px + features);
      r.predicted.push_back(static_cast<int>(pred[i].item<int64_t>()));
      r.actual.push_back(static_cast<int>(part.y[i].item<int64_t>()));
      r.confidence.push_back(conf[i].item<double>());
    }
    r.class_names = d.summary.class_names;
    if (auto* seq = dynamic_cast<SequentialModel*>(&model)) {
      const auto [weight, maps] = seq->firstConvBlock(part.x.narrow(0, 0, 1));
      if (weight.defined() && maps.dim() == 4) {
        const at::Tensor w = weight.to(at::kFloat).cpu().contiguous();
        r.filter_count = static_cast<int>(w.size(0));
        r.filter_channels = static_cast<int>(w.size(1));
        r.filter_h = static_cast<int>(w.size(2));
        r.filter_w = static_cast<int>(w.size(3));
        r.filters.assign(w.data_ptr<float>(), w.data_ptr<float>() + w.numel());
        const at::Tensor m = maps[0].to(at::kFloat).cpu().contiguous();
        r.map_count = static_cast<int>(m.size(0));
        r.map_h = static_cast<int>(m.size(1));
        r.map_w = static_cast<int>(m.size(2));
        r.feature_maps.assign(m.data_ptr<float>(), m.data_ptr<float>() + m.numel());
      }
    }
    out = r;
  } else if (features == 1 && !d.classification) {
    r.kind = ModelViewRecord::Kind::Curve;
    r.train_x = rawColumn(d, d.train, 0, o.max_points);
    r.train_y = toVector(d.train.y.narrow(0, 0, r.train_x.size()).flatten());
    r.val_x = rawColumn(d, d.val, 0, o.max_points);
    r.val_y = toVector(d.val.y.narrow(0, 0, r.val_x.size()).flatten());
    const auto [lo, hi] = range(r.train_x, r.val_x);
    at::Tensor g = at::linspace(lo, hi, o.curve_points, at::TensorOptions().dtype(at::kDouble));
    r.grid_x = toVector(g);
    r.prediction = toVector(model.forward(toModelInputs(d, g.unsqueeze(1)).to(device)).flatten());
    if (truth_sine_scale != 0) r.truth = toVector(truth_sine_scale * at::sin(g));
    out = r;
  } else if (features == 2 && d.classification && d.summary.n_classes == 2) {
    // Two classes only: the shading is the probability of class 1 and the points take two
    // colours (a third class would be left out of the picture, so none is drawn).
    r.kind = ModelViewRecord::Kind::Regions;
    r.train_x = rawColumn(d, d.train, 0, o.max_points);
    r.train_y = rawColumn(d, d.train, 1, o.max_points);
    r.val_x = rawColumn(d, d.val, 0, o.max_points);
    r.val_y = rawColumn(d, d.val, 1, o.max_points);
    for (const auto& [y, n, dst] : {std::tuple{&d.train.y, r.train_x.size(), &r.train_label},
                                    std::tuple{&d.val.y, r.val_x.size(), &r.val_label}}) {
      at::Tensor lab = y->narrow(0, 0, n).to(at::kLong).cpu().contiguous();
      dst->assign(lab.data_ptr<int64_t>(), lab.data_ptr<int64_t>() + n);
    }
    std::tie(r.x0_min, r.x0_max) = range(r.train_x, r.val_x);
    std::tie(r.x1_min, r.x1_max) = range(r.train_y, r.val_y);
    r.grid_w = r.grid_h = o.grid;
    const auto dopt = at::TensorOptions().dtype(at::kDouble);
    at::Tensor gx = at::linspace(r.x0_min, r.x0_max, o.grid, dopt);
    at::Tensor gy = at::linspace(r.x1_min, r.x1_max, o.grid, dopt);
    // Row j (x1), column i (x0): point index j * grid_w + i.
    at::Tensor pts = at::stack({gx.repeat({o.grid}), gy.repeat_interleave(o.grid)}, 1);
    at::Tensor logits = model.forward(toModelInputs(d, pts).to(device));
    at::Tensor p1 =
        torch::nn::functional::softmax(logits, 1).select(1, 1).to(at::kFloat).cpu().contiguous();
    r.probability.assign(p1.data_ptr<float>(), p1.data_ptr<float>() + p1.numel());
    out = r;
  }
  if (was_training) model.train();
  return out;
}

}  // namespace trainscope

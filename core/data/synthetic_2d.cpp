#include "core/data/synthetic_2d.h"

#include <ATen/ATen.h>

#include <cmath>

#include "core/config/train_config.h"

namespace trainscope {

namespace {
const at::TensorOptions kFloatOptions = at::TensorOptions().dtype(at::kFloat);
}

TensorPair makeCircles(const DataConfig& c, at::Generator& gen) {
  const int64_t n_out = c.n_samples / 2, n_in = c.n_samples - n_out;
  auto ring = [&](int64_t n, double radius) {
    at::Tensor t = at::arange(n, kFloatOptions) * static_cast<float>(2 * M_PI / n);  // no end point
    return at::stack({at::cos(t), at::sin(t)}, 1) * radius;
  };
  at::Tensor x = at::cat({ring(n_out, 1.0), ring(n_in, 0.5)}, 0);
  x = x + at::randn(x.sizes(), gen, kFloatOptions) * c.noise;
  at::Tensor y = at::cat({at::zeros({n_out}, at::kLong), at::ones({n_in}, at::kLong)});
  return {x, y};
}

TensorPair makeSpirals(const DataConfig& c, at::Generator& gen) {
  const int64_t n0 = c.n_samples / 2, n1 = c.n_samples - n0;
  auto arm = [&](int64_t n, int k) {
    at::Tensor t = at::linspace(0.1, 1.0, n, kFloatOptions);
    at::Tensor a = t * static_cast<float>(3 * M_PI) + static_cast<float>(k * M_PI);
    return at::stack({t * at::cos(a), t * at::sin(a)}, 1);
  };
  at::Tensor x = at::cat({arm(n0, 0), arm(n1, 1)}, 0);
  x = x + at::randn(x.sizes(), gen, kFloatOptions) * c.noise;
  at::Tensor y = at::cat({at::zeros({n0}, at::kLong), at::ones({n1}, at::kLong)});
  return {x, y};
}

}  // namespace trainscope

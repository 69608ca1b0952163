#include "core/data/sequences.h"

#include <ATen/ATen.h>

#include <cmath>

#include "core/config/train_config.h"

namespace trainscope {

void loadSineSequenceSource(const DataConfig& c, SourceData& out) {
  at::Generator gen = dataGenerator(c.seed, kGenerateStream);
  const at::TensorOptions f32 = at::TensorOptions().dtype(at::kFloat);
  const int64_t n = c.n_samples, t_len = c.seq_len;
  at::Tensor phase = at::rand({n, 1}, gen, f32) * static_cast<float>(2 * M_PI);
  at::Tensor frequency = at::rand({n, 1}, gen, f32) * 0.2f + 0.1f;
  at::Tensor t = at::arange(t_len + 1, f32).unsqueeze(0);
  at::Tensor s = at::sin(phase + frequency * t) + at::randn({n, t_len + 1}, gen, f32) * c.noise;
  out.pool.x = s.slice(1, 0, t_len).unsqueeze(2).contiguous();
  out.pool.y = s.slice(1, t_len, t_len + 1).contiguous();
}

}  // namespace trainscope

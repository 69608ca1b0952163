// Stratified validation samples, their penultimate features and PCA (issue 49 §2).
#include "core/train/probes/embedding.h"

#include <ATen/ATen.h>
#include <torch/types.h>
#include <torch/utils.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "core/data/dataset.h"
#include "core/model/model.h"
#include "core/model/sequential_model.h"

namespace trainscope {

std::vector<int64_t> stratifiedPositions(const at::Tensor& labels_in, int64_t most, uint64_t seed) {
  const at::Tensor labels = labels_in.to(at::kLong).contiguous().cpu();
  const int64_t n = labels.numel();
  std::vector<int64_t> out;
  if (n <= most) {
    out.resize(static_cast<std::size_t>(n));
    std::iota(out.begin(), out.end(), 0);
    return out;
  }
  const int64_t* y = labels.data_ptr<int64_t>();
  const int64_t classes = n > 0 ? *std::max_element(y, y + n) + 1 : 0;
  std::vector<std::vector<int64_t>> of(static_cast<std::size_t>(std::max<int64_t>(0, classes)));
  for (int64_t i = 0; i < n; ++i)
    if (y[i] >= 0) of[static_cast<std::size_t>(y[i])].push_back(i);
  // Each class's share of `most`: floors, then the largest remainders (ties: lower class).
  std::vector<int64_t> take(of.size());
  std::vector<std::pair<double, std::size_t>> rest;
  int64_t given = 0;
  for (std::size_t c = 0; c < of.size(); ++c) {
    const double exact =
        static_cast<double>(most) * static_cast<double>(of[c].size()) / static_cast<double>(n);
    take[c] = static_cast<int64_t>(std::floor(exact));
    if (take[c] == 0 && !of[c].empty()) take[c] = 1;
    given += take[c];
    rest.emplace_back(exact - std::floor(exact), c);
  }
  std::stable_sort(rest.begin(), rest.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; given < most && i < rest.size(); ++i) {
    const std::size_t c = rest[i].second;
    if (take[c] < static_cast<int64_t>(of[c].size())) ++take[c], ++given;
  }
  std::mt19937_64 rng(seed);
  for (std::size_t c = 0; c < of.size(); ++c) {
    std::vector<int64_t>& v = of[c];
    const auto k =
        static_cast<std::size_t>(std::min<int64_t>(take[c], static_cast<int64_t>(v.size())));
    for (std::size_t i = 0; i < k; ++i) {  // a partial Fisher-Yates shuffle
      std::uniform_int_distribution<std::size_t> pick(i, v.size() - 1);
      std::swap(v[i], v[pick(rng)]);
    }
    out.insert(out.end(), v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k));
  }
  std::sort(out.begin(), out.end());
  return out;
}

Pca pca(const at::Tensor& x_in, int64_t k) {
  Pca r;
  const at::Tensor x = x_in.to(at::kDouble).cpu().contiguous();
  r.n = x.size(0);
  r.f = x.size(1);
  r.k = std::min({k, r.n, r.f});
  if (r.n < 2 || r.k <= 0) return r;
  const at::Tensor centred = x - x.mean(0, true);
  at::Tensor u, s, vh;
  std::tie(u, s, vh) = at::linalg_svd(centred, /*full_matrices=*/false);
  // sklearn's svd_flip(u, v) (u_based_decision=True): each column of U's largest |entry| > 0
  const at::Tensor rows = u.abs().argmax(0);
  const at::Tensor signs = at::sign(u.gather(0, rows.unsqueeze(0))).squeeze(0);
  const at::Tensor fixed = at::where(signs == 0, at::ones_like(signs), signs);
  u = u * fixed.unsqueeze(0);
  vh = vh * fixed.unsqueeze(1);
  const at::Tensor proj = (u.narrow(1, 0, r.k) * s.narrow(0, 0, r.k).unsqueeze(0)).contiguous();
  const at::Tensor comps = vh.narrow(0, 0, r.k).contiguous();
  r.projected.assign(proj.data_ptr<double>(), proj.data_ptr<double>() + proj.numel());
  r.components.assign(comps.data_ptr<double>(), comps.data_ptr<double>() + comps.numel());
  const at::Tensor var = s * s;
  const double total = var.sum().item<double>();
  for (int64_t i = 0; i < r.k; ++i)
    r.explained_variance_ratio.push_back(total > 0 ? var[i].item<double>() / total : 0.0);
  return r;
}

EmbeddingRecord embedValidation(Model& model, const PreparedData& data,
                                const std::vector<int64_t>& positions, int64_t epoch) {
  EmbeddingRecord rec;
  rec.epoch = epoch;
  auto* seq = dynamic_cast<SequentialModel*>(&model);
  if (!seq || positions.empty() || !data.classification) return rec;
  const bool was_training = model.is_training();
  model.train(false);
  torch::NoGradGuard no_grad;
  const std::vector<at::Tensor> params = model.parameters();
  const c10::Device device = params.empty() ? c10::Device(c10::kCPU) : params.front().device();
  std::vector<at::Tensor> parts;
  const auto n = static_cast<int64_t>(positions.size());
  const at::Tensor idx_all = at::tensor(positions, at::kLong);
  for (int64_t s = 0; s < n; s += 1024) {
    const at::Tensor idx = idx_all.narrow(0, s, std::min<int64_t>(1024, n - s));
    const TensorPair rows = data.val.select(idx);
    const at::Tensor f = seq->penultimate(rows.x.to(device));
    if (!f.defined()) {
      model.train(was_training);
      return rec;
    }
    parts.push_back(f.to(at::kDouble).cpu());
  }
  model.train(was_training);
  const at::Tensor features = at::cat(parts, 0);
  // A diverged model's NaN / inf features have no principal components (LAPACK's SVD fails on
  // them): no embedding this time.
  if (!at::isfinite(features).all().item<bool>()) return rec;
  // One SVD gives the two components drawn and the 50 t-SNE starts from.
  const Pca p = pca(features, EmbeddingRecord::kReducedDims);
  rec.features = features.size(1);
  rec.explained_variance_ratio.assign(
      p.explained_variance_ratio.begin(),
      p.explained_variance_ratio.begin() + std::min<std::ptrdiff_t>(2, static_cast<std::ptrdiff_t>(p.k)));
  rec.reduced.assign(p.projected.begin(), p.projected.end());
  rec.reduced_dims = p.k;
  const at::Tensor y = data.val.y.index_select(0, idx_all).to(at::kLong).contiguous();
  // split.json's numbers in one contiguous read (not one item() a point)
  const int64_t numbered = data.split.val.defined() ? data.split.val.numel() : 0;
  const at::Tensor rows = numbered > 0 ? data.split.val.to(at::kLong)
                                             .index_select(0, idx_all.clamp_max(numbered - 1))
                                             .contiguous()
                                       : at::Tensor();
  for (int64_t i = 0; i < n; ++i) {
    rec.x.push_back(static_cast<float>(p.projected[static_cast<std::size_t>(i * p.k)]));
    rec.y.push_back(p.k > 1 ? static_cast<float>(p.projected[static_cast<std::size_t>(i * p.k + 1)])
                            : 0.0f);
    rec.label.push_back(y.data_ptr<int64_t>()[i]);
    const int64_t pos = positions[static_cast<std::size_t>(i)];
    rec.position.push_back(pos);
    rec.sample.push_back(pos < numbered ? rows.data_ptr<int64_t>()[i] : -1);
  }
  return rec;
}

}  // namespace trainscope

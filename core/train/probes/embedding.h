#pragma once
/// The embedding view's numbers (issue 49 §2): a seeded, class-stratified choice of validation
/// samples and the principal component analysis of their penultimate features. Torch inside;
/// include from core/train only.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "core/run/records.h"

namespace trainscope {

struct PreparedData;
class Model;

/// Up to `most` positions of `labels` (int64 [n], classes 0..C-1), stratified: each class
/// keeps round(most * n_c / n) of its samples (at least 1 when it has any; the largest
/// remainders fill the rest, as sklearn's train_test_split(stratify) shares them), drawn by a
/// generator seeded with `seed`; returned in increasing order. All positions when n <= most.
std::vector<int64_t> stratifiedPositions(const at::Tensor& labels, int64_t most, uint64_t seed);

/// Principal component analysis of the rows of `x` (float [n, f]), as
/// sklearn.decomposition.PCA(n_components=k, svd_solver="full") computes it: the rows centred,
/// their SVD (LAPACK, float64), the first k right singular vectors as components, the signs
/// fixed as sklearn's svd_flip(u, v) fixes them (in each column of U its entry of largest
/// absolute value is positive), the projection U * S. Deterministic.
struct Pca {
  int64_t n = 0, k = 0, f = 0;
  std::vector<double> projected;   ///< [n * k] row-major
  std::vector<double> components;  ///< [k * f] row-major
  std::vector<double> explained_variance_ratio;  ///< [k]
};
Pca pca(const at::Tensor& x, int64_t k);

/// The embedding of the validation samples at `positions` for a classification run: their
/// penultimate features (SequentialModel::penultimate, eval mode, no gradients, in chunks)
/// projected by pca(…, 2) (and on up to 50 components: EmbeddingRecord::reduced). Empty (no points, features 0) for a model without a Linear layer, a
/// kind that is not a chain of layers, or features that are not all finite (a diverged run).
/// Restores the model's mode.
EmbeddingRecord embedValidation(Model& model, const PreparedData& data,
                                const std::vector<int64_t>& positions, int64_t epoch);

}  // namespace trainscope

#pragma once
/// t-SNE of the embedding view (issue 49 §2), exact (every pair), as
/// sklearn.manifold.TSNE(method="exact") computes it: the same joint probabilities (a binary
/// search of each point's Gaussian to the perplexity, on squared distances rounded to float32
/// as scikit-learn rounds them), the same Student-t (1 degree of freedom) gradient of the
/// Kullback-Leibler divergence and the same optimiser (early exaggeration 12 with momentum 0.5
/// for 250 iterations, then momentum 0.8; gains +0.2 / x0.8, at least 0.01; learning rate
/// "auto" = max(n / 12 / 4, 50); a check every 50 iterations that stops after 300 without
/// progress or at a gradient norm <= 1e-7). Torch-free; runs on the caller's thread (the
/// dashboard's worker) and stops at the next iteration when `cancel` is set.
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace trainscope {

struct TsneOptions {
  double perplexity = 30;  ///< clamped to (n - 1) / 3 for small n, as TSNE requires < n
  int iterations = 1000;   ///< sklearn's n_iter (at least 250)
  /// Points at most: exact t-SNE costs n^2 a step (measured on one core: 2,000 points 22 ms
  /// a step, 22 s for 1,000 steps; 1,000 points about a quarter of that).
  static constexpr int64_t kMaxPoints = 1000;
};

struct TsneResult {
  int64_t n = 0;
  std::vector<double> y;       ///< [n * 2] row-major
  double kl_divergence = 0;    ///< KL(P || Q) at the last iteration (sklearn's kl_divergence_)
  int iterations = 0;          ///< iterations run
  bool cancelled = false;
};

/// The joint probabilities P [n * n] (symmetric, zero diagonal, the whole matrix summing to 1;
/// entries at least 2.2e-16) of `x` [n * d] row-major, sklearn.manifold._t_sne._joint_probabilities.
std::vector<double> tsneJointProbabilities(const std::vector<float>& x, int64_t n, int64_t d,
                                           double perplexity);
/// KL(P || Q) and its gradient [n * 2] at `y` [n * 2] (sklearn's _kl_divergence, 1 degree
/// of freedom).
double tsneKlGradient(const std::vector<double>& p, const std::vector<double>& y, int64_t n,
                      std::vector<double>* grad);

/// t-SNE of `x` [n * d] row-major starting from `init` [n * 2] (the dashboard gives the first
/// two principal components scaled to a standard deviation of 1e-4 in the first, sklearn's
/// init="pca"). `progress(iteration, kl)` is called every 50 iterations (may be empty).
/// Throws std::invalid_argument for n < 4 or mismatched sizes.
TsneResult tsne(const std::vector<float>& x, int64_t n, int64_t d, std::vector<double> init,
                const TsneOptions& options, const std::atomic<bool>* cancel = nullptr,
                const std::function<void(int, double)>& progress = {});

/// sklearn's init="pca" from principal components: `pcs` [n * k] (k >= 2) row-major, its
/// first two columns divided by the standard deviation of the first (numpy's, ddof 0) and
/// multiplied by 1e-4.
std::vector<double> tsnePcaInit(const std::vector<float>& pcs, int64_t n, int64_t k);

}  // namespace trainscope

// Exact t-SNE as scikit-learn computes it (tsne.h).
#include "core/train/probes/tsne.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace trainscope {

namespace {

constexpr double kMachineEpsilon = std::numeric_limits<double>::epsilon();  // np.finfo(double).eps
constexpr double kEarlyExaggeration = 12.0;
constexpr int kExplorationIterations = 250;
constexpr int kCheckEvery = 50;
constexpr int kWithoutProgress = 300;
constexpr double kMinGradNorm = 1e-7;
constexpr double kMinGain = 0.01;

/// sklearn.manifold._utils._binary_search_perplexity on the full matrix of squared distances
/// (float32): row i's conditional probabilities with the precision found by bisection.
std::vector<double> conditionalProbabilities(const std::vector<float>& sq, int64_t n,
                                             double perplexity) {
  constexpr int kSteps = 100;
  constexpr double kTolerance = 1e-5;
  constexpr double kEpsilonDbl = 1e-8;
  const double desired_entropy = std::log(perplexity);
  std::vector<double> p(static_cast<std::size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    double beta_min = -std::numeric_limits<double>::infinity();
    double beta_max = std::numeric_limits<double>::infinity();
    double beta = 1.0;
    double* row = &p[static_cast<std::size_t>(i * n)];
    const float* d = &sq[static_cast<std::size_t>(i * n)];
    for (int l = 0; l < kSteps; ++l) {
      // scikit-learn keeps P in float32 and sums in float64: each stored value rounded.
      double sum_p = 0.0;
      for (int64_t j = 0; j < n; ++j) {
        if (j != i) row[j] = static_cast<float>(std::exp(-static_cast<double>(d[j]) * beta));
        sum_p += row[j];
      }
      if (sum_p == 0.0) sum_p = kEpsilonDbl;
      double sum_dist_p = 0.0;
      for (int64_t j = 0; j < n; ++j) {
        row[j] = static_cast<float>(row[j] / sum_p);
        sum_dist_p += static_cast<double>(d[j]) * row[j];
      }
      const double entropy = std::log(sum_p) + beta * sum_dist_p;
      const double diff = entropy - desired_entropy;
      if (std::fabs(diff) <= kTolerance) break;
      if (diff > 0.0) {
        beta_min = beta;
        beta = std::isinf(beta_max) ? beta * 2.0 : (beta + beta_max) / 2.0;
      } else {
        beta_max = beta;
        beta = std::isinf(beta_min) ? beta / 2.0 : (beta + beta_min) / 2.0;
      }
    }
  }
  return p;
}

}  // namespace

std::vector<double> tsneJointProbabilities(const std::vector<float>& x, int64_t n, int64_t d,
                                           double perplexity) {
  // Squared Euclidean distances in float64, rounded to float32 as _joint_probabilities does.
  std::vector<float> sq(static_cast<std::size_t>(n * n), 0.0f);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) {
      double s = 0;
      for (int64_t k = 0; k < d; ++k) {
        const double t = static_cast<double>(x[static_cast<std::size_t>(i * d + k)]) -
                         static_cast<double>(x[static_cast<std::size_t>(j * d + k)]);
        s += t * t;
      }
      sq[static_cast<std::size_t>(i * n + j)] = sq[static_cast<std::size_t>(j * n + i)] =
          static_cast<float>(s);
    }
  std::vector<double> p = conditionalProbabilities(sq, n, perplexity);
  double total = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) {
      const double s = p[static_cast<std::size_t>(i * n + j)] + p[static_cast<std::size_t>(j * n + i)];
      p[static_cast<std::size_t>(i * n + j)] = p[static_cast<std::size_t>(j * n + i)] = s;
      total += s;
    }
  // scikit-learn divides by the sum over the whole matrix (both triangles).
  const double sum_p = std::max(2.0 * total, kMachineEpsilon);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double& v = p[static_cast<std::size_t>(i * n + j)];
      v = i == j ? 0.0 : std::max(v / sum_p, kMachineEpsilon);
    }
  return p;
}

double tsneKlGradient(const std::vector<double>& p, const std::vector<double>& y, int64_t n,
                      std::vector<double>* grad) {
  // Student-t kernel 1 / (1 + |y_i - y_j|^2) of each pair; Q = kernel / (2 sum over pairs).
  std::vector<double> w(static_cast<std::size_t>(n * n), 0.0);
  double sum = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) {
      const double dx = y[static_cast<std::size_t>(2 * i)] - y[static_cast<std::size_t>(2 * j)];
      const double dy = y[static_cast<std::size_t>(2 * i + 1)] - y[static_cast<std::size_t>(2 * j + 1)];
      const double k = 1.0 / (1.0 + dx * dx + dy * dy);
      w[static_cast<std::size_t>(i * n + j)] = w[static_cast<std::size_t>(j * n + i)] = k;
      sum += k;
    }
  const double denominator = 2.0 * sum;
  double kl = 0;
  grad->assign(static_cast<std::size_t>(2 * n), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    double gx = 0, gy = 0;
    for (int64_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double k = w[static_cast<std::size_t>(i * n + j)];
      const double q = std::max(k / denominator, kMachineEpsilon);
      const double pij = p[static_cast<std::size_t>(i * n + j)];
      if (j > i) kl += 2.0 * pij * std::log(std::max(pij, kMachineEpsilon) / q);
      const double pq = (pij - q) * k;
      gx += pq * (y[static_cast<std::size_t>(2 * i)] - y[static_cast<std::size_t>(2 * j)]);
      gy += pq * (y[static_cast<std::size_t>(2 * i + 1)] - y[static_cast<std::size_t>(2 * j + 1)]);
    }
    (*grad)[static_cast<std::size_t>(2 * i)] = 4.0 * gx;  // c = 2 (dof + 1) / dof
    (*grad)[static_cast<std::size_t>(2 * i + 1)] = 4.0 * gy;
  }
  return kl;
}

std::vector<double> tsnePcaInit(const std::vector<float>& pcs, int64_t n, int64_t k) {
  std::vector<double> y(static_cast<std::size_t>(2 * n));
  double mean = 0;
  for (int64_t i = 0; i < n; ++i) mean += pcs[static_cast<std::size_t>(i * k)];
  mean /= static_cast<double>(n);
  double var = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double t = pcs[static_cast<std::size_t>(i * k)] - mean;
    var += t * t;
  }
  const double sd = std::sqrt(var / static_cast<double>(n));
  const double scale = sd > 0 ? 1e-4 / sd : 1.0;
  for (int64_t i = 0; i < n; ++i) {
    y[static_cast<std::size_t>(2 * i)] = pcs[static_cast<std::size_t>(i * k)] * scale;
    y[static_cast<std::size_t>(2 * i + 1)] = k > 1 ? pcs[static_cast<std::size_t>(i * k + 1)] * scale : 0.0;
  }
  return y;
}

TsneResult tsne(const std::vector<float>& x, int64_t n, int64_t d, std::vector<double> init,
                const TsneOptions& options, const std::atomic<bool>* cancel,
                const std::function<void(int, double)>& progress) {
  if (n < 4 || static_cast<int64_t>(x.size()) != n * d || static_cast<int64_t>(init.size()) != 2 * n)
    throw std::invalid_argument("t-SNE needs at least 4 points and sizes n x d, n x 2");
  TsneResult r;
  r.n = n;
  const double perplexity = std::min(options.perplexity, static_cast<double>(n - 1) / 3.0);
  std::vector<double> p = tsneJointProbabilities(x, n, d, perplexity);
  const double learning_rate = std::max(static_cast<double>(n) / kEarlyExaggeration / 4.0, 50.0);
  std::vector<double>& y = init;
  std::vector<double> grad;
  // sklearn's _gradient_descent, twice: exploration with P exaggerated, then the rest.
  int it = 0;
  const auto descend = [&](int first, int last, double momentum, int without_progress) {
    std::vector<double> update(y.size(), 0.0), gains(y.size(), 1.0);
    double best_error = std::numeric_limits<double>::max();
    int best_iter = first, i = first;
    for (; i < last; ++i) {
      if (cancel && cancel->load()) {
        r.cancelled = true;
        break;
      }
      const bool check = (i + 1) % kCheckEvery == 0;
      const double error = tsneKlGradient(p, y, n, &grad);
      double norm = 0;
      for (std::size_t k = 0; k < y.size(); ++k) {
        const bool inc = update[k] * grad[k] < 0.0;
        gains[k] = std::max(inc ? gains[k] + 0.2 : gains[k] * 0.8, kMinGain);
        grad[k] *= gains[k];
        update[k] = momentum * update[k] - learning_rate * grad[k];
        y[k] += update[k];
      }
      for (double g : grad) norm += g * g;
      r.kl_divergence = error;
      r.iterations = i + 1;
      if (check) {
        if (progress) progress(i + 1, error);
        if (error < best_error) {
          best_error = error;
          best_iter = i;
        } else if (i - best_iter > without_progress) {
          break;
        }
        if (std::sqrt(norm) <= kMinGradNorm) break;
      }
    }
    return i;
  };
  for (double& v : p) v *= kEarlyExaggeration;
  it = descend(0, kExplorationIterations, 0.5, kExplorationIterations);
  for (double& v : p) v /= kEarlyExaggeration;
  if (!r.cancelled && options.iterations > kExplorationIterations)
    descend(it + 1, options.iterations, 0.8, kWithoutProgress);
  if (!r.cancelled) r.kl_divergence = tsneKlGradient(p, y, n, &grad);  // of the final layout
  r.y = std::move(y);
  return r;
}

}  // namespace trainscope

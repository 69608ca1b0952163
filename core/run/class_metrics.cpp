// Per-class curves and their areas, as scikit-learn 1.2 computes them.
#include "core/run/class_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace trainscope {
namespace {

/// sklearn's _binary_clf_curve: false and true positives at each distinct score, scores
/// decreasing (the threshold is the score: score >= threshold counts as positive).
struct ClfCurve {
  std::vector<double> fps, tps, thresholds;
};

ClfCurve binaryClfCurve(const std::vector<double>& scores, const std::vector<char>& positive) {
  const std::size_t n = std::min(scores.size(), positive.size());
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  ClfCurve c;
  double tp = 0;
  for (std::size_t k = 0; k < n; ++k) {
    tp += positive[order[k]] ? 1 : 0;
    // the last sample of a run of equal scores closes a threshold
    if (k + 1 == n || scores[order[k + 1]] != scores[order[k]]) {
      c.tps.push_back(tp);
      c.fps.push_back(static_cast<double>(k + 1) - tp);
      c.thresholds.push_back(scores[order[k]]);
    }
  }
  return c;
}

PrecisionRecallCurve prCurveOf(const ClfCurve& c) {
  PrecisionRecallCurve out;
  const std::size_t m = c.tps.size();
  const double total = m > 0 ? c.tps.back() : 0;
  for (std::size_t j = m; j-- > 0;) {  // reversed: recall decreasing, thresholds increasing
    const double ps = c.tps[j] + c.fps[j];
    out.precision.push_back(ps != 0 ? c.tps[j] / ps : 0.0);
    out.recall.push_back(total == 0 ? 1.0 : c.tps[j] / total);
    out.thresholds.push_back(c.thresholds[j]);
  }
  out.precision.push_back(1.0);
  out.recall.push_back(0.0);
  return out;
}

RocCurve rocCurveOf(ClfCurve c) {
  if (c.fps.size() > 2) {  // drop_intermediate: keep the corners (second differences != 0)
    ClfCurve kept;
    for (std::size_t j = 0; j < c.fps.size(); ++j) {
      const bool end = j == 0 || j + 1 == c.fps.size();
      const bool corner =
          !end && (c.fps[j + 1] - 2 * c.fps[j] + c.fps[j - 1] != 0 ||
                   c.tps[j + 1] - 2 * c.tps[j] + c.tps[j - 1] != 0);
      if (end || corner) {
        kept.fps.push_back(c.fps[j]);
        kept.tps.push_back(c.tps[j]);
        kept.thresholds.push_back(c.thresholds[j]);
      }
    }
    c = std::move(kept);
  }
  RocCurve out;
  if (c.fps.empty()) return out;
  c.fps.insert(c.fps.begin(), 0.0);
  c.tps.insert(c.tps.begin(), 0.0);
  c.thresholds.insert(c.thresholds.begin(), c.thresholds.front() + 1);
  const double fn = c.fps.back(), tn = c.tps.back();
  for (std::size_t j = 0; j < c.fps.size(); ++j) {
    out.fpr.push_back(fn > 0 ? c.fps[j] / fn : std::nan(""));
    out.tpr.push_back(tn > 0 ? c.tps[j] / tn : std::nan(""));
  }
  out.thresholds = std::move(c.thresholds);
  return out;
}

/// average_precision_score from the curve: -sum(diff(recall) * precision[:-1]); nullopt when
/// the curve's labels had no positive (its last point counts them).
std::optional<double> averagePrecisionOf(const ClfCurve& clf, const PrecisionRecallCurve& c) {
  if (clf.tps.empty() || clf.tps.back() == 0) return std::nullopt;
  double sum = 0;
  for (std::size_t j = 0; j + 1 < c.recall.size(); ++j)
    sum -= (c.recall[j + 1] - c.recall[j]) * c.precision[j];
  return sum;
}

/// roc_auc_score from the curve: np.trapz(tpr, fpr) (fpr increasing); nullopt when only one
/// class is present.
std::optional<double> aucOf(const ClfCurve& clf, const RocCurve& c) {
  if (clf.tps.empty() || clf.tps.back() == 0 || clf.fps.back() == 0) return std::nullopt;
  double area = 0;
  for (std::size_t j = 0; j + 1 < c.fpr.size(); ++j)
    area += (c.fpr[j + 1] - c.fpr[j]) * (c.tpr[j + 1] + c.tpr[j]) / 2;
  return area;
}

}  // namespace

double f1Score(double precision, double recall) {
  return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
}

std::vector<ClassReport> classReports(const std::vector<double>& scores,
                                      const std::vector<int64_t>& labels,
                                      const std::vector<int64_t>& predicted, int64_t classes,
                                      bool curves) {
  const std::size_t n = labels.size(), k = static_cast<std::size_t>(std::max<int64_t>(classes, 0));
  std::vector<ClassReport> out(k);
  std::vector<int64_t> hits(k, 0);
  for (std::size_t i = 0; i < n && i < predicted.size(); ++i) {
    const auto t = static_cast<std::size_t>(labels[i]), p = static_cast<std::size_t>(predicted[i]);
    if (t < k) ++out[t].support;
    if (p < k) ++out[p].predicted;
    if (t == p && t < k) ++hits[t];
  }
  std::vector<double> score(n);
  std::vector<char> positive(n);
  for (std::size_t c = 0; c < k; ++c) {
    ClassReport& r = out[c];
    r.precision = r.predicted > 0 ? static_cast<double>(hits[c]) / r.predicted : 0.0;
    r.recall = r.support > 0 ? static_cast<double>(hits[c]) / r.support : 0.0;
    r.f1 = f1Score(r.precision, r.recall);
    if (scores.size() < n * k) continue;
    for (std::size_t i = 0; i < n; ++i) {
      score[i] = scores[i * k + c];
      positive[i] = labels[i] == static_cast<int64_t>(c);
    }
    const ClfCurve clf = binaryClfCurve(score, positive);  // one sort for both curves
    PrecisionRecallCurve pr = prCurveOf(clf);
    RocCurve roc = rocCurveOf(clf);
    r.average_precision = averagePrecisionOf(clf, pr);
    r.roc_auc = aucOf(clf, roc);
    if (curves) {
      r.pr = std::move(pr);
      r.roc = std::move(roc);
    }
  }
  return out;
}

namespace {

/// Indices 0..m-1, or at most `most` of them evenly spaced with both ends.
std::vector<std::size_t> thinnedIndices(std::size_t m, std::size_t most) {
  std::vector<std::size_t> keep;
  if (m <= most) {
    for (std::size_t i = 0; i < m; ++i) keep.push_back(i);
    return keep;
  }
  for (std::size_t k = 0; k < most; ++k) {
    const auto i = static_cast<std::size_t>(
        std::llround(static_cast<double>(k) * static_cast<double>(m - 1) / static_cast<double>(most - 1)));
    if (keep.empty() || i != keep.back()) keep.push_back(i);
  }
  return keep;
}

void keepOnly(std::vector<double>& v, const std::vector<std::size_t>& keep) {
  std::vector<double> out;
  out.reserve(keep.size());
  for (std::size_t i : keep)
    if (i < v.size()) out.push_back(v[i]);
  v = std::move(out);
}

}  // namespace

ThresholdCounts thresholdCounts(const std::vector<double>& scores,
                                const std::vector<int64_t>& labels, int64_t classes,
                                int64_t thresholds) {
  ThresholdCounts out;
  if (classes <= 0 || thresholds < 2) return out;
  const auto k = static_cast<std::size_t>(classes);
  const auto t = static_cast<std::size_t>(thresholds);
  out.tp.assign(k, std::vector<int64_t>(t, 0));
  out.fp = out.tp;
  const std::size_t n = std::min(labels.size(), scores.size() / k);
  const double top = static_cast<double>(t - 1);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < k; ++c) {
      const double p = scores[i * k + c];
      const double b = std::isnan(p) ? 0.0 : std::clamp(std::floor(p * top), 0.0, top);
      const bool own = labels[i] == static_cast<int64_t>(c);
      (own ? out.tp : out.fp)[c][static_cast<std::size_t>(b)] += 1;
    }
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t j = t - 1; j-- > 0;) {  // at and above each threshold
      out.tp[c][j] += out.tp[c][j + 1];
      out.fp[c][j] += out.fp[c][j + 1];
    }
  return out;
}

bool thinCurves(ClassReport& r, std::size_t most) {
  const std::size_t pr_n = r.pr.precision.size(), roc_n = r.roc.fpr.size();
  const std::vector<std::size_t> pr = thinnedIndices(pr_n, most);
  const std::vector<std::size_t> roc = thinnedIndices(roc_n, most);
  if (pr.size() < pr_n) {
    keepOnly(r.pr.precision, pr);
    keepOnly(r.pr.recall, pr);
    keepOnly(r.pr.thresholds, pr);
  }
  if (roc.size() < roc_n) {
    keepOnly(r.roc.fpr, roc);
    keepOnly(r.roc.tpr, roc);
    keepOnly(r.roc.thresholds, roc);
  }
  return pr.size() < pr_n || roc.size() < roc_n;
}

}  // namespace trainscope

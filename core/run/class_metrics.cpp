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

}  // namespace trainscope

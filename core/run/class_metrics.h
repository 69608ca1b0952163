#pragma once
/// Per-class quality of a classifier from its scores, one class against the rest: the
/// precision-recall and ROC curves, average precision and ROC AUC, as scikit-learn 1.2's
/// sklearn.metrics computes them (precision_recall_curve, roc_curve with drop_intermediate,
/// average_precision_score, roc_auc_score, f1_score with zero_division=0), value for value on
/// the same scores (tests/cli/evaluate_metrics.py). Torch-free.
#include <cstdint>
#include <optional>
#include <vector>

namespace trainscope {

/// precision_recall_curve: precision and recall for each distinct score taken as the
/// threshold (score >= threshold is positive), thresholds increasing, then the point
/// (recall 0, precision 1) without a threshold (precision and recall one longer).
struct PrecisionRecallCurve {
  std::vector<double> precision, recall, thresholds;
};
/// roc_curve (drop_intermediate=True): false and true positive rates, thresholds decreasing,
/// starting at (0, 0) with threshold max score + 1 (sklearn 1.2's). Rates are nan when the
/// labels have no negative (fpr) or no positive (tpr).
struct RocCurve {
  std::vector<double> fpr, tpr, thresholds;
};

/// f1_score with zero_division=0: 2 p r / (p + r), 0 when p + r is 0.
double f1Score(double precision, double recall);

/// One class against the rest (sklearn's classification_report row and the two areas:
/// average_precision_score, -sum(diff(recall) * precision[:-1]) over the PR curve, nullopt
/// without a positive sample; roc_auc_score, the trapezoidal area under the ROC curve, nullopt
/// when only one class is present, where sklearn raises).
struct ClassReport {
  int64_t support = 0;    ///< samples of the class
  int64_t predicted = 0;  ///< samples predicted as the class
  double precision = 0, recall = 0, f1 = 0;  ///< zero_division=0
  std::optional<double> average_precision, roc_auc;  ///< nullopt: undefined (see above)
  PrecisionRecallCurve pr;  ///< filled when asked for (classReports' `curves`)
  RocCurve roc;
};

/// The report of each of `classes` classes from `scores` [n * classes] (row-major: sample i's
/// probability of class c at i * classes + c), the true classes `labels` [n] and the predicted
/// ones `predicted` [n] (values in [0, classes)).
std::vector<ClassReport> classReports(const std::vector<double>& scores,
                                      const std::vector<int64_t>& labels,
                                      const std::vector<int64_t>& predicted, int64_t classes,
                                      bool curves);

/// Per class, counts at `thresholds` (>= 2) thresholds k / (thresholds - 1) of the samples
/// whose probability of the class (`scores` as in classReports) is at least the threshold,
/// bucketed as TensorBoard's pr_curves plugin does (tensorboard/plugins/pr_curve/summary.py:
/// bucket floor(p * (thresholds - 1)), counted at and above each bucket): `tp[c][k]` of class
/// c's own samples, `fp[c][k]` of the others.
struct ThresholdCounts {
  std::vector<std::vector<int64_t>> tp, fp;
};
ThresholdCounts thresholdCounts(const std::vector<double>& scores,
                                const std::vector<int64_t>& labels, int64_t classes,
                                int64_t thresholds);

/// Thins `r`'s curves to at most `most` (>= 2) points each, evenly by index with both ends
/// kept; a PR curve's thresholds keep the kept points' (the last point has none, as before).
/// Returns true when a curve lost points.
bool thinCurves(ClassReport& r, std::size_t most);

}  // namespace trainscope

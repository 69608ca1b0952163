#pragma once
/// The evaluation view's per-class pages (issue 49 §1): a table of each class's support,
/// precision, recall, F1, average precision and ROC AUC, and the precision-recall and ROC
/// curves of every class against the rest (scikit-learn's definitions, core/run/class_metrics.h).
#include <QWidget>
#include <vector>

#include "core/run/class_metrics.h"

class QCustomPlot;
class QLabel;
class QTableWidget;

namespace trainscope {

/// The per-class table (objectName `classTable`): one row per class, columns Class, Samples,
/// Predicted, Precision, Recall, F1, AP, ROC AUC ("–" where undefined: no sample of the class,
/// or only one class present), with a caption saying what each number means.
class ClassTable : public QWidget {
  Q_OBJECT
 public:
  explicit ClassTable(QWidget* parent = nullptr);
  /// `names` the class names in output order, one per report.
  void set(const std::vector<ClassReport>& reports, const QStringList& names);
  void retranslate();
  QTableWidget* table() const { return table_; }

 protected:
  void changeEvent(QEvent* event) override;
  void showEvent(QShowEvent* e) override;

 private:
  bool stale_ = false;  ///< set() while hidden
  QLabel* caption_;
  QTableWidget* table_;
  std::vector<ClassReport> reports_;
  QStringList names_;
};

/// The PR curves (`prCurves`: precision against recall) or the ROC curves (`rocCurves`: true
/// against false positive rate, with the chance diagonal), one colour per class (tab10 order,
/// as the plots elsewhere), the legend naming each class with its AP or AUC where the plot is
/// at least kLegendMinHeight tall (hovering a curve names it at any size). A two-class task
/// shows class 1's curve alone (class 0's is its mirror).
class ClassCurvesPlot : public QWidget {
  Q_OBJECT
 public:
  enum class Kind { PrecisionRecall, Roc };
  ClassCurvesPlot(Kind kind, QWidget* parent = nullptr);
  void set(const std::vector<ClassReport>& reports, const QStringList& names, bool thinned);
  void retranslate();
  QCustomPlot* plot() const { return plot_; }
  /// The number of curves drawn (for tests).
  int curveCount() const;
  /// The legend name of the curve nearest `pos` (plot pixels) within 8 px, else empty: the
  /// tooltip, also where the plot is too small for the legend.
  QString curveAt(const QPointF& pos) const;
  static constexpr int kLegendMinHeight = 300;  ///< shorter plots hide the legend

 protected:
  void changeEvent(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* e) override;
  void showEvent(QShowEvent* e) override;

 private:
  bool stale_ = false;  ///< set() while hidden
  Kind kind_;
  QLabel* caption_;
  QCustomPlot* plot_;
  std::vector<ClassReport> reports_;
  QStringList names_;
  bool thinned_ = false;
  void draw();
};

}  // namespace trainscope

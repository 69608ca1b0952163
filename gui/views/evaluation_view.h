#pragma once
/// The "Evaluation" tab: the validation split in detail after each epoch (issue 22), as desktop
/// tools' evaluation views show it: a confusion matrix and the worst-predicted samples for
/// classification, predicted against true values for regression.
#include <QWidget>
#include <optional>

#include "core/run/records.h"

class QCustomPlot;
class QCPGraph;
class QLabel;
class QStackedWidget;
class QTableWidget;

namespace trainscope {

class ConfusionMatrixWidget;
struct EvaluationResult;
class WorstImagesWidget;

/// Shows the newest ValidationDetail (objectName `evaluationView`) with the run's class names,
/// image shape and feature names (setRunInfo): the confusion matrix (`confusionMatrix`: rows
/// true classes, columns predicted, each cell shaded by its share of its row, counts written
/// when they fit, a tooltip per cell) above the worst-predicted validation samples (highest
/// cross-entropy first): images as thumbnails with predicted and true class (`worstImages`), or
/// table rows with their values, standardisation undone (`worstRows`). For regression a scatter
/// of predicted against true values of the first output with the line y = x (`evaluationPlot`).
class EvaluationView : public QWidget {
  Q_OBJECT
 public:
  explicit EvaluationView(QWidget* parent = nullptr);

  /// The run whose details follow (a new run clears the view).
  void setRunInfo(const RunInfo& info);
  /// Draws `detail` (replacing the previous one).
  void setDetail(const ValidationDetail& detail);
  /// The newest epoch's record: while no detail is drawn (a run read back from its folder,
  /// whose files hold no predictions) the view names its validation metrics: loss and accuracy,
  /// or R², MAE and RMSE for regression (metrics.csv's values), and how to draw the picture.
  void setEpoch(const EpochRecord& epoch);
  /// The text shown while there is no detail (for tests).
  QString emptyText() const;
  /// The confusion matrix's row labels (for tests): "index name", or the name alone where it
  /// is the index ("3", not "3 3").
  QStringList matrixLabels() const;
  /// Shows a checkpoint's evaluation (EvaluationDialog): the confusion matrix with each class's
  /// support, precision and recall, or predicted against true values (first output).
  void showEvaluation(const EvaluationResult& result);
  void clear();
  void retranslate();

  const std::optional<ValidationDetail>& detail() const { return detail_; }
  /// The caption's text (for tests).
  QString caption() const;

 protected:
  void changeEvent(QEvent* event) override;
  /// Fills the worst-samples table if a detail came while the view was hidden.
  void showEvent(QShowEvent* event) override;

 private:
  /// The worst samples as table rows; while the view is hidden only noted (rows_stale_): at
  /// the highest step rate a detail comes with every epoch, several a second, and laying the
  /// table's header out each time took a tenth of the GUI thread.
  void showRows(const ValidationDetail& d);
  bool rows_stale_ = false;
  QString className(int64_t c) const;

  std::optional<RunInfo> info_;
  std::optional<ValidationDetail> detail_;
  std::optional<EpochRecord> epoch_;  ///< the newest epoch (setEpoch)
  QString evaluation_caption_;  ///< set by showEvaluation: the caption replaces the epoch's
  QLabel* caption_;
  QStackedWidget* stack_;
  QLabel* empty_;
  QWidget* classification_;
  ConfusionMatrixWidget* matrix_;
  QStackedWidget* worst_stack_;
  WorstImagesWidget* worst_images_;
  QTableWidget* worst_rows_;
  QLabel* worst_caption_;
  QCustomPlot* plot_;
  QCPGraph* points_;
  QCPGraph* diagonal_;
};

}  // namespace trainscope

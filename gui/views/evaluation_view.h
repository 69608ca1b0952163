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
class QPushButton;
class QSlider;
class QStackedWidget;
class QTabWidget;
class QToolButton;
class QTableWidget;

namespace trainscope {

class ClassCurvesPlot;
class ClassTable;
class ConfusionMatrixWidget;
struct EvaluationResult;
class WorstImagesWidget;

/// Shows the newest ValidationDetail (objectName `evaluationView`) with the run's class names,
/// image shape and feature names (setRunInfo). Classification: the confusion matrix
/// (`confusionMatrix`: rows true classes, columns predicted, each cell shaded by its share of
/// its row, counts written when they fit, a tooltip per cell; a click shows that cell's
/// samples), for two classes a threshold slider (`thresholdSlider`, 0 to 1 in steps of 0.005:
/// the matrix when class 1 is predicted at that probability), and tabs (`evaluationTabs`):
/// the samples (the worst-predicted, highest cross-entropy first, or the clicked cell's: images
/// as thumbnails `worstImages`, table rows with their values, standardisation undone,
/// `worstRows`), the per-class table (`classTable`: support, precision, recall, F1, AP, ROC
/// AUC), the PR curves (`prCurves`) and the ROC curves (`rocCurves`). Regression: a scatter of
/// predicted against true values of the first output with the line y = x (`evaluationPlot`).
class GradCamControls;

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
  /// Shows a checkpoint's evaluation (EvaluationDialog): the confusion matrix, the per-class
  /// table and curves computed from its scores (the threshold slider for two classes), or
  /// predicted against true values (first output).
  void showEvaluation(const EvaluationResult& result);
  void clear();
  void retranslate();

  const std::optional<ValidationDetail>& detail() const { return detail_; }
  /// The caption's text (for tests).
  QString caption() const;
  /// The parts, for tests.
  ConfusionMatrixWidget* matrix() const { return matrix_; }
  ClassTable* classTable() const { return class_table_; }
  ClassCurvesPlot* prCurves() const { return pr_curves_; }
  ClassCurvesPlot* rocCurves() const { return roc_curves_; }
  QSlider* thresholdSlider() const { return threshold_; }
  QString samplesCaption() const;
  /// Opens this epoch's evaluation in a window of its own (`evaluationWindow`, 960x720; the
  /// button `evaluationWindowButton`): a copy that stays while training goes on. Returns it.
  QWidget* openWindow();

 protected:
  void changeEvent(QEvent* event) override;
  /// Fills the worst-samples table if a detail came while the view was hidden.
  void showEvent(QShowEvent* event) override;

 private:
  /// The worst samples as table rows; while the view is hidden only noted (rows_stale_): at
  /// the highest step rate a detail comes with every epoch, several a second, and laying the
  /// table's header out each time took a tenth of the GUI thread.
  void showRows(const std::vector<WorstSample>& samples);
  bool rows_stale_ = false;
  QString className(int64_t c) const;
  /// The matrix: the detail's, or for two classes at the slider's threshold.
  void showMatrix();
  /// The samples page: the clicked cell's samples, or the worst ones.
  void showSamples();
  const std::vector<WorstSample>& shownSamples() const;
  void retranslateSamples();
  void retranslateThreshold();
  std::optional<std::pair<int, int>> cell_;  ///< the clicked cell (true, predicted)

  std::optional<RunInfo> info_;
  std::optional<ValidationDetail> detail_;
  std::optional<EpochRecord> epoch_;  ///< the newest epoch (setEpoch)
  QString evaluation_caption_;  ///< set by showEvaluation: the caption replaces the epoch's
  QLabel* caption_;
  QStackedWidget* stack_;
  QLabel* empty_;
  QWidget* classification_;
  ConfusionMatrixWidget* matrix_;
  QWidget* threshold_row_;
  QLabel* threshold_label_;
  QSlider* threshold_;
  QTabWidget* tabs_;
  QWidget* samples_page_;
  QPushButton* show_worst_;
  QToolButton* window_button_;
  GradCamControls* grad_cam_;
  ClassTable* class_table_;
  ClassCurvesPlot* pr_curves_;
  ClassCurvesPlot* roc_curves_;
  QStackedWidget* worst_stack_;
  WorstImagesWidget* worst_images_;
  QTableWidget* worst_rows_;
  QLabel* worst_caption_;
  QCustomPlot* plot_;
  QCPGraph* points_;
  QCPGraph* diagonal_;
};

}  // namespace trainscope

#pragma once
/// Evaluate without training, in the dashboard: a checkpoint's model on a split of its
/// own data, as `trainscope-cli evaluate` does.
#include <QDialog>
#include <QString>

class QComboBox;
class QLabel;
class QPushButton;

namespace trainscope {

class EvaluationView;
struct EvaluationResult;

/// Evaluates `checkpoint` (evaluateCheckpoint in core/train/probes/evaluation.h) on the split
/// chosen in evaluationSplitComboBox (val, test, train) on a worker thread, with the recorded
/// preprocessing, and shows loss, accuracy, the confusion matrix and per-class precision and
/// recall in an EvaluationView; a checkpoint or data that cannot be used shows its error.
class EvaluationDialog : public QDialog {
  Q_OBJECT
 public:
  EvaluationDialog(const QString& checkpoint, QWidget* parent = nullptr);
  /// Starts evaluating the chosen split (the result replaces the previous one).
  void evaluate();
  EvaluationView* view() const { return view_; }
  /// The error of the last evaluation, empty when it succeeded (for tests).
  QString error() const { return error_; }

 signals:
  void finished(bool ok);

 private:
  void showResult(int generation, const EvaluationResult* result, const QString& error);

  QString checkpoint_;
  QComboBox* split_;
  QPushButton* run_;
  QLabel* status_;
  EvaluationView* view_;
  QString error_;
  int generation_ = 0;
};

}  // namespace trainscope

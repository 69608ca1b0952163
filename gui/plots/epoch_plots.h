#pragma once
/// Side plots of the overfitting views: accuracy per epoch and the learning rate over steps.
#include "gui/plots/live_plot.h"

namespace trainscope {

/// Validation and training accuracy per epoch (classification), drawn at the step where each
/// epoch ended (objectName `accuracyPlot`), from series::kEpochValAccuracy and
/// kEpochTrainAccuracy. The training accuracy is measured on the fly in train mode (dropout on).
class AccuracyPlot : public LivePlot {
  Q_OBJECT
 public:
  explicit AccuracyPlot(QWidget* parent = nullptr);
  void retranslate() override;
};

/// The learning rate each step used (series::kStepLr; schedulers step it once per epoch, live
/// changes from the next step) (objectName `lrPlot`).
class LrPlot : public LivePlot {
  Q_OBJECT
 public:
  explicit LrPlot(QWidget* parent = nullptr);
  void retranslate() override;
};

}  // namespace trainscope

#pragma once
/// The learning-rate range test's plot: loss against learning rate, drawn from named series.
#include "core/train/probes/lr_finder.h"
#include "gui/plots/live_plot.h"

namespace trainscope {

/// Loss per step and its smoothed curve against the learning rate (log axis; series
/// kLrFindLoss / kLrFindSmoothed of a history of its own, x = the learning rate), the value
/// axis following the smoothed curve without the diverged last point, and the suggested
/// learning rate marked by a dashed line with its label below the legend row (objectName
/// `lrFindPlot`). Hovering names the learning rate, not a step.
class LrFindPlot : public LivePlot {
  Q_OBJECT
 public:
  static constexpr const char* kLrFindLoss = "lr_find/loss";
  static constexpr const char* kLrFindSmoothed = "lr_find/smoothed_loss";

  explicit LrFindPlot(QWidget* parent = nullptr);
  /// Draws `result` (replacing what was drawn).
  void showResult(const LrFinderResult& result);
  /// The suggestion marker's learning rate; 0 before a result with a suggestion.
  double markedLr() const { return marked_lr_; }
  /// The suggestion's label (nullptr before one), for layout checks.
  QCPItemText* suggestionLabel() const { return label_; }
  void retranslate() override;
  /// Syncs, then keeps the axes on the sweep (learning rates, the smoothed loss).
  void sync() override;

 protected:
  QString describePoint(const QCPGraph* graph, double key, double value,
                        bool marker) const override;

 private:
  void fitRanges();

  RunHistory history_;
  double marked_lr_ = 0;
  double lr_lo_ = 0, lr_hi_ = 0, loss_lo_ = 0, loss_hi_ = 0;
  bool has_loss_range_ = false;
  QCPItemStraightLine* line_ = nullptr;
  QCPItemText* label_ = nullptr;
};

}  // namespace trainscope

#pragma once
/// AMP on the plots: the loss-scale view (bottom tabs) and the marks where AMP was switched.
#include <QObject>
#include <QPointer>
#include <vector>

#include "core/run/records.h"
#include "gui/plots/live_plot.h"

class QCPItemStraightLine;
class QCPItemText;

namespace trainscope {

class PlotArea;
class RunStore;

/// The GradScaler's loss scale per step (series::kStepLossScale, a step line on a log axis)
/// and the steps it skipped (series::kStepScalerSkipped, red crosses at the scale they used).
/// objectName `lossScalePlot`. The scale exists only with fp16 AMP on CUDA: while the series
/// is empty the plot says why in its middle (`overlayText()`): on the CPU AMP is bf16, which
/// has float32's exponent range and needs no scaler.
class LossScalePlot : public LivePlot {
  Q_OBJECT
 public:
  /// `store` (optional, not owned): the shown run, which tells its device and AMP state.
  explicit LossScalePlot(const RunStore* store = nullptr, QWidget* parent = nullptr);
  void sync() override;
  void retranslate() override;
  /// The text shown while there is no scale to draw; empty when the scale is drawn.
  QString overlayText() const;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void updateOverlay();

  QString run_device_;  ///< "cpu", "cuda:0"; empty before the first run
  bool amp_ = false;
  QCPItemText* overlay_ = nullptr;
  QString overlay_key_;  ///< the text, width and font the overlay was last laid out for
};

/// Draws a dashed vertical line with "AMP on" / "AMP off" on the loss and gradient-norm plots
/// where AMP was switched during the run (the config_changed event with what "training.amp":
/// the change applies from step event.step + 1, so the line sits at event.step + 0.5). The
/// marks of a run are removed when the next run starts.
class AmpMarks : public QObject {
  Q_OBJECT
 public:
  AmpMarks(PlotArea* area, const RunStore* store);
  /// The switches marked in the current run: (step of the event, AMP on).
  const std::vector<std::pair<qint64, bool>>& switches() const { return switches_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void add(qint64 step, bool on);
  void clear();
  void relabel();

  struct Mark {
    QPointer<LivePlot> plot;
    QCPItemStraightLine* line;
    QCPItemText* text;
    bool on;
  };
  PlotArea* area_;
  std::vector<Mark> marks_;
  std::vector<std::pair<qint64, bool>> switches_;
};

/// Adds the loss-scale view to `area`'s bottom tabs and the AMP switch marks (one call from
/// MainWindow::buildUi).
void addAmpViews(PlotArea* area, const RunStore* store);

}  // namespace trainscope

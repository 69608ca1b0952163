#pragma once
/// The dashboard's two training plots, each a LivePlot bound to run-history series by name.
#include <vector>

#include "core/config/config_diff.h"
#include "gui/plots/live_plot.h"

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QPushButton;

namespace trainscope {

/// Loss over steps: per-step training loss drawn light, per-epoch training and validation loss
/// bold at the step where the epoch ended (objectName `lossPlot`); the previous run's epoch
/// losses, when kept, faint and dashed underneath, labelled with what the new run changed.
class LossPlot : public LivePlot {
  Q_OBJECT
 public:
  explicit LossPlot(QWidget* parent = nullptr);
  /// Sets axis labels and legend names in the current language.
  void retranslate() override;
  /// Draws epoch markers only while there are few epochs (hundreds of them hide the curve).
  void sync() override;
  /// Names the previous run's ghost curves (series::kGhost...) by what the new run changed.
  void setGhostChanges(const std::vector<ConfigChange>& changes);
  bool ghostShown() const { return ghost_shown_; }
  /// "Dashed: the previous run, dropout 0.0 → 0.3" (translated), for the plot's toolbar.
  QString ghostDescription() const;
  /// The "Clear previous run" control was used (the owner removes the ghost series).
  void requestClearGhost() { emit clearGhostRequested(); }

 signals:
  /// The ghost appeared, went or was renamed.
  void ghostChanged();
  void clearGhostRequested();

 private:
  QString ghost_label_;
  bool ghost_shown_ = false;
};

/// Gradient norm over steps: the norm before clipping, the norm the optimizer used (drawn on
/// top), the clipping threshold max_norm as a series (series::kStepMaxNorm: the max_norm in
/// force at each step, so it moves when max_norm changes mid-run) and the clipped steps shaded
/// (series::kStepClipped, a light bar up to the norm at each step clipping scaled down). The
/// clipping curves show while clipping is on or once the run has points of them
/// (objectName `gradNormPlot`).
class GradNormPlot : public LivePlot {
  Q_OBJECT
 public:
  explicit GradNormPlot(QWidget* parent = nullptr);
  void retranslate() override;
  /// Shows or hides the clipping curves and names the threshold (the run's current setting).
  void setClipping(bool enabled, double max_norm);
  /// Shows the clipping curves as soon as they have points (clipping turned on mid-run).
  void sync() override;

 private:
  void showClipCurves(bool shown);
  bool clip_shown_ = false;
  bool clip_enabled_ = false;
  double max_norm_ = 0;
};

/// A plot with its own small toolbar (legend and log-scale toggles) above it, so each control
/// reads as belonging to its plot.
class PlotView : public QWidget {
  Q_OBJECT
 public:
  /// Takes ownership of `plot`. `name` prefixes the objectNames of its controls
  /// (`<name>LogCheckBox`, `<name>LegendCheckBox`).
  PlotView(LivePlot* plot, const QString& name, QWidget* parent = nullptr);
  LivePlot* plot() const { return plot_; }
  QCheckBox* logScaleBox() const { return log_scale_; }
  QCheckBox* legendBox() const { return legend_; }
  /// Puts `widget` at the left end of the toolbar (e.g. the clip share beside the gradient
  /// norm plot); ownership passes to the view.
  void addBarWidget(QWidget* widget);
  void retranslate();

 private:
  LivePlot* plot_;
  QCheckBox* log_scale_;
  QCheckBox* legend_;
  QHBoxLayout* bar_;
  void updateGhost();
  QPushButton* clear_ghost_ = nullptr;  ///< loss plots only: `<name>ClearGhostButton`
  QLabel* ghost_label_ = nullptr;       ///< loss plots only: `<name>GhostLabel`
};

}  // namespace trainscope

#pragma once
/// The dashboard's two training plots, each a LivePlot bound to run-history series by name.
#include <optional>
#include <vector>

#include "core/config/config_diff.h"
#include "core/run/records.h"
#include "gui/plots/live_plot.h"

class QCheckBox;
class QHBoxLayout;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

class QCPTextElement;

namespace trainscope {

/// Loss over steps: per-step training loss drawn faint with a smoothed curve over it (core's
/// emaDebiased or movingAverage, core/run/smoothing.h), per-epoch training and validation loss
/// bold at the step where the epoch ended, the generalisation gap (validation - training)
/// shaded between them, the best-validation epoch marked and labelled, and markers for the
/// overfitting onset, the early-stopping preview and event, and learning-rate changes
/// (objectName `lossPlot`); the previous run's epoch losses (the run bound as runs::kPrevious,
/// setRun), when kept, faint and dashed underneath, labelled with what the new run changed.
class LossPlot : public LivePlot {
  Q_OBJECT
 public:
  /// How the per-step loss is smoothed for display (the raw curve always stays drawn).
  enum class Smoothing {
    Off,
    Ema,    ///< TensorBoard's debiased EMA, strength = weight in [0, 1)
    Window  ///< trailing moving average, strength = window in steps
  };

  explicit LossPlot(QWidget* parent = nullptr);
  /// Sets axis labels and legend names in the current language.
  void retranslate() override;
  /// Draws epoch markers only while there are few epochs (hundreds of them hide the curve),
  /// recomputes the smoothed curve and the best-validation marker.
  void sync() override;
  /// Names the previous run's ghost curves (runs::kPrevious) by the run they come from
  /// (`name`, its config name) and what the new run changed. The ghost never widens the axes.
  /// `chosen`: the ghost is a run picked in the Runs window (named "Chosen run", not
  /// "Previous run").
  void setGhostChanges(const std::vector<ConfigChange>& changes, const QString& name = {},
                       bool chosen = false);
  bool ghostShown() const { return ghost_shown_; }
  /// The run's teaching.mistakes: a red line above the plot names them while the run is shown
  /// (lossMistakesBanner; none without mistakes), so no such curve is taken for a real one.
  void setMistakes(const std::vector<std::string>& names);
  /// The banner's text (empty when none is shown; broken into lines to fit the plot).
  QString mistakesBanner() const;
  /// "Dashed: the previous run (moons), dropout 0.0 → 0.3" (translated), for the plot's
  /// toolbar.
  QString ghostDescription() const;
  /// The "Clear previous run" control was used (the owner empties the previous run).
  void requestClearGhost() { emit clearGhostRequested(); }

  /// Smoothing of the per-step loss (default: EMA, weight 0.95). `strength`: the EMA weight
  /// (clamped to [0, 0.999]) or the window in steps (rounded, at least 1).
  void setSmoothing(Smoothing mode, double strength);
  Smoothing smoothing() const { return smoothing_; }
  double smoothingStrength() const { return smoothing_strength_; }
  /// The smoothed curve as drawn: (step, value) for each finite per-step loss in the history,
  /// smoothed over those finite values (non-finite losses are markers, not points).
  QVector<QCPGraphData> smoothedPoints() const;
  /// The best-validation epoch (1-based index of the smallest finite per-epoch validation loss;
  /// the first on ties), marked "best: epoch N (value)", and the step it is drawn at; nullopt
  /// before the first finite validation loss, and when the lowest is above kNoBestFactor times
  /// the run's first training loss (no epoch beat the untrained model: a diverged run).
  std::optional<qint64> bestEpoch() const { return best_epoch_; }
  static constexpr double kNoBestFactor = 1.5;
  double bestEpochStep() const { return best_step_; }

  /// Marks an engine event: overfitting onset (at its onset epoch, Event::value), early stop,
  /// or a learning-rate config_changed; other kinds are ignored. `stepsPerEpoch` maps epochs to
  /// the step axis.
  void addEvent(const Event& event, double stepsPerEpoch);
  /// The early-stopping preview: the epoch at which it would fire (EpochRecord::early_stop_at);
  /// nullopt hides it.
  void setEarlyStopPreview(std::optional<qint64> epoch, double stepsPerEpoch);
  /// Forgets the event markers and the preview (a new run).
  void clearAnnotations();
  /// Event markers drawn (for tests): kind and step of each.
  struct Marker {
    EventKind kind;
    double step;
    double value;
  };
  const std::vector<Marker>& markers() const { return markers_; }
  std::optional<qint64> earlyStopPreview() const { return preview_epoch_; }

 signals:
  /// The ghost appeared, went or was renamed.
  void ghostChanged();
  void clearGhostRequested();

 private:
  void updateSmoothed();
  void updateBest();
  void alignLabels();
  void rebuildMarkerItems();

  QString ghost_label_;
  QString ghost_name_;
  bool ghost_shown_ = false;
  bool ghost_chosen_ = false;
  QString wrappedBanner() const;
  std::vector<std::string> mistakes_;
  QCPTextElement* mistakes_banner_ = nullptr;  ///< row 0 of the layout while mistakes_ is set
  Smoothing smoothing_ = Smoothing::Ema;
  double smoothing_strength_ = 0.95;
  QCPGraph* smoothed_ = nullptr;
  std::uint64_t smoothed_stamp_ = ~std::uint64_t{0};
  std::optional<qint64> best_epoch_;
  double best_step_ = 0;
  double best_value_ = 0;
  QCPItemStraightLine* best_line_ = nullptr;
  QCPItemText* best_label_ = nullptr;
  std::vector<Marker> markers_;
  std::vector<QCPAbstractItem*> marker_items_;
  std::optional<qint64> preview_epoch_;
  double preview_step_ = 0;
};

/// Gradient norm over steps: the norm before clipping, the norm the optimizer used (drawn on
/// top, wide: where clipping acts it equals max_norm), the clipping threshold max_norm (thin,
/// dashed, over it) as a series (series::kStepMaxNorm: the max_norm in
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

 protected:
  /// At a clipped step: "before clipping 56.77 → after 1" and the max_norm, whichever of the
  /// step's curves is nearest.
  QString describePoint(const QCPGraph* graph, double key, double value,
                        bool marker) const override;

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
  /// Loss plots: the EMA weight that suits a run of `planned_steps` optimizer steps
  /// (emaWeightForRun, core/run/smoothing.h), set in the bar's spin box at a run's start while
  /// the user has not picked a smoothing of their own (mode or strength) and the mode is EMA.
  void suggestSmoothingForRun(long long planned_steps);
  /// Shows or hides the bar above the plot (presentation mode hides it; the ghost's
  /// controls keep their own visibility when it comes back).
  void setBarShown(bool shown);
  void retranslate();

 private:
  LivePlot* plot_;
  QCheckBox* log_scale_;
  QCheckBox* legend_;
  bool bar_hidden_ = false;
  QHBoxLayout* bar_;
  void updateGhost();
  void updateSmoothingControl();
  QComboBox* smoothing_mode_ = nullptr;           ///< loss plots only: `<name>SmoothingComboBox`
  QDoubleSpinBox* smoothing_strength_ = nullptr;  ///< loss plots only: `<name>SmoothingSpinBox`
  bool smoothing_chosen_ = false;  ///< the user changed the smoothing: no more suggestions
  bool suggesting_ = false;        ///< suggestSmoothingForRun is setting the spin box
  QPushButton* clear_ghost_ = nullptr;            ///< loss plots only: `<name>ClearGhostButton`
  QLabel* ghost_label_ = nullptr;                 ///< loss plots only: `<name>GhostLabel`
};

}  // namespace trainscope

#pragma once
/// The GUI side of the gradient watch, wired in one place: the clip share beside the
/// gradient-norm plot, the per-layer view, the diagnosis view, the non-finite panel, the
/// non-finite step marked on the plots, and clipping changed live from the settings.
#include <QObject>
#include <QString>

#include "core/run/records.h"
#include "core/train/monitors/clip_stats.h"

class QLabel;
class QTimer;

namespace trainscope {

class DiagnosisPanel;
class LayerPlot;
class NonFinitePanel;
class PlotArea;
class SettingsPanel;
class RunCommands;

/// Created once by the main window. Adds the `layerPlot` view (bottom tabs) and the
/// `diagnosisPanel` view (side tabs) to `plots`, puts `clipShareLabel` in the gradient-norm
/// plot's toolbar, and owns the `nonFinitePanel` that the window places above the plots.
/// Clipping in force (RunStore::liveConfig: the settings' live edits, a roll-back with
/// clipping) shows in the settings and on the plot.
class GradientWatchViews : public QObject {
  Q_OBJECT
 public:
  GradientWatchViews(RunCommands* controller, PlotArea* plots, SettingsPanel* settings,
                     QObject* parent = nullptr);

  NonFinitePanel* nonFinitePanel() const { return non_finite_; }
  LayerPlot* layerPlot() const { return layers_; }
  DiagnosisPanel* diagnosisPanel() const { return diagnosis_; }
  /// The clip statistics of the current run (core's ClipStats fed with every step record).
  const ClipStats& clipStats() const { return clip_stats_; }
  /// "Clipped: 12.0 % of the last 100 steps, 8.0 % of the run" for `stats` (translated).
  static QString clipShareText(const ClipStats& stats);
  /// Updates the clip share label now (it is otherwise refreshed at most 5 times a second).
  void refreshClipShare();

 private:
  void onRunStarted();
  void onEvent(const Event& event);
  void showClipping(bool enabled, double maxNorm);
  void markStep(qint64 step);
  void retranslate();
  bool eventFilter(QObject* watched, QEvent* event) override;

  RunCommands* controller_;
  PlotArea* plots_;
  SettingsPanel* settings_;
  NonFinitePanel* non_finite_;
  LayerPlot* layers_;
  DiagnosisPanel* diagnosis_;
  QLabel* clip_share_;
  QTimer* clip_timer_;
  ClipStats clip_stats_;
};

}  // namespace trainscope

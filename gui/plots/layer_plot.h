#pragma once
/// The per-layer view of the gradient watch: gradient norm per parameter tensor, and
/// beside it the update-to-weight ratio per tensor against the commonly taught healthy band.
#include <QWidget>
#include <string>
#include <vector>

#include "core/run/watch_records.h"

class QHBoxLayout;
class QLabel;
class QTimer;

namespace trainscope {

class LivePlot;
class RunHistory;
class RunStore;

/// Two live plots side by side (objectName `layerPlot`): left (`layerGradPlot`) the gradient
/// norm of each parameter tensor (state_dict names, series::layerGradNorm) per measured step,
/// right (`layerRatioPlot`) ||w_after - w_before|| / ||w_before|| per tensor
/// (series::layerUpdateRatio) on a log axis, with the band 1e-4 .. 1e-2 (log10 -4 .. -2) shaded
/// and 1e-3 drawn: above the band the learning rate is too high for that layer, below it too
/// low. So the layer that explodes first is the line that leaves the others first. With more
/// than kMaxLines tensors, the kMaxLines with the largest gradient norm at the first record are
/// drawn. The plots follow the run's history themselves (bound when the first LayerStatsRecord of a
/// run names the tensors, redrawn at most every 100 ms) and share the step axis of `stepAxis`.
class LayerPlot : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kMaxLines = 10;
  /// The healthy band of the update ratio (a plain ratio; log10 -4 .. -2, centre -3).
  static constexpr double kBandLow = 1e-4, kBandHigh = 1e-2, kBandCentre = 1e-3;

  /// `stepAxis`: the plot whose step axis the two plots follow (the loss plot); may be null.
  LayerPlot(const RunStore* store, LivePlot* stepAxis, QWidget* parent = nullptr);

  LivePlot* gradPlot() const { return grad_; }
  LivePlot* ratioPlot() const { return ratio_; }
  /// Parameter tensors drawn, in state_dict order.
  const std::vector<std::string>& layers() const { return layers_; }
  /// Copies new points into both plots now.
  void sync();

 protected:
  void changeEvent(QEvent* event) override;
  /// Lays the plots out again at once when the tab is shown (window grabs included).
  void showEvent(QShowEvent* event) override;

 private:
  void onLayerStats(const LayerStatsRecord& stats);
  void rebuild(const LayerStatsRecord& stats);
  void retranslate();

  const RunStore* store_;
  LivePlot* step_axis_;
  QHBoxLayout* row_;
  LivePlot* grad_ = nullptr;
  LivePlot* ratio_ = nullptr;
  QLabel* hint_;
  QTimer* timer_;
  std::vector<std::string> names_;   ///< every tensor of the run (the record's names)
  std::vector<std::string> layers_;  ///< the tensors drawn
};

}  // namespace trainscope

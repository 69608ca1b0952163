#pragma once
/// The presentation style of a QCustomPlot: larger texts, wider lines, the
/// projector palette, applied over whatever the plot's own code set.
#include <qcustomplot.h>

#include <map>
#include <utility>

#include "gui/widgets/presentation_state.h"

namespace trainscope {

/// Tick label size in presentation mode at scale 1.5, px: readable from the back of a hall.
constexpr int kPresentationTickPx = 20;
/// The plots' font ratio in presentation mode at `scale` (1.5 to 2) for an interface font of
/// `basePx` pixels: `scale`, or more where that leaves tick labels under
/// kPresentationTickPx * scale / 1.5.
double presentationFontRatio(double scale, int basePx);

/// Restyles one plot before each of its replots: every text (tick labels, axis titles, legend,
/// text items and elements) `fontRatio` times its designed pixel size (legend and texts inside
/// the plot 0.8 times that, at least their own size; the legend at least the styled tick
/// labels'), every line (graphs,
/// straight lines, arrows, rectangles) `lineScale` times its width and an opaque one at least
/// 3 px, every colour palette::forProjector's. The plot's code keeps setting pens and fonts as
/// designed: a value that differs from what was last shown is taken as the new design, so no
/// plot needs to know the mode. apply(plot, 1, 1) puts the designed values back.
class PlotStyler {
 public:
  /// Also marks the plot (property "trainscopePresenting") while it is styled.
  /// `legendShrink` (0.6..1): the legend's font that much smaller again, where even one entry a
  /// row is wider than the plot.
  void apply(QCustomPlot* plot, double lineScale, double fontRatio, double legendShrink = 1);
  bool active() const { return line_scale_ != 1 || font_ratio_ != 1; }

 private:
  template <class T>
  struct Styled {
    T designed, shown;
  };
  double line_scale_ = 1, font_ratio_ = 1;
  /// Per styled object and which of its properties.
  std::map<std::pair<const void*, int>, Styled<QPen>> pens_;
  std::map<std::pair<const void*, int>, Styled<QBrush>> brushes_;
  std::map<std::pair<const void*, int>, Styled<QFont>> fonts_;
};

/// Keeps `plot`, a plot outside the dashboard's plot area (a dialog's: Verify, AMP A/B, Compare
/// curves; the Evaluation tab's), in presentation mode's style while it is on, checked before
/// each replot (1-2 px curves and small texts on the projector).
void followPresentation(QCustomPlot* plot);

/// Tick counts for `plot`'s size, spaced as the live plots space them (y labels 2.5 lines
/// apart, x labels 60 px): a short plot in the bottom tabs gets fewer. Call on resize.
void fitTickCounts(QCustomPlot* plot);

}  // namespace trainscope

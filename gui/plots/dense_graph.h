#pragma once
/// A QCPGraph that draws a dense line (more vertices than pixel columns) as the pixels that
/// line covers, one filled span per pixel column, instead of stroking every segment.
#include <qcustomplot.h>

#include <QImage>
#include <QRect>
#include <QString>
#include <QVector>
#include <vector>

namespace trainscope {

/// Zeroes the upper halves of the AVX registers (vzeroupper) where the CPU has AVX; nothing
/// elsewhere. Debian's Qt 6.4 leaves them in use after painting (QImage::fill, opaque rects,
/// lines: its AVX2 routines return without vzeroupper), and on Intel CPUs every SSE
/// instruction after that waits on the upper halves: the GUI thread's plain floating-point
/// code (QCustomPlot's coordinate mapping, the plots' sampling) ran 3-4x slower (DenseGraph's
/// sampling of 18,000 points: 0.37 ms, 0.08 ms after this). Safe at any call: every vector
/// register is caller-saved in the x86-64 ABI. Called where the GUI's numeric loops start.
void clearUpperVectorState();

/// The per-pixel-column envelope of a polyline: for each integer column c of `bounds` crossed
/// by the line, the lowest and highest y (pixels) the line takes within [c, c+1), every segment
/// clipped to the column by linear interpolation, so consecutive columns always touch and the
/// envelope covers what stroking the segments with a 1-px pen covers. `lines` are pixel points
/// in increasing x (QCPGraph::getLines for a horizontal key axis); a point with a non-finite
/// coordinate breaks the line there (as QPainter::drawPolyline in QCPGraph does). y is clamped
/// to just outside `bounds` (a point off the axis rect, or at 1e30 on a linear axis).
struct ColumnEnvelope {
  int first = 0;                ///< the column of lo[0] and hi[0] (bounds.left())
  std::vector<double> lo, hi;   ///< per column; lo > hi (+inf, -inf) where the line is absent
  bool has(std::size_t k) const { return lo[k] <= hi[k]; }
};
ColumnEnvelope columnEnvelope(const QVector<QPointF>& lines, const QRect& bounds);

/// Moves the envelope's first column into the second: the value axis' line is drawn over the
/// axis rect's first pixel column, where the run's first step lies (a spike at step 1 or 2
/// would be hidden under the axis).
void moveOffLeftEdge(ColumnEnvelope& env);

/// One rect per column (x = column, width 1), in increasing x, covering what a pen of
/// `penWidth` pixels (0 or 1: one pixel) stroking the line covers: the envelope from lo to hi,
/// widened by round(penWidth) - 1 pixels, half up and left, half down and right (a column
/// next to the line's end included), each at least 1 px high.
QVector<QRect> columnSpans(const ColumnEnvelope& env, double penWidth);

/// The y (pixels) of a polyline (as for columnEnvelope) at the centre x = c + 0.5 of each
/// column c of `bounds`, by linear interpolation; NaN where the line is absent or broken.
std::vector<double> columnCentres(const QVector<QPointF>& lines, const QRect& bounds);

/// The fill between two curves given by columnCentres (both from column `firstColumn`): in each
/// column where both are present, the rows whose centres lie between them, as QPainter fills
/// the channel polygon (x = column, width 1; none where they meet within a row).
QVector<QRect> channelSpans(const std::vector<double>& a, const std::vector<double>& b,
                            int firstColumn);

/// QCPGraph, drawn the same way except when it is dense. With a solid pen, a horizontal key
/// axis and a raster (not vector) painter:
/// - a line of more vertices than pixel columns is drawn without antialiasing;
/// - a line of more than 2 vertices per pixel column (a per-step curve of 10^6 steps after
///   QCustomPlot's adaptive sampling keeps ~4 per column, each a near full-height zig-zag) is
///   filled as columnSpans() in the pen's colour, each pixel once, instead of stroked (a
///   translucent colour blended twice, as the zig-zag's up and down strokes were);
/// - a channel fill (setChannelFillGraph, the other graph a DenseGraph too) between curves of
///   more than one vertex per 2 columns together is filled as channelSpans() in the brush's
///   colour, without antialiasing: QPainter's polygon fill of two noisy 1,000-point curves
///   scans every edge on every row (20 ms at 1180x480; bench_plots).
/// - more than 64 scatter points of a built-in shape are stamped: the shape is drawn once into
///   an image (antialiased as the graph is) and that image copied to each point, rounded to
///   the nearest pixel (1,000 antialiased circles: 3.5 ms drawn, about 1 ms stamped).
/// Everything else (legend icon, data, selection, vector export) is QCPGraph's.
class DenseGraph : public QCPGraph {
  Q_OBJECT
 public:
  /// As QCPGraph(keyAxis, valueAxis): registers with the axes' plot, which owns it.
  DenseGraph(QCPAxis* keyAxis, QCPAxis* valueAxis);
  /// True when the last draw filled the line as spans rather than stroking it (for tests).
  bool drewLineSpans() const { return drew_line_spans_; }
  /// True when the last draw filled the channel as spans rather than as a polygon (for tests).
  bool drewFillSpans() const { return drew_fill_spans_; }
  /// True when the last draw stamped its scatter points (for tests).
  bool drewStamps() const { return drew_stamps_; }

 protected:
  void draw(QCPPainter* painter) override;
  void drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const override;
  void drawFill(QCPPainter* painter, QVector<QPointF>* lines) const override;
  void drawScatterPlot(QCPPainter* painter, const QVector<QPointF>& scatters,
                       const QCPScatterStyle& style) const override;

 private:
  /// Spans may replace QCustomPlot's drawing on this painter (see the class comment).
  bool spansAllowed(QCPPainter* painter) const;
  /// A dense line alone (no fill, no scatters, a linear key axis, more than 2 points per pixel
  /// column in view): samples the data per pixel column itself (QCustomPlot's adaptive
  /// sampling, with each axis' mapping as one multiply or one log) and fills the spans.
  /// False (nothing drawn) when the graph is not such a line.
  bool drawDenseLine(QCPPainter* painter);
  mutable bool drew_line_spans_ = false, drew_fill_spans_ = false, drew_stamps_ = false;
  /// The stamped scatter shape, and what it was drawn from (shape, size, pen, brush,
  /// antialiasing, device pixel ratio).
  mutable QImage stamp_;
  mutable QString stamp_key_;
};

}  // namespace trainscope

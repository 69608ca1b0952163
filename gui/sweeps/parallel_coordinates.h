#pragma once
/// Parallel coordinates of a sweep's trials (issue 47 §3): one vertical axis per varied
/// parameter and one for the objective, one line per trial crossing each axis at its value,
/// coloured by the objective (best: dark, worst: light, viridis). Log axes where the sweep's
/// range is log; categorical axes (choices that are not numbers) space their choices evenly.
/// Dragging along an axis brushes a range: the trials outside any brush are drawn grey and
/// brushChanged() says so (the Sweeps window filters its table). A double click on an axis
/// clears its brush. Drawn with QPainter: 1,000 trials redraw in a few milliseconds
/// (bench/sweeps_window_bench).
#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

namespace trainscope {

class ParallelCoordinates : public QWidget {
  Q_OBJECT
 public:
  /// One axis: its title, its extent, how values map onto it.
  struct Axis {
    QString title;
    double low = 0, high = 1;
    bool log = false;          ///< log10 scale (low > 0)
    QStringList categories;    ///< non-empty: a categorical axis, value i = categories[i]
    bool objective = false;    ///< the objective's axis (the last one)
  };

  explicit ParallelCoordinates(QWidget* parent = nullptr);

  /// The axes and, per trial, its value on each axis (none: the line skips that axis) and
  /// its colour value (the objective, none: grey). `maximize`: larger objectives are better.
  void setData(const std::vector<Axis>& axes, const std::vector<std::vector<std::optional<double>>>& rows,
               bool maximize);
  /// Brushes axis `axis` to [lo, hi] (values on that axis); lo > hi clears it.
  void setBrush(int axis, double lo, double hi);
  void clearBrushes();
  /// Whether row `i` passes every brush (a row without a value on a brushed axis does not).
  bool passes(size_t row) const;
  /// The rows passing every brush.
  std::vector<size_t> passingRows() const;
  /// Where `value` sits on axis `axis`, 0 (bottom) to 1 (top): linear, log10 or categorical.
  double axisFraction(int axis, double value) const;
  int axisCount() const { return static_cast<int>(axes_.size()); }
  /// Highlights one row (a trial chosen in the table), -1 for none.
  void setHighlighted(int row);

 signals:
  void brushChanged();

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void mouseDoubleClickEvent(QMouseEvent*) override;

 private:
  QRectF plotRect() const;
  double axisX(int axis) const;
  int axisAt(double x) const;
  double valueAt(int axis, double y) const;
  double yOf(int axis, double value) const;

  std::vector<Axis> axes_;
  std::vector<std::vector<std::optional<double>>> rows_;
  std::vector<double> colour_;  ///< per row 0 (best) .. 1 (worst), NaN without objective
  std::vector<std::optional<std::pair<double, double>>> brushes_;  ///< per axis
  int highlighted_ = -1;
  int dragging_ = -1;  ///< the axis being brushed
  double drag_from_ = 0;
};

}  // namespace trainscope

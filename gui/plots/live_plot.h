#pragma once
/// The base of TrainScope's live plots: QCustomPlot graphs bound to named run-history series.
#include <qcustomplot.h>

#include <array>
#include <map>
#include <string>
#include <vector>

#include "gui/model/run_history.h"
#include "gui/plots/plot_style.h"

namespace trainscope {

/// A QCustomPlot whose graphs are drawn from named series of runs: each graph binds a (run,
/// series) pair, the run being the shown run (setHistory, runs::kShown) or another run set with
/// setRun (runs::kPrevious, the ghost). sync() copies only
/// what is new (everything again after the series folded old points), draws nan/+inf/-inf as
/// distinct markers on the plot's top edge (on a hidden 0..1 axis, so they never stretch the
/// value axis) and, while following, sets the step axis to every step of the run and the value
/// axis to the finite values (positive ones on a log axis) plus a margin. A wheel zoom or a drag
/// stops following; a double-click resumes it. Hovering shows the nearest point's step and value.
/// No QCustomPlot graph index is used outside gui/plots/.
class LivePlot : public QCustomPlot {
  Q_OBJECT
 public:
  explicit LivePlot(QWidget* parent = nullptr);

  /// The shown run's history (runs::kShown), which the axes follow (not owned; must outlive
  /// the plot or be reset).
  void setHistory(const RunHistory* history) { history_ = history; }
  const RunHistory* history() const { return history_; }
  /// The history of the run `run` (a runs:: key other than kShown; nullptr: none, its graphs
  /// are emptied at the next sync). Not owned; must outlive the plot or be reset.
  void setRun(const std::string& run, const RunHistory* history);
  /// Adds a graph drawn from the series `name` of the shown run, with a translatable legend
  /// `label`.
  QCPGraph* addSeriesGraph(const std::string& name, const QString& label);
  /// Adds a graph drawn from the series `name` of the run `run` (setRun). Another run's curves
  /// are drawn within the shown run's axes, never widening them, and their non-finite values
  /// are not marked (they are not this run's).
  QCPGraph* addRunGraph(const std::string& run, const std::string& name, const QString& label);
  /// Adds a graph bound to no series (the plot fills it), drawn as DenseGraph: a curve of
  /// more points than pixel columns costs one filled span per column.
  QCPGraph* addDenseGraph();
  /// The shown run's series `name` keeps its graph's scatter shape (as set now) only while it
  /// has at most 60 points, none above (a marker per epoch reads at 30 epochs, is a blob at
  /// 1,000).
  void markPointsWhileFew(const std::string& name);
  /// The graph bound to (`run`, `name`), or nullptr.
  QCPGraph* graphFor(const std::string& name) const { return graphFor(runs::kShown, name); }
  QCPGraph* graphFor(const std::string& run, const std::string& name) const;
  /// Points currently drawn for (`run`, `name`) (0 when not bound).
  int pointCount(const std::string& name) const { return pointCount(runs::kShown, name); }
  int pointCount(const std::string& run, const std::string& name) const;
  /// Non-finite markers currently drawn (all kinds, all bound series).
  int markerCount() const;

  /// Copies new points from the history, rescales when following, queues one replot (or, while
  /// the plot is hidden, one at the next showEvent).
  virtual void sync();
  /// Logarithmic value axis (values <= 0 are left out of the range).
  void setLogScale(bool logarithmic);
  bool logScale() const { return log_scale_; }
  /// Automatic log scale (the clipping lesson's norms of 400 and 1 lay flat on a
  /// linear axis): while on and the user has not chosen (setLogScaleChosen), sync() turns the
  /// log axis on once the shown run's visible positive finite values span more than
  /// `decades` decades, and off again when the run's curves are empty (a new run).
  void setAutoLogScale(bool on, double decades = 2);
  /// The user picked the scale (the bar's check box): automatic switching stops.
  void setLogScaleChosen() { log_chosen_ = true; }

  /// Keeps this plot's step axis equal to `other`'s (zoom, pan and following), both ways.
  void linkStepAxis(LivePlot* other);
  /// Names the non-finite markers in the current language (subclasses name their curves).
  virtual void retranslate();
  /// Shows or hides the legend (it sits above the axis rect, never over the data).
  void setLegendShown(bool shown);
  bool legendShown() const;

  /// True while the axes track the data.
  bool following() const { return following_; }
  /// Turns following back on and syncs.
  void resetView();
  /// What hovering at `pos` (widget pixels) shows: the nearest point within 24 px (curve name,
  /// step and value; describePoint()), or empty when none is that close.
  QString readoutText(const QPoint& pos) const;
  /// Presentation mode: every text of the plot (tick labels, axis titles, legend,
  /// text items and elements) drawn `fontRatio` times its designed size, every line `lineScale`
  /// times its width and an opaque one at least 3 px, in the projector palette
  /// (palette::forProjector). (1, 1) draws the plot as designed again. Pens and fonts that the
  /// plot's own code sets later are styled alike at each replot (PlotStyler).
  void setPresentation(double lineScale, double fontRatio);
  bool presenting() const { return line_scale_ != 1 || font_ratio_ != 1; }

  /// Leaves the shown run's series `name` out of the axis ranges (and its non-finite markers
  /// off the plot): it is drawn where it falls inside the other curves' ranges, never widening
  /// them (the learning-rate finder's raw curve).
  void setSeriesInRange(const std::string& name, bool inRange);
  /// The legend's font at 0.9 of the plot's (the loss and gradient-norm plots: their names
  /// share a narrow plot with the curves).
  void useSmallLegendFont();

 signals:
  /// The value axis became logarithmic or linear (setLogScale: the bar's check box follows).
  void logScaleChanged(bool logarithmic);

 protected:
  /// The readout text for the point (`key`, `value`) of `graph`; `marker` for a non-finite
  /// marker. Subclasses word their curves (the gradient norm plot: before -> after clipping).
  virtual QString describePoint(const QCPGraph* graph, double key, double value, bool marker) const;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  struct Binding {
    std::string run;  ///< runs::kShown or a key of setRun
    std::string name;
    QCPGraph* graph = nullptr;
    std::uint64_t generation = ~std::uint64_t{0};
    std::uint64_t revision = 0;
    std::size_t copied = 0;
    bool in_range = true;  ///< takes part in the axis ranges and markers
    /// markPointsWhileFew: the scatter shape while few points (ssNone: the rule is off).
    QCPScatterStyle::ScatterShape few_points_shape = QCPScatterStyle::ssNone;
    /// applyAutoLogScale's running range of the positive finite values drawn: only points
    /// added since are scanned (all again after a fold or a new run).
    double positive_low = 0, positive_high = 0;
    std::size_t scanned = 0;
    std::uint64_t scanned_generation = ~std::uint64_t{0}, scanned_revision = 0;
  };
  /// The history `b` draws from (nullptr: none set).
  const RunHistory* historyOf(const Binding& b) const;
  void syncBinding(Binding& b);
  void syncMarkers();
  void rescale();
  /// About one value label per 35 px of height (2 to 5): a short plot (1024x768 with the
  /// non-finite panel open) does not stack seven labels of 1e24 onto each other.
  void fitValueTicks();
  /// As many step labels as fit side by side with room between them (the widest label, plus
  /// its width again): "500 1000 1500" never run together in a narrow side view.
  void fitStepTicks();
  /// Before each replot: an axis title longer than its axis is broken into two lines at the
  /// space nearest its middle, and elided only when that is still too long.
  void fitAxisTitles();
  void setFollowing(bool following);
  /// Queues a replot when the plot is visible; otherwise marks it for showEvent.
  void replotWhenShown();
  /// Before each replot: the presentation style (setPresentation) on every pen and font, and
  /// in presentation mode a legend too wide for the plot wrapped into fewer columns.
  void applyPresentation();
  void showReadout(const QPoint& pos, const QPoint& global);

  const RunHistory* history_ = nullptr;
  std::map<std::string, const RunHistory*> runs_;  ///< the other runs, by key
  std::vector<Binding> bindings_;
  QCPAxis* marker_axis_ = nullptr;
  std::array<QCPGraph*, kNonFiniteKinds> markers_{};
  std::uint64_t marker_stamp_ = ~std::uint64_t{0};
  bool following_ = true;
  bool log_scale_ = false;
  bool auto_log_ = false;
  bool log_chosen_ = false;
  double auto_log_decades_ = 2;
  /// sync(): applies the automatic log scale (setAutoLogScale).
  void applyAutoLogScale();
  bool stale_ = false;  ///< synced while hidden: replot when shown
  struct Title {
    QString full, shown;  ///< the label as set, and as fitted
  };
  Title titles_[2];  ///< x, y
  double line_scale_ = 1, font_ratio_ = 1;
  PlotStyler styler_;
  int designed_wrap_ = -1, shown_wrap_ = -1;
  int fitted_room_ = -1, fitted_font_ = -1;  ///< what fitValueTicks last fitted
  /// The plot's width when its layout was last computed (afterLayout): the axis rect's width
  /// is that layout's until the next replot, so a resize corrects it by the difference.
  int laid_out_width_ = -1, laid_out_height_ = -1;
  const void* fitted_ticker_ = nullptr;  ///< the legend's columns as set, and as fitted
};

}  // namespace trainscope

#pragma once
/// The dashboard's right-hand column of views: the loss plot with side views in tabs beside it,
/// and the gradient views in tabs below.
#include <QByteArray>
#include <QList>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

class QSplitter;
class QTabWidget;

namespace trainscope {

class GradNormPlot;
class LivePlot;
class LossPlot;
class PlotView;
class RunHistory;

/// Owns the loss plot (top left) and the gradient-norm plot (bottom), both bound to the run
/// history, and the tab widgets that hold further views: `Side` views (model view, accuracy,
/// learning rate) sit in tabs to the right of the loss plot, `Bottom` views (per-layer norms,
/// loss scale) in tabs next to the gradient-norm plot. Each feature adds its view with addView
/// instead of growing the main window. All plots added share the loss plot's step axis.
class PlotArea : public QWidget {
  Q_OBJECT
 public:
  enum class Slot { Side, Bottom };

  explicit PlotArea(const RunHistory* history, QWidget* parent = nullptr);

  LossPlot* lossPlot() const { return loss_plot_; }
  GradNormPlot* gradPlot() const { return grad_plot_; }
  PlotView* lossView() const { return loss_view_; }
  PlotView* gradView() const { return grad_view_; }

  /// Adds `view` as a tab of `slot` (ownership passes to the area); `title` gives its tab text
  /// in the current language (called again on retranslate()). When `view` is a PlotView or a
  /// LivePlot, its plot is bound to the history, linked to the loss plot's step axis, and
  /// synced, reset, replotted and retranslated with the others; other widgets retranslate
  /// themselves on QEvent::LanguageChange. The side tabs appear with their first view.
  /// `key` names the view for lessons (lessonViewNames: "model", "accuracy", "lr", ...).
  void addView(Slot slot, QWidget* view, std::function<QString()> title,
               const QString& key = QString());
  /// The view named `key` ("loss", "gradient" or a key given to addView), else nullptr.
  QWidget* view(const QString& key) const;
  /// The tab widgets of the side and bottom views (a lesson step may hide them).
  QWidget* sideViews() const;
  QWidget* bottomViews() const;
  /// Brings `view`'s tab to the front.
  void showView(QWidget* view);
  /// A lesson step looks at `view`: a bottom view (the gradient norm, ...) gets 47% of the
  /// area's height, so that its curves and axis titles can be read at 1024x768 (issue 43 item
  /// 13: the clipping lesson's 70 px plot); null, or a view of the top row, puts back the split
  /// the user had.
  void emphasize(QWidget* view);
  /// The bottom row's share of the area's height, 0..1 (for tests).
  double bottomShare() const;

  /// Copies new history points into every plot (the window's ~30 Hz flush).
  void sync();
  /// A new run: every plot follows its data again.
  void resetView();
  /// Redraws every plot now (screenshots) or at the next event-loop turn.
  void replot(bool immediately);
  /// Tab titles and plot texts in the current language.
  void retranslate();
  /// Presentation mode: every plot styled by LivePlot::setPresentation
  /// (`lineScale`, `fontRatio`; 1, 1: as designed) and the bottom views (gradient norm, layers,
  /// loss scale) shown or hidden, so that the loss plot and its side view fill the area.
  void setPresentation(double lineScale, double fontRatio, bool bottomShown);
  /// Whether the bottom views are shown (hidden only by setPresentation).
  bool bottomShown() const;
  /// The splitters' sizes and the tabs in front, to remember the layout (QSettings); restoreState
  /// puts back what saveState gave and ignores anything else (false then).
  QByteArray saveState() const;
  bool restoreState(const QByteArray& state);

 signals:
  /// setPresentation's style, for views that draw plots of their own (the model view).
  void presentationChanged(double lineScale, double fontRatio);

 private:
  struct Tab {
    QTabWidget* tabs;
    QWidget* view;
    std::function<QString()> title;
    QString key;
  };
  void registerPlot(LivePlot* plot);

  const RunHistory* history_;
  LossPlot* loss_plot_;
  GradNormPlot* grad_plot_;
  PlotView* loss_view_;
  PlotView* grad_view_;
  QSplitter* top_;
  QSplitter* rows_;  ///< the top row over the bottom views
  QTabWidget* side_tabs_;
  QTabWidget* bottom_tabs_;
  double line_scale_ = 1, font_ratio_ = 1;
  bool presenting_ = false;
  QList<int> top_sizes_;  ///< the top row's sizes before presentation mode
  QList<int> rows_before_emphasis_;  ///< the rows' sizes before emphasize() grew the bottom
  std::vector<LivePlot*> plots_;
  std::vector<PlotView*> views_;
  std::vector<Tab> tabs_;
};

}  // namespace trainscope

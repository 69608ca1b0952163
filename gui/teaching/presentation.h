#pragma once
/// Presentation mode: the dashboard as a lecture hall sees it on a projector.
#include <QFont>
#include <QList>
#include <QObject>

class QMainWindow;
class QShortcut;
class QSplitter;
class QWidget;

namespace trainscope {

class PlotArea;
class RunControlsPanel;
class RunStatusBar;

/// Turns presentation mode on and off for the main window's parts. On: every text of the
/// interface `scale()` times its size (QApplication's font, so dialogs opened meanwhile too)
/// and the plots' tick labels kPresentationTickPx (20) at 1.5x (scaled alike above), plot lines wider and in
/// the projector palette (PlotArea::setPresentation), the settings column, the events panel and
/// the progress row hidden (the run controls stay, in one column; the status bar keeps epoch and
/// step, without throughput and seed), the bottom plots hidden unless showBottom, and the run
/// controls on the keyboard: Space start/pause/resume, Right one batch, Shift+Right to the end
/// of the epoch, Esc leaves. Off: everything as it was. The scale is remembered in QSettings
/// ("presentationScale"). Nothing of a run changes.
class Presentation : public QObject {
  Q_OBJECT
 public:
  /// The window and the parts it hides or styles (not owned).
  struct Parts {
    QMainWindow* window = nullptr;
    QWidget* settings = nullptr;  ///< the scrolling settings column
    QWidget* events = nullptr;
    QSplitter* columns = nullptr;  ///< settings | plots
    PlotArea* plots = nullptr;
    RunControlsPanel* controls = nullptr;
    RunStatusBar* status = nullptr;
    QWidget* progress = nullptr;  ///< the progress bar and run folder row
  };
  /// The scales the View menu offers.
  static constexpr double kScales[] = {1.5, 1.75, 2.0};

  Presentation(const Parts& parts, QObject* parent = nullptr);
  /// Gives QApplication its font back when the window goes in presentation mode (another
  /// window made later would otherwise take the scaled font as its normal one).
  ~Presentation() override;

  bool active() const { return active_; }
  /// Enters or leaves the mode; `fullScreen` also shows the window full screen (F5) and
  /// restores its former state on leaving.
  void setActive(bool on, bool fullScreen = false);
  double scale() const { return scale_; }
  /// One of kScales (others are clamped to 1.5..2); applied at once when active; remembered.
  void setScale(double scale);
  /// Shows the bottom plots (gradient norm, layers, lr, loss scale) in the mode too.
  void setShowBottom(bool show);
  bool showBottom() const { return show_bottom_; }
  /// The pixel size the plots' tick labels get at the current scale.
  int tickLabelPx() const;

 signals:
  void activeChanged(bool on);

 private:
  void apply();

  Parts parts_;
  bool active_ = false;
  bool full_screen_ = false;
  bool show_bottom_ = false;
  double scale_ = 1.5;
  QFont app_font_;                 ///< QApplication's font before the mode
  QList<int> column_sizes_;        ///< the columns splitter before the mode
  Qt::WindowStates window_state_;  ///< before full screen
  QList<QShortcut*> keys_;
};

}  // namespace trainscope

#pragma once
/// A QCustomPlot that follows incoming data until the user zooms or pans.
#include <qcustomplot.h>

namespace trainscope {

/// QCustomPlot with mouse drag/zoom. While `following()` the axes are rescaled to the data on
/// every refresh(); a wheel zoom or a drag turns following off; a double-click turns it back on
/// and rescales at once.
class LivePlot : public QCustomPlot {
  Q_OBJECT
 public:
  explicit LivePlot(QWidget* parent = nullptr);

  /// True while the axes track the data.
  bool following() const { return following_; }
  /// Rescales (when following) and schedules one queued replot.
  void refresh();
  /// Turns following back on and refreshes.
  void resetView();

 signals:
  /// Following was switched on or off (by the mouse or resetView()).
  void followingChanged(bool following);

 protected:
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  void setFollowing(bool following);
  bool following_ = true;
};

}  // namespace trainscope

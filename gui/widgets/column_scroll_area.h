#pragma once
/// A vertically scrolling column that is never narrower than its content.
#include <QScrollArea>

namespace trainscope {

/// QScrollArea for a column of panels (the window's settings column): it scrolls vertically
/// only, and its minimum width is the widest minimum its content has had plus the vertical
/// scroll bar, so the content is never cut at the right edge (a longer translation widens the
/// column) and the column never narrows by itself (what stands beside it does not move). Set
/// the content with setWidget() (resizable). The wheel scrolls it without changing a combo box,
/// spin box or slider it passes over, unless that has the keyboard focus.
class ColumnScrollArea : public QScrollArea {
  Q_OBJECT
 public:
  explicit ColumnScrollArea(QWidget* parent = nullptr);
  QSize minimumSizeHint() const override;

 protected:
  /// The content's layout changed (a language switch, a section opened): the minimum follows.
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  /// The content's minimum width plus the vertical scroll bar.
  int contentWidth() const;
  mutable int widest_ = 0;  ///< the widest minimum width so far
};

}  // namespace trainscope

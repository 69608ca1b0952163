#include "gui/widgets/column_scroll_area.h"

#include <QEvent>
#include <QScrollBar>
#include <algorithm>

namespace trainscope {

ColumnScrollArea::ColumnScrollArea(QWidget* parent) : QScrollArea(parent) {
  setWidgetResizable(true);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setFrameShape(QFrame::NoFrame);
}

int ColumnScrollArea::contentWidth() const {
  const QWidget* content = widget();
  return content ? content->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() +
                       2 * frameWidth()
                 : 0;
}

QSize ColumnScrollArea::minimumSizeHint() const {
  widest_ = std::max(widest_, contentWidth());
  QSize size = QScrollArea::minimumSizeHint();
  size.setWidth(std::max(size.width(), widest_));
  return size;
}

bool ColumnScrollArea::eventFilter(QObject* watched, QEvent* event) {
  // Only a wider minimum is passed on: every layout request of the content would make the
  // window's splitter share its width out anew.
  if (watched == widget() && event->type() == QEvent::LayoutRequest && contentWidth() > widest_)
    updateGeometry();
  return QScrollArea::eventFilter(watched, event);
}

}  // namespace trainscope

#include "gui/widgets/column_scroll_area.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QScrollBar>
#include <QSlider>
#include <algorithm>

namespace trainscope {

namespace {

/// The wheel scrolls the column; it changes a combo box, spin box or slider it passes over
/// only when that has the keyboard focus (scrolling changed "When NaN/Inf" from
/// pause to skip unnoticed). Such controls in the column take focus by click or Tab, not by
/// the wheel; an unfocused one hands the wheel to the column.
class WheelGuard : public QObject {
 public:
  explicit WheelGuard(QScrollArea* area) : QObject(area), area_(area) {}

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    const QEvent::Type type = event->type();
    if (type != QEvent::Wheel && type != QEvent::Polish) return false;
    auto* w = qobject_cast<QWidget*>(watched);
    if (!w || !isValueControl(w) || !area_->isAncestorOf(w)) return false;
    if (type == QEvent::Polish) {
      if (w->focusPolicy() == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
      return false;
    }
    if (w->hasFocus()) return false;  // the user is setting it
    QCoreApplication::sendEvent(area_->viewport(), event);
    return true;
  }

 private:
  static bool isValueControl(QWidget* w) {
    return qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSpinBox*>(w) ||
           qobject_cast<QSlider*>(w);
  }
  QScrollArea* area_;
};

}  // namespace

ColumnScrollArea::ColumnScrollArea(QWidget* parent) : QScrollArea(parent) {
  setWidgetResizable(true);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setFrameShape(QFrame::NoFrame);
  if (qApp) qApp->installEventFilter(new WheelGuard(this));  // removed with this area
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

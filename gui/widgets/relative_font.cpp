#include "gui/widgets/relative_font.h"

#include <QApplication>
#include <QEvent>
#include <QFontInfo>
#include <QObject>
#include <QWidget>
#include <cmath>

namespace trainscope {
namespace {

/// Lives as the widget's child; refits the font at each application font change.
class RelativeFont : public QObject {
 public:
  RelativeFont(QWidget* widget, double scale, bool bold, bool italic)
      : QObject(widget), widget_(widget), scale_(scale), bold_(bold), italic_(italic) {
    widget->installEventFilter(this);
    if (QWidget* parent = widget->parentWidget()) parent->installEventFilter(this);
    apply();
  }

  bool eventFilter(QObject* watched, QEvent* event) override {
    // The parent's font changes as the application's reaches it (a font set on the widget
    // itself stops that propagation, so the parent is watched); a new parent too.
    if ((watched == widget_ && (event->type() == QEvent::ApplicationFontChange ||
                                event->type() == QEvent::ParentChange)) ||
        (watched == widget_->parentWidget() && event->type() == QEvent::FontChange)) {
      if (event->type() == QEvent::ParentChange && widget_->parentWidget())
        widget_->parentWidget()->installEventFilter(this);
      apply();
    }
    return false;
  }

 private:
  void apply() {
    QFont f = widget_->parentWidget() ? widget_->parentWidget()->font() : QApplication::font(widget_);
    if (f.pointSizeF() > 0)
      f.setPointSizeF(f.pointSizeF() * scale_);
    else
      f.setPixelSize(std::max(1, static_cast<int>(std::lround(QFontInfo(f).pixelSize() * scale_))));
    f.setBold(bold_);
    f.setItalic(italic_);
    widget_->setFont(f);
  }

  QWidget* widget_;
  double scale_;
  bool bold_, italic_;
};

}  // namespace

void setRelativeFont(QWidget* widget, double scale, bool bold, bool italic) {
  for (QObject* child : widget->children())  // a second call replaces the first
    if (auto* old = dynamic_cast<RelativeFont*>(child)) delete old;
  new RelativeFont(widget, scale, bold, italic);
}

}  // namespace trainscope

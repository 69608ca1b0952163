#include "gui/widgets/hide_reasons.h"

#include <QStringList>
#include <QVariant>
#include <QWidget>

namespace trainscope {

void setHiddenFor(QWidget* widget, const QString& reason, bool hidden) {
  QStringList reasons = widget->property("trainscopeHiddenBy").toStringList();
  reasons.removeAll(reason);
  if (hidden) reasons << reason;
  widget->setProperty("trainscopeHiddenBy", reasons);
  widget->setVisible(reasons.isEmpty());
}

}  // namespace trainscope

#pragma once
/// Parts of the window that more than one mode hides (presentation mode, a lesson step): each
/// hides it for its own reason, and it shows again only when no reason is left.
#include <QString>

class QWidget;

namespace trainscope {

/// Hides `widget` for `reason` (`hidden`) or lifts that reason; the widget is visible exactly
/// when no reason is left. The reasons live in the widget's "trainscopeHiddenBy" property.
void setHiddenFor(QWidget* widget, const QString& reason, bool hidden);

}  // namespace trainscope

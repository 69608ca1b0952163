#pragma once
/// A label's font relative to the interface font (a bold title, a larger verdict) that follows
/// it: a font given once with setFont keeps its size, so presentation mode's 1.5x texts left
/// such titles smaller than their body (the Diagnosis heading 10 px over a
/// 13 px body, the non-finite panel's title 9 px).
class QWidget;

namespace trainscope {

/// Gives `widget` its parent's font (the application's for a window) `scale` times as large
/// (points where the font has them, else pixels), bold and italic as asked; again each time the
/// parent's font changes (as the application font reaches it) or the widget moves to another
/// parent, for the widget's life.
void setRelativeFont(QWidget* widget, double scale, bool bold = false, bool italic = false);

}  // namespace trainscope

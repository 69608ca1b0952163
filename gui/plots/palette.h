#pragma once
/// Colours that mean the same thing on every plot (matplotlib's tab10): what a learner sees as
/// "training" on the loss plot is the same blue on the accuracy plot. In presentation mode the
/// plots swap them for the projector palette (forProjector).
#include <QColor>

namespace trainscope::palette {

inline const QColor kTrain(31, 119, 180);  ///< training curves
inline const QColor kVal(255, 127, 14);    ///< validation curves

/// The projector colour for a plot colour (alpha kept): the Okabe-Ito colours (safe for
/// red-green colour blindness), dark enough to survive a washed-out projector. tab10's blue,
/// orange, green, purple and red become blue #0072B2, vermillion #D55E00, bluish green #009E73,
/// reddish purple #CC79A7 and a deep red #B2182B (darker than the bluish green it meets on the
/// gradient plot, so the two differ in lightness too); greys get darker; any other colour is
/// darkened by a third.
QColor forProjector(const QColor& color);

}  // namespace trainscope::palette

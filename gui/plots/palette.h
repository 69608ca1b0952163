#pragma once
/// Every colour the dashboard draws or writes, in one place. Plot colours mean the same thing on
/// every plot (matplotlib's tab10): what a learner sees as "training" on the loss plot is the
/// same blue on the accuracy plot. In presentation mode the plots swap them for the projector
/// palette (forProjector). Status colours (errors, warnings, injected mistakes) are the same in
/// tables, dialogs, style sheets and the run report.
#include <QColor>
#include <QString>

namespace trainscope::palette {

/// matplotlib's tab10, in its order: series without a meaning of their own (layers, overlaid
/// runs, classes) take them in turn.
inline const QColor kTab10[] = {{31, 119, 180},  {255, 127, 14}, {44, 160, 44},   {214, 39, 40},
                                {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {127, 127, 127},
                                {188, 189, 34},  {23, 190, 207}};
/// tab10's colour `i` (wrapping around).
inline const QColor& tab10(int i) { return kTab10[((i % 10) + 10) % 10]; }

// ---- plot colours: what a series is ----
inline const QColor kTrain = kTab10[0];        ///< training curves (blue)
inline const QColor kVal = kTab10[1];          ///< validation curves (orange)
inline const QColor kGradient = kTab10[2];     ///< gradient norms; a healthy band (green)
inline const QColor kBest = kTab10[2];         ///< the best epoch (green)
inline const QColor kAlarm = kTab10[3];        ///< thresholds, onsets, skipped steps (red)
inline const QColor kSecondary = kTab10[4];    ///< clipped norms, learning rate (purple)
inline const QColor kSmoothed(20, 80, 140);    ///< the smoothed loss: a darker blue
inline const QColor kScale = kTab10[9];       ///< the AMP loss scale (cyan)
/// Markers of non-finite values on live plots, by kind: NaN, +inf, -inf.
inline const QColor kNonFiniteMarkers[] = {{200, 0, 0}, {150, 0, 150}, {0, 90, 200}};
inline const QColor kGuide(120, 120, 120);     ///< reference lines (y = x, stops, marks)
inline const QColor kTruth(90, 90, 90);        ///< the true function (the sine preset)
inline const QColor kGridLine(220, 220, 220);  ///< cell borders of matrices
inline const QColor kLabelBackground(255, 255, 255, 200);  ///< text boxes over curves

// ---- status colours: text in tables, dialogs, style sheets and the run report ----
inline const QColor kErrorText(0xb0, 0x00, 0x20);    ///< errors, failed or diverged runs
inline const QColor kWarningText(0x8a, 0x5a, 0x00);  ///< warnings, incomplete runs
inline const QColor kMistakeText(0xc0, 0x39, 0x2b);  ///< injected mistakes (teaching)
inline const QColor kSuccessText(0x1a, 0x7f, 0x37);  ///< checks that passed
inline const QColor kRunningText(20, 90, 200);       ///< runs still running
inline const QColor kMutedText(0x55, 0x55, 0x55);  ///< notes, labels of key-value tables
inline const QColor kHighlight(230, 159, 0);         ///< lesson focus (Okabe-Ito orange)
inline const QColor kNoteBackground(255, 248, 225);  ///< a lesson's note

/// `color` with alpha `alpha` (0..255): bands and fills under a curve.
inline QColor withAlpha(QColor color, int alpha) {
  color.setAlpha(alpha);
  return color;
}

/// "#rrggbb" for style sheets and HTML.
inline QString css(const QColor& color) { return color.name(); }

/// The projector colour for a plot colour (alpha kept): the Okabe-Ito colours (safe for
/// red-green colour blindness), dark enough to survive a washed-out projector. tab10's blue,
/// orange, green, purple and red become blue #0072B2, vermillion #D55E00, bluish green #009E73,
/// reddish purple #CC79A7 and a deep red #B2182B (darker than the bluish green it meets on the
/// gradient plot, so the two differ in lightness too); greys get darker; any other colour is
/// darkened by a third.
QColor forProjector(const QColor& color);

}  // namespace trainscope::palette

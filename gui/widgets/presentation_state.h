#pragma once
/// Whether presentation mode is on, for widgets outside what Presentation styles itself (a
/// dialog's plot, a panel with a compact form): the application properties it sets while on.
#include <QCoreApplication>
#include <QVariant>

namespace trainscope {

/// Presentation mode's line scale and plot font ratio (Presentation::apply); absent or 1 when off.
inline constexpr const char* kPresentationScaleProperty = "trainscopePresentationScale";
inline constexpr const char* kPresentationFontRatioProperty = "trainscopePresentationFontRatio";

/// True while presentation mode is on.
inline bool presentationActive() {
  return qApp && qApp->property(kPresentationScaleProperty).toDouble() > 1;
}

}  // namespace trainscope

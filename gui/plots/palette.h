#pragma once
/// Colours that mean the same thing on every plot (matplotlib's tab10): what a learner sees as
/// "training" on the loss plot is the same blue on the accuracy plot.
#include <QColor>

namespace trainscope::palette {

inline const QColor kTrain(31, 119, 180);  ///< training curves
inline const QColor kVal(255, 127, 14);    ///< validation curves

}  // namespace trainscope::palette

#include "gui/plots/palette.h"

#include <cmath>

namespace trainscope::palette {

QColor forProjector(const QColor& color) {
  struct Pair {
    QColor from, to;
  };
  static const Pair kPairs[] = {
      {kTrain, QColor(0, 114, 178)},                // blue
      {kVal, QColor(213, 94, 0)},                   // vermillion
      {kGradient, QColor(0, 158, 115)},             // green -> bluish green
      {kSecondary, QColor(204, 121, 167)},          // purple -> reddish purple
      {kAlarm, QColor(178, 24, 43)},                // red -> a deep red (captions say "red")
      {kSmoothed, QColor(0, 61, 115)},              // the smoothed loss: a darker blue
  };
  QColor out;
  bool matched = false;
  for (const Pair& p : kPairs)
    if (p.from.rgb() == color.rgb()) {
      out = p.to;
      matched = true;
      break;
    }
  if (!matched) {
    const bool grey = std::abs(color.red() - color.green()) < 8 &&
                      std::abs(color.green() - color.blue()) < 8;
    if (grey && color.value() > 200) return color;  // white backgrounds stay white
    out = grey ? QColor::fromHsv(0, 0, color.value() / 2) : color.darker(150);
  }
  out.setAlpha(color.alpha());
  return out;
}

}  // namespace trainscope::palette

#pragma once
/// Images of the data as the user gave them: planar [C, H, W] pixels to a QImage.
#include <QImage>
#include <cstddef>

namespace trainscope {

/// A QImage of `h` x `w` pixels from planar pixels `at(i)` for i in [0, c*h*w) (C, H, W order,
/// as TrainScope stores images): RGB for c == 3, grayscale otherwise (the first channel). `at`
/// returns a value 0-255 (e.g. a uint8 pixel, or a float clamped by the caller).
template <class At>
QImage planarImage(int c, int h, int w, At&& at) {
  QImage img(w, h, c == 3 ? QImage::Format_RGB888 : QImage::Format_Grayscale8);
  for (int y = 0; y < h; ++y) {
    uchar* line = img.scanLine(y);
    for (int x = 0; x < w; ++x) {
      if (c == 3) {
        for (int ch = 0; ch < 3; ++ch)
          line[3 * x + ch] = at(static_cast<std::size_t>((ch * h + y) * w + x));
      } else {
        line[x] = at(static_cast<std::size_t>(y * w + x));
      }
    }
  }
  return img;
}

}  // namespace trainscope

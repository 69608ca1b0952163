#include "gui/views/conv_maps.h"

#include <QEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "gui/tr.h"
#include "gui/widgets/pixel_image.h"

namespace trainscope {

namespace {

/// `n` values from `v` (starting at `first`) as 0-255 from their own min (0) to max (255).
std::vector<uint8_t> scaled(const std::vector<float>& v, std::size_t first, std::size_t n) {
  float lo = INFINITY, hi = -INFINITY;
  for (std::size_t i = 0; i < n; ++i) {
    const float x = v[first + i];
    if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  }
  std::vector<uint8_t> out(n, 0);
  if (!(hi > lo)) return out;
  for (std::size_t i = 0; i < n; ++i) {
    const float x = v[first + i];
    out[i] = std::isfinite(x) ? static_cast<uint8_t>(std::lround(255.0f * (x - lo) / (hi - lo))) : 0;
  }
  return out;
}

/// Tiles of `images` below a title within `height` pixels from y: the column count that gives
/// the largest square tiles (at most `tile_max` pixels). Returns the y below them.
int drawTiles(QPainter& p, const QString& title, const std::vector<QImage>& images, int y,
              int width, int height, int tile_max) {
  const QFontMetrics fm(p.font());
  p.drawText(QRect(4, y, width - 8, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(title, Qt::ElideRight, width - 8));
  y += fm.height() + 2;
  if (images.empty()) return y;
  const int n = static_cast<int>(images.size());
  const int room = std::max(6, height - fm.height() - 6);
  int cols = 1, tile = 0;
  for (int c = 1; c <= n; ++c) {
    const int rows = (n + c - 1) / c;
    const int t = std::min((width - 8) / c - 2, room / rows - 2);
    if (t > tile) tile = t, cols = c;
  }
  tile = std::max(4, std::min(tile, tile_max));
  for (int k = 0; k < n; ++k) {
    const int col = k % cols, row = k / cols;
    p.drawImage(QRect(4 + col * (tile + 2), y + row * (tile + 2), tile, tile), images[static_cast<std::size_t>(k)]);
  }
  return y + ((n + cols - 1) / cols) * (tile + 2) + 4;
}

}  // namespace

ConvMaps::ConvMaps(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("convMaps"));
  setMinimumHeight(60);
  retranslate();
}

void ConvMaps::setRecord(const ModelViewRecord* record) {
  record_ = record;
  update();
}

void ConvMaps::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void ConvMaps::retranslate() {
  setToolTip(Tr::tr("The first convolution layer: above, each filter's weights (the mean over "
                    "the input channels; RGB for colour images), each scaled from its lowest "
                    "weight (black) to its highest (white); below, what each filter gives for "
                    "the first image of the Predictions page after batch norm and the "
                    "activation, before pooling (white: the strongest response)."));
}

void ConvMaps::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (!record_ || !hasMaps(*record_)) return;
  const ModelViewRecord& r = *record_;
  p.setPen(palette().text().color());
  std::vector<QImage> filters;
  const std::size_t per = static_cast<std::size_t>(r.filter_channels) * r.filter_h * r.filter_w;
  const std::size_t plane = static_cast<std::size_t>(r.filter_h) * r.filter_w;
  for (int k = 0; k < r.filter_count && (k + 1) * per <= r.filters.size(); ++k) {
    if (r.filter_channels == 3) {
      const std::vector<uint8_t> v = scaled(r.filters, k * per, per);
      filters.push_back(planarImage(3, r.filter_h, r.filter_w, [&v](std::size_t i) { return v[i]; }));
    } else {  // the mean over the input channels
      std::vector<float> mean(plane, 0.0f);
      for (int c = 0; c < r.filter_channels; ++c)
        for (std::size_t i = 0; i < plane; ++i) mean[i] += r.filters[k * per + c * plane + i];
      const std::vector<uint8_t> v = scaled(mean, 0, plane);
      filters.push_back(planarImage(1, r.filter_h, r.filter_w, [&v](std::size_t i) { return v[i]; }));
    }
  }
  std::vector<QImage> maps;
  const std::size_t map_plane = static_cast<std::size_t>(r.map_h) * r.map_w;
  for (int k = 0; k < r.map_count && (k + 1) * map_plane <= r.feature_maps.size(); ++k) {
    const std::vector<uint8_t> v = scaled(r.feature_maps, k * map_plane, map_plane);
    maps.push_back(planarImage(1, r.map_h, r.map_w, [&v](std::size_t i) { return v[i]; }));
  }
  // The filters above, the feature maps below, half the height each.
  const int half = (height() - 4) / 2;
  int y = drawTiles(p,
                    Tr::tr("%1 filters %2x%3 (bright: large weight)")
                        .arg(r.filter_count)
                        .arg(r.filter_h)
                        .arg(r.filter_w),
                    filters, 2, width(), half, 48);
  drawTiles(p,
            Tr::tr("Feature maps of the first image (bright: strong)"),
            maps, std::max(y, 2 + half), width(), height() - std::max(y, 2 + half), 96);
}

}  // namespace trainscope

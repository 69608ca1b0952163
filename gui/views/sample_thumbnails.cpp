#include "gui/views/sample_thumbnails.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "gui/plots/palette.h"
#include "gui/tr.h"
#include "gui/widgets/pixel_image.h"

namespace trainscope {
namespace {

const QColor& thumbRight() { return palette::tab10(0); }  // right: blue
const QColor& thumbWrong() { return palette::kAlarm; }    // wrong: red

}  // namespace

WorstImagesWidget::WorstImagesWidget(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("worstImages"));
}
void WorstImagesWidget::set(const std::vector<WorstSample>* samples, std::vector<int64_t> shape,
                            QStringList names) {
  samples_ = samples;
  shape_ = std::move(shape);
  names_ = std::move(names);
  update();
}

void WorstImagesWidget::setGradCam(bool on, bool signed_map, int cls) {
  cam_ = on;
  cam_signed_ = signed_map;
  cam_class_ = cls;
  update();
}

QColor WorstImagesWidget::camColor(float v, float top, bool signed_map) {
  if (!(top > 0) || !std::isfinite(v)) return QColor(0, 0, 0, 0);
  const float share = std::clamp(v / top, -1.0f, 1.0f);
  if (share <= 0 && !signed_map) return QColor(0, 0, 0, 0);  // ReLU: nothing against the class
  const QColor base = share >= 0 ? palette::kAlarm : palette::tab10(0);
  QColor c = base;
  c.setAlpha(static_cast<int>(std::lround(200 * std::abs(share))));
  return c;
}

void WorstImagesWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (!samples_ || samples_->empty() || shape_.size() != 3) return;
  const int c = static_cast<int>(shape_[0]), h = static_cast<int>(shape_[1]),
            w = static_cast<int>(shape_[2]);
  cells_.clear();
  const int n = static_cast<int>(samples_->size());
  const int cols = width() >= 520 ? 6 : 4;
  const int rows = (n + cols - 1) / cols;
  const int cell_w = width() / cols;
  QFont small = font();
  small.setPointSizeF(std::max(6.5, small.pointSizeF() * 0.8));
  p.setFont(small);
  const QFontMetrics fm(small);
  // A line as tall as the class names need: Chinese names come from a fallback font taller
  // than the Latin one's metrics (their second line was cut by the next row).
  QStringList shown_names = names_;
  shown_names << Tr::tr("true: %1").arg(QString());
  int line_h = fm.height();
  for (const QString& n : shown_names) line_h = std::max(line_h, fm.boundingRect(n).height());
  const int text_h = 2 * line_h;
  const int cell_h = std::max(text_h + 12, height() / std::max(1, rows));
  const int side = std::max(8, std::min(cell_w - 8, cell_h - text_h - 6));
  for (int k = 0; k < n; ++k) {
    const WorstSample& s = (*samples_)[static_cast<std::size_t>(k)];
    const QImage img = planarImage(c, h, w, [&s](std::size_t i) {
      return i < s.raw.size() ? static_cast<uchar>(std::clamp(s.raw[i], 0.0f, 255.0f)) : uchar(0);
    });
    const int cx = (k % cols) * cell_w, cy = (k / cols) * cell_h;
    const QRect target(cx + (cell_w - side) / 2, cy + 2, side, side);
    p.drawImage(target, img);
    const int cls = cam_class_ >= 0 ? cam_class_ : static_cast<int>(s.predicted);
    if (cam_ && cls >= 0 && cls < static_cast<int>(s.cams.size()) &&
        s.cams[static_cast<std::size_t>(cls)].size() == static_cast<std::size_t>(h * w)) {
      const std::vector<float>& m = s.cams[static_cast<std::size_t>(cls)];
      float top = 0;
      for (float v : m) top = std::max(top, cam_signed_ ? std::abs(v) : v);
      QImage heat(w, h, QImage::Format_ARGB32);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          heat.setPixelColor(x, y, camColor(m[static_cast<std::size_t>(y * w + x)], top, cam_signed_));
      p.drawImage(target, heat);
    }
    const bool wrong = s.predicted != s.target;
    p.setPen(QPen(wrong ? thumbWrong() : thumbRight(), wrong ? 3 : 1));
    p.drawRect(target.adjusted(-1, -1, 0, 0));
    const QRect line1(cx, target.bottom() + 2, cell_w, line_h);
    p.setPen(wrong ? thumbWrong() : palette().text().color());
    p.drawText(
        line1, Qt::AlignHCenter | Qt::AlignTop,
        fm.elidedText(names_.value(static_cast<int>(s.predicted)), Qt::ElideRight, cell_w - 2));
    p.setPen(palette().text().color());
    p.drawText(line1.translated(0, line_h), Qt::AlignHCenter | Qt::AlignTop,
               fm.elidedText(Tr::tr("true: %1").arg(names_.value(static_cast<int>(s.target))),
                             Qt::ElideRight, cell_w - 2));
    cells_.push_back(QRect(cx, cy, cell_w, cell_h));
  }
}

bool WorstImagesWidget::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip && samples_) {
    auto* help = static_cast<QHelpEvent*>(e);
    for (std::size_t k = 0; k < cells_.size() && k < samples_->size(); ++k) {
      if (!cells_[k].contains(help->pos())) continue;
      const WorstSample& s = (*samples_)[k];
      QToolTip::showText(help->globalPos(),
                         Tr::tr("Sample %1: true %2, predicted %3; the model gives the true "
                                "class p = %4 (loss %5)")
                             .arg(s.sample >= 0 ? s.sample : s.position)
                             .arg(names_.value(static_cast<int>(s.target)),
                                  names_.value(static_cast<int>(s.predicted)))
                             .arg(s.probability, 0, 'f', 3)
                             .arg(s.loss, 0, 'g', 4));
      return true;
    }
    QToolTip::hideText();
    return true;
  }
  return QWidget::event(e);
}

GradCamControls::GradCamControls(WorstImagesWidget* thumbnails, QWidget* parent)
    : QWidget(parent), thumbnails_(thumbnails) {
  setObjectName(QStringLiteral("gradCamControls"));
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(4, 0, 4, 0);
  on_ = new QCheckBox(this);
  on_->setObjectName(QStringLiteral("gradCamCheck"));
  signed_ = new QCheckBox(this);
  signed_->setObjectName(QStringLiteral("gradCamSigned"));
  class_ = new QComboBox(this);
  class_->setObjectName(QStringLiteral("gradCamClass"));
  class_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  class_->setMinimumContentsLength(8);
  row->addWidget(on_);
  row->addWidget(signed_);
  row->addWidget(class_, 1);
  connect(on_, &QCheckBox::toggled, this, &GradCamControls::apply);
  connect(signed_, &QCheckBox::toggled, this, &GradCamControls::apply);
  connect(class_, &QComboBox::currentIndexChanged, this, &GradCamControls::apply);
  retranslate();
}

void GradCamControls::setClasses(const QStringList& names) {
  if (names == names_) return;
  names_ = names;
  retranslate();
}

void GradCamControls::apply() {
  signed_->setEnabled(on_->isChecked());
  class_->setEnabled(on_->isChecked());
  thumbnails_->setGradCam(on_->isChecked(), signed_->isChecked(), class_->currentIndex() - 1);
}

void GradCamControls::retranslate() {
  on_->setText(Tr::tr("Grad-CAM"));
  on_->setToolTip(Tr::tr("Where the network looks: the last convolution's feature maps, each "
                         "weighted by how much the class score grows with it (Grad-CAM), "
                         "laid over the image."));
  signed_->setText(Tr::tr("signed"));
  signed_->setToolTip(Tr::tr("Signed: red where the image speaks for the class, blue where it "
                             "speaks against it; unticked (the usual Grad-CAM) only the red "
                             "part."));
  const int index = std::max(0, class_->currentIndex());
  const QSignalBlocker block(class_);
  class_->clear();
  class_->addItem(Tr::tr("predicted class"));
  for (const QString& n : names_) class_->addItem(Tr::tr("class %1").arg(n));
  class_->setCurrentIndex(std::min(index, class_->count() - 1));
  apply();
}

void GradCamControls::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(e);
}

}  // namespace trainscope

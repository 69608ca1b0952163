#include "gui/views/augmentation_preview.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QImage>
#include <QLabel>
#include <QPixmap>
#include <QPointer>
#include <QPushButton>
#include <QThreadPool>
#include <QVBoxLayout>

#include "core/data/augment/preview.h"
#include "gui/tr.h"

namespace trainscope {
namespace {

constexpr int kVariants = 16;
constexpr int kCell = 104;  // pixels of one variant on screen

QPixmap toPixmap(const augment::PreviewImage& im) {
  const int h = static_cast<int>(im.height), w = static_cast<int>(im.width);
  QImage out(w, h, QImage::Format_RGB32);
  const int64_t plane = im.height * im.width;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int64_t p = static_cast<int64_t>(y) * w + x;
      const int r = im.pixels[static_cast<size_t>(p)];
      const int g = im.channels == 3 ? im.pixels[static_cast<size_t>(plane + p)] : r;
      const int b = im.channels == 3 ? im.pixels[static_cast<size_t>(2 * plane + p)] : r;
      out.setPixel(x, y, qRgb(r, g, b));
    }
  // Whole-pixel magnification: the pixels a crop or flip moved stay visible as pixels.
  const int scale = std::max(1, kCell / std::max(h, w));
  return QPixmap::fromImage(out.scaled(w * scale, h * scale, Qt::KeepAspectRatio,
                                       Qt::FastTransformation));
}

}  // namespace

AugmentationPreviewDialog::AugmentationPreviewDialog(const TrainConfig& config, QWidget* parent)
    : QDialog(parent), config_(config) {
  setObjectName(QStringLiteral("augmentPreviewDialog"));
  seed_ = static_cast<uint64_t>(config.training.seed.value_or(0));
  none_on_ = !config.data.augment.any();
  auto* layout = new QVBoxLayout(this);
  intro_ = new QLabel(this);
  intro_->setWordWrap(true);
  layout->addWidget(intro_);
  transforms_ = new QLabel(this);
  transforms_->setObjectName(QStringLiteral("augmentPreviewTransforms"));
  transforms_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  transforms_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  transforms_->setWordWrap(true);
  layout->addWidget(transforms_);
  auto* row = new QHBoxLayout;
  auto* original_box = new QVBoxLayout;
  original_caption_ = new QLabel(this);
  original_ = new QLabel(this);
  original_->setFixedSize(kCell + 4, kCell + 4);
  original_->setAlignment(Qt::AlignCenter);
  original_box->addWidget(original_caption_);
  original_box->addWidget(original_);
  original_box->addStretch(1);
  row->addLayout(original_box);
  auto* grid_widget = new QWidget(this);
  grid_widget->setObjectName(QStringLiteral("augmentPreviewGrid"));
  grid_ = new QGridLayout(grid_widget);
  grid_->setSpacing(4);
  for (int k = 0; k < kVariants; ++k) {
    auto* cell = new QLabel(grid_widget);
    cell->setFixedSize(kCell + 4, kCell + 4);
    cell->setAlignment(Qt::AlignCenter);
    cell->setFrameShape(QFrame::StyledPanel);
    grid_->addWidget(cell, k / 4, k % 4);
  }
  row->addWidget(grid_widget, 1);
  layout->addLayout(row);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("augmentPreviewStatus"));
  status_->setWordWrap(true);
  layout->addWidget(status_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  redraw_ = buttons->addButton(QString(), QDialogButtonBox::ActionRole);
  redraw_->setObjectName(QStringLiteral("augmentPreviewRedraw"));
  next_image_ = buttons->addButton(QString(), QDialogButtonBox::ActionRole);
  next_image_->setObjectName(QStringLiteral("augmentPreviewNextImage"));
  redraw_->setEnabled(false);
  next_image_->setEnabled(false);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(redraw_, &QPushButton::clicked, this, &AugmentationPreviewDialog::redraw);
  connect(next_image_, &QPushButton::clicked, this, &AugmentationPreviewDialog::nextImage);
  layout->addWidget(buttons);
  retranslate();
  status_->setText(Tr::tr("Loading the training images as a run loads them…"));

  QPointer<AugmentationPreviewDialog> self(this);
  const TrainConfig c = config_;
  QThreadPool::globalInstance()->start([self, c] {
    std::shared_ptr<augment::PreviewSource> source;
    QString error;
    try {
      source = std::make_shared<augment::PreviewSource>(c);
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    QMetaObject::invokeMethod(
        qApp, [self, source, error] {
          if (self) self->onLoaded(source, error);
        },
        Qt::QueuedConnection);
  });
}

AugmentationPreviewDialog::~AugmentationPreviewDialog() = default;

void AugmentationPreviewDialog::retranslate() {
  setWindowTitle(Tr::tr("Augmentation preview"));
  intro_->setText(
      Tr::tr("One training image and %1 variants of it, drawn as the training batches draw them. "
             "Only training images are augmented: validation and test images are shown to the "
             "model as they are.")
          .arg(kVariants));
  original_caption_->setText(Tr::tr("Original:"));
  redraw_->setText(Tr::tr("New draws"));
  next_image_->setText(Tr::tr("Another image"));
}

void AugmentationPreviewDialog::onLoaded(std::shared_ptr<augment::PreviewSource> source,
                                         const QString& error) {
  if (!source) {
    status_->setText(Tr::tr("No preview: %1").arg(error));
    emit loaded(false);
    return;
  }
  source_ = std::move(source);
  redraw_->setEnabled(!none_on_);
  next_image_->setEnabled(source_->trainingImages() > 1);
  show16();
  emit loaded(true);
}

void AugmentationPreviewDialog::redraw() {
  if (!source_) return;
  ++seed_;
  show16();
}

void AugmentationPreviewDialog::nextImage() {
  if (!source_) return;
  index_ = (index_ + 1) % std::max<int64_t>(1, source_->trainingImages());
  show16();
}

void AugmentationPreviewDialog::show16() {
  const augment::AugmentPreview p = source_->preview(index_, kVariants, seed_);
  original_->setPixmap(toPixmap(p.original));
  for (int k = 0; k < kVariants && k < static_cast<int>(p.variants.size()); ++k)
    static_cast<QLabel*>(grid_->itemAt(k)->widget())->setPixmap(toPixmap(p.variants[k]));
  shown_ = static_cast<int>(p.variants.size());
  seconds_ = p.seconds;
  QStringList lines;
  for (const std::string& t : p.transforms) lines << QString::fromStdString(t);
  transforms_->setText(lines.isEmpty() ? QString() : lines.join(QLatin1Char('\n')));
  if (none_on_)
    status_->setText(Tr::tr("No augmentation is on: every variant is the image itself. Set "
                            "data.augment.* (hflip, crop_padding, random_resized_crop, "
                            "color_jitter, rotation) in All settings."));
  else
    status_->setText(Tr::tr("Training image %1 of %2; %3 variants made in %4 ms.")
                         .arg(index_ + 1)
                         .arg(source_->trainingImages())
                         .arg(shown_)
                         .arg(seconds_ * 1000, 0, 'f', 1));
}

QString AugmentationPreviewDialog::statusText() const { return status_->text(); }

}  // namespace trainscope

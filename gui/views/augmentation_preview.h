#pragma once
/// The augmentation preview (issue 48): what data.augment does to a training image, before a
/// run, so a class sees why a flipped, shifted or recoloured image is still the same class.
#include <QDialog>
#include <memory>

#include "core/config/train_config.h"

class QGridLayout;
class QLabel;
class QPushButton;

namespace trainscope {

namespace augment {
class PreviewSource;
}

/// One training image and 16 variants of it drawn as training batches draw them
/// (core/data/augment/preview.h), in a 4x4 grid (augmentPreviewGrid), with the transforms as
/// torchvision code (augmentPreviewTransforms). "New draws" (augmentPreviewRedraw) draws 16
/// others; "Another image" (augmentPreviewNextImage) takes the next training image. The data
/// loads on a worker thread as a run loads it; the variants are made on the GUI thread (a few
/// milliseconds for 28x28 images; the time is shown). Validation and test images are never
/// augmented, which the dialog says.
class AugmentationPreviewDialog : public QDialog {
  Q_OBJECT
 public:
  explicit AugmentationPreviewDialog(const TrainConfig& config, QWidget* parent = nullptr);
  ~AugmentationPreviewDialog() override;

  /// Draws 16 new variants (the data must be loaded).
  void redraw();
  /// Shows the next training image and its variants.
  void nextImage();
  /// Variants shown; 0 before the data is loaded or after an error.
  int variantCount() const { return shown_; }
  /// Seconds the last 16 variants took.
  double lastSeconds() const { return seconds_; }
  /// The status line (loading, the time taken, or the error).
  QString statusText() const;

 signals:
  /// The data loaded (ok) or could not be (the status line says why).
  void loaded(bool ok);

 private:
  void onLoaded(std::shared_ptr<augment::PreviewSource> source, const QString& error);
  void show16();
  void retranslate();

  TrainConfig config_;
  std::shared_ptr<augment::PreviewSource> source_;
  QLabel* intro_;
  QLabel* original_caption_;
  QLabel* original_;
  QLabel* transforms_;
  QGridLayout* grid_;
  QLabel* status_;
  QPushButton* redraw_;
  QPushButton* next_image_;
  int64_t index_ = 0;
  uint64_t seed_ = 0;
  int shown_ = 0;
  double seconds_ = 0;
  bool none_on_ = false;
};

}  // namespace trainscope

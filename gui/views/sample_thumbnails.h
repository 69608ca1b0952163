#pragma once
/// Validation samples as thumbnails in the evaluation view (objectName `worstImages`).
#include <QRect>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <vector>

#include "core/run/records.h"

namespace trainscope {

/// Images as the user gave them (the worst-predicted ones, or a confusion matrix cell's), each
/// with its predicted class (red when wrong) and its true class; a tooltip per image gives the
/// sample number, the probability of the true class and the loss.
class WorstImagesWidget : public QWidget {
 public:
  explicit WorstImagesWidget(QWidget* parent);
  /// `samples` must outlive the widget's use (the view's detail); `shape` [C, H, W].
  void set(const std::vector<WorstSample>* samples, std::vector<int64_t> shape, QStringList names);
  /// Grad-CAM over the images (WorstSample::cams): off, or the map of class `cls` (-1: each
  /// sample's predicted class), ReLU'd (what speaks for the class, red, scaled to the map's
  /// maximum) or `signed` (for the class red, against it blue, scaled to the largest |value|).
  void setGradCam(bool on, bool signed_map, int cls);
  /// The overlay's colour of a map value `v` with scale `top` (> 0): for tests.
  static QColor camColor(float v, float top, bool signed_map);

 protected:
  void paintEvent(QPaintEvent*) override;
  bool event(QEvent* e) override;

 private:
  const std::vector<WorstSample>* samples_ = nullptr;
  std::vector<int64_t> shape_;
  QStringList names_;
  std::vector<QRect> cells_;  ///< where each sample was drawn (tooltips)
  bool cam_ = false, cam_signed_ = false;
  int cam_class_ = -1;
};

/// The Grad-CAM switches over the thumbnails (`gradCamControls`): "Grad-CAM" (`gradCamCheck`),
/// "signed" (`gradCamSigned`, explained in its tooltip) and the class (`gradCamClass`: each
/// sample's predicted class, or one class for all); `thumbnails` follows them.
class GradCamControls : public QWidget {
  Q_OBJECT
 public:
  GradCamControls(WorstImagesWidget* thumbnails, QWidget* parent);
  /// The class names of the run (the combo's entries after "predicted class").
  void setClasses(const QStringList& names);
  void retranslate();

 protected:
  void changeEvent(QEvent* e) override;

 private:
  void apply();
  WorstImagesWidget* thumbnails_;
  class QCheckBox* on_;
  class QCheckBox* signed_;
  class QComboBox* class_;
  QStringList names_;
};

}  // namespace trainscope

#pragma once
/// What a convolutional model's first layer sees: its filters and one image's feature maps.
#include <QWidget>

#include "core/train/monitors/model_view.h"

namespace trainscope {

/// Paints the first Conv2d's filters (objectName `convMaps`) of a ModelViewRecord, each scaled
/// from its own lowest (black) to highest (white) weight (RGB for 3 input channels, else the
/// mean over the input channels), and the first conv block's feature maps of the record's first
/// image, each scaled from its lowest value (black) to its highest (white): filters in the upper
/// half, maps in the lower, each group in the column count that gives the largest tiles, under
/// a title line. Empty for records without filters (its owner then hides its page).
class ConvMaps : public QWidget {
  Q_OBJECT
 public:
  explicit ConvMaps(QWidget* parent = nullptr);
  /// Draws `record`'s filters and maps (null: nothing); the record must outlive the next paint.
  void setRecord(const ModelViewRecord* record);
  /// Whether `record` has anything for this widget.
  static bool hasMaps(const ModelViewRecord& record) { return !record.filters.empty(); }

 protected:
  void paintEvent(QPaintEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  const ModelViewRecord* record_ = nullptr;
};

}  // namespace trainscope

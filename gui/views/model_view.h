#pragma once
/// The live model view: what the model does, drawn from the engine's small ModelViewRecords.
#include <QWidget>
#include <optional>

#include "core/run/records.h"
#include "core/train/monitors/model_view.h"
#include "gui/plots/plot_style.h"

class QCustomPlot;
class QCPColorMap;
class QCPGraph;
class QLabel;
class QStackedWidget;
class QTabWidget;

namespace trainscope {

class ConvMaps;
class ImageGrid;

/// Shows the newest ModelViewRecord (objectName `modelView`): for 1-D regression the training
/// and validation points, the true function and the model's prediction curve; for 2-D
/// classification the class-1 probability over a grid as shaded decision regions
/// (QCPColorMap, grid_w x grid_h cells, blue = class 0, orange = class 1, white = the boundary)
/// with the points coloured by class (training filled, validation hollow); for images a 4x4
/// grid of fixed validation images with predicted and true class, wrong ones framed in red,
/// and, on a second page for a convolutional model, its first layer's filters and feature maps.
/// Everything is drawn once per record (epoch ends and pauses), never per step.
class ModelView : public QWidget {
  Q_OBJECT
 public:
  explicit ModelView(QWidget* parent = nullptr);

  /// Draws `record` (replacing the previous one).
  void setRecord(const ModelViewRecord& record);
  /// The new run's data (after clear()): whether the engine draws it at all (else the empty
  /// state says so and points to the Evaluation tab), and the image shape (RGB images).
  void setData(const DataSummary& data);
  /// Back to the empty state (a new run). `readBack`: the run was read back from its folder,
  /// whose files record no model view, and the empty state says so instead of promising one at
  /// the next epoch end.
  void clear(bool readBack = false);
  void retranslate();
  /// Presentation mode: the curve and region plot styled as the live plots are
  /// (LivePlot::setPresentation; 1, 1: as designed).
  void setPresentation(double lineScale, double fontRatio);

  /// The record shown, if any.
  const std::optional<ModelViewRecord>& record() const { return record_; }
  /// The decision-region map (for tests): its data has grid_w x grid_h cells.
  QCPColorMap* colorMap() const { return map_; }
  /// The prediction curve of a regression record (for tests).
  QCPGraph* predictionGraph() const { return prediction_; }
  /// Images shown and how many of them are wrong (for tests).
  int imageCount() const;
  int wrongCount() const;
  /// Image captions the last paint had to elide (the font shrinks to 6.5 pt first).
  int cutCaptions() const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void showCurve(const ModelViewRecord& r);
  void showRegions(const ModelViewRecord& r);
  void updateCaption();

  std::optional<ModelViewRecord> record_;
  QLabel* caption_;
  QStackedWidget* stack_;
  QCustomPlot* plot_;
  PlotStyler styler_;
  double line_scale_ = 1, font_ratio_ = 1;
  QCPColorMap* map_;
  QCPGraph* train_points_[2];  ///< Curve: [0] the points; Regions: per class
  QCPGraph* val_points_[2];
  QCPGraph* truth_;
  QCPGraph* prediction_;
  QTabWidget* images_page_;  ///< the image grid and, for a CNN, its filters and feature maps
  ImageGrid* images_;
  ConvMaps* conv_;
  QLabel* empty_;
  bool read_back_ = false;
  bool drawable_ = true;  ///< the run's data has a model picture (setData)  ///< the empty state is that of a run read back from its folder
};

}  // namespace trainscope

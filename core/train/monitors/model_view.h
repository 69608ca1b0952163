#pragma once
/// What the model does, as small value records for the live model view (torch-free): the
/// prediction curve of 1-D regression, the class-1 probability over a grid for 2-D
/// classification, predicted vs true class of fixed validation images.
#include <cstdint>
#include <string>
#include <vector>

namespace trainscope {

/// One snapshot of the model, computed on the training thread under NoGradGuard in eval mode
/// (Trainer::Impl, at epoch ends and when the run pauses). Coordinates are the data's raw
/// units (standardisation undone).
struct ModelViewRecord {
  enum class Kind { Curve, Regions, Images };
  Kind kind = Kind::Curve;
  int64_t epoch = 0;  ///< completed epochs when it was computed
  int64_t step = 0;

  // ---- Curve (1 input feature, regression) ----
  std::vector<double> grid_x;      ///< evenly spaced over the data range (+5% each side)
  std::vector<double> prediction;  ///< model output at grid_x
  std::vector<double> truth;       ///< the noise-free function at grid_x (sine), else empty
  /// Training / validation points: x, y (Curve) or x0, x1 (Regions).
  std::vector<double> train_x, train_y, val_x, val_y;

  // ---- Regions (2 input features, 2 classes) ----
  int grid_w = 0, grid_h = 0;                             ///< grid columns (x0) and rows (x1)
  double x0_min = 0, x0_max = 0, x1_min = 0, x1_max = 0;  ///< the grid's extent (cell centres)
  /// P(class 1) (softmax) at grid point (column i, row j) = probability[j * grid_w + i], where
  /// x0 = x0_min + i (x0_max - x0_min) / (grid_w - 1), likewise x1 with j.
  std::vector<float> probability;
  std::vector<int> train_label, val_label;  ///< classes of the points

  // ---- Images (Fashion-MNIST) ----
  int image_w = 0, image_h = 0;
  std::vector<std::vector<uint8_t>> images;  ///< raw pixels, row-major, of fixed val images
  std::vector<int> predicted, actual;        ///< class indices per image
  std::vector<double> confidence;            ///< softmax probability of the predicted class
  std::vector<std::string> class_names;

  // ---- Images, when the model has a Conv2d (model.kind cnn): its first one ----
  int filter_count = 0, filter_channels = 0, filter_h = 0, filter_w = 0;
  std::vector<float> filters;  ///< the first Conv2d's weight [count, channels, h, w], row-major
  int map_count = 0, map_h = 0, map_w = 0;
  /// The first conv block's output (Conv2d [BatchNorm2d] activation, before pooling) for
  /// images[0]: [count, h, w], row-major.
  std::vector<float> feature_maps;
};

}  // namespace trainscope

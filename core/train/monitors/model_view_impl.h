#pragma once
/// Computing ModelViewRecords (torch types; internal to core).
#include "core/model/model.h"

#include <optional>

#include "core/data/dataset.h"
#include "core/train/monitors/model_view.h"

namespace trainscope {

/// Grid sizes and point counts of the model view.
struct ModelViewOptions {
  int curve_points = 200;
  int grid = 60;         ///< grid x grid points for 2-D classification
  int max_points = 500;  ///< training / validation points sent at most (the first ones)
  int images = 16;       ///< validation images sent (the first ones of the split)
};

/// The view of `model` for `data`: Curve for 1 input feature (regression), Regions for 2
/// input features (classification), Images for image data; nullopt for anything else. Runs in
/// eval mode under NoGradGuard and puts the model back into the mode it was in. The grid is
/// converted to model inputs with data.summary.preprocessing (per-feature mean / std). `truth_sine_scale`: the
/// source is "sine" and its targets are scaled by this (data.target_scale: truth =
/// scale * sin(x)); 0 = no known true function.
std::optional<ModelViewRecord> computeModelView(Model& model,
                                                const PreparedData& data, double truth_sine_scale,
                                                const ModelViewOptions& options = {});

}  // namespace trainscope

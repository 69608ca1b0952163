#pragma once
/// Importing weights saved by Python (or a TrainScope checkpoint's model) into a run's model:
/// TrainerOptions::init_weights. Internal to core (torch types).
#include "core/model/model.h"

#include <filesystem>

#include "core/io/python_weights.h"

namespace trainscope {

/// Reads `file` (readWeightsFile, core/io/python_weights_file.h) and loads its state_dict into
/// `model` like Python's model.load_state_dict(state_dict, strict=True): names and shapes must
/// match exactly; values of another real dtype are converted on copy. Everything is checked
/// before the model changes: on any problem it throws Error(ErrorCode::Checkpoint, file)
/// naming the file and listing every missing key, unexpected key and shape mismatch (both
/// shapes), and `model` is untouched. Returns the file's description (form, tensors).
WeightsFileInfo importWeights(const Model& model,
                              const std::filesystem::path& file);

}  // namespace trainscope

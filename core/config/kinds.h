#pragma once
/// The kinds registry: one row per model kind (and, as they arrive, per data source), read by
/// the config validator, the CLI's help and the GUI's combos. Torch-free: the builder is a
/// function pointer returning core/model's Model, declared here only by name.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config/train_config.h"

namespace trainscope {

class Model;

/// One model kind: `model.kind` = name.
struct ModelKind {
  std::string name;         ///< the model.kind value ("mlp")
  std::string key_section;  ///< where its own keys live ("model": the MLP's flat keys)
  std::string description;  ///< one English line for help texts
  bool image_input = false;     ///< needs [C, H, W] inputs (a conv net)
  bool sequence_input = false;  ///< needs [T, F] inputs (a recurrent net)
  /// Builds the model for one sample of `input_shape` and `outputs` outputs (see
  /// core/model/model.h buildModel).
  std::shared_ptr<Model> (*build)(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                  int64_t outputs) = nullptr;
};

/// Every model kind, in the order help texts and combos list them.
const std::vector<ModelKind>& modelKinds();

/// The row named `name`; throws Error(Config, "model.kind") naming the known kinds otherwise.
const ModelKind& modelKind(const std::string& name);

/// The names of modelKinds(), in order.
std::vector<std::string> modelKindNames();

}  // namespace trainscope

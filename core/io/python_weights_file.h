#pragma once
/// Internal to core (torch types): reading a `torch.save` zip file. The torch-free view is
/// core/io/python_weights.h; loading the tensors into a model is train/weights_import.h.
#include <ATen/core/Dict.h>
#include <ATen/core/ivalue.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/io/python_weights.h"

namespace trainscope {

/// The whole object stored by `torch.save(obj, file)` (or torch::pickle_save), unpickled with
/// core/io/pickle_reader.h; tensors are on the CPU (like torch.load(map_location="cpu")).
/// Throws Error(Checkpoint, file) "cannot read weights from <file>: <problem>" for every case
/// listed at inspectWeightsFile except the state_dict checks.
c10::IValue readTorchSaveFile(const std::filesystem::path& file);

/// A weights file's state_dict.
struct WeightsFile {
  WeightsFileInfo info;
  /// name -> tensor (CPU), in file order; every value is a tensor.
  std::vector<std::pair<std::string, at::Tensor>> state;
};

/// readTorchSaveFile + finding the state_dict (see WeightsForm). Throws as
/// inspectWeightsFile.
WeightsFile readWeightsFile(const std::filesystem::path& file);

}  // namespace trainscope

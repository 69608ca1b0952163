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
/// Throws Error(Checkpoint, file) "<failure><file>: <problem>" for every case listed at
/// inspectWeightsFile except the state_dict checks, and for a record whose CRC-32 does not
/// match (torch_zip.h) or a pickle that pickle_reader.h refuses (malformed, too deeply nested,
/// a tensor outside its storage). Memory: the file's size plus its tensors'.
/// `not_zip` begins the problem of a file that is no zip archive at all.
c10::IValue readTorchSaveFile(const std::filesystem::path& file,
                              const std::string& failure = "cannot read weights from ",
                              const std::string& not_zip = "not a PyTorch file");

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

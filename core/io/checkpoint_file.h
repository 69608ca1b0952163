#pragma once
/// Internal to core: the checkpoint dict on disk (torch types). The torch-free view is
/// core/io/checkpoint.h; capturing and restoring the training state is train/train_state_io.h.
#include <ATen/core/Dict.h>
#include <ATen/core/ivalue.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/train/records.h"

namespace trainscope {

/// A dict with string keys and values of any type (Python: dict[str, Any]).
c10::impl::GenericDict makeStringDict();

/// Reads `file` with torch::pickle_load and checks that it is a TrainScope checkpoint of a
/// format version this build reads. Throws Error(Checkpoint, file) naming the problem.
c10::impl::GenericDict readCheckpointDict(const std::filesystem::path& file);

/// Serialises `dict` with torch::pickle_save and writes it atomically (temp file in the same
/// folder, fsync, rename). Removes temp files of earlier saves in that folder that a crash left
/// behind. Creates the folder. Throws Error(Io, file).
void writeCheckpointDict(const std::filesystem::path& file, const c10::impl::GenericDict& dict);

/// The value at `key`, or throws Error(Checkpoint, file) "<file>: missing key '<key>'".
const c10::IValue& requireKey(const c10::impl::GenericDict& dict, const std::string& key,
                              const std::filesystem::path& file, const std::string& where = "");

/// The `history` list of a checkpoint dict as EpochRecords. Throws Error(Checkpoint, file).
std::vector<EpochRecord> readHistory(const c10::impl::GenericDict& dict,
                                     const std::filesystem::path& file);

/// "float32", "float64", "int64", "uint8", ... (Python's torch dtype names without "torch.").
std::string dtypeName(c10::ScalarType type);

}  // namespace trainscope

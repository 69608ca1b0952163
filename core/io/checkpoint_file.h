#pragma once
/// Internal to core: the checkpoint dict on disk (torch types). The torch-free view is
/// core/train/state/checkpoint.h; capturing and restoring the training state is
/// core/train/state/train_state_io.h.
#include <ATen/core/Dict.h>
#include <ATen/core/ivalue.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>


namespace trainscope {

/// Throws Error(Checkpoint, file) "cannot load checkpoint <file>: <problem>".
[[noreturn]] void badCheckpoint(const std::filesystem::path& file, const std::string& problem);

/// A Python float or int as a double; NaN for anything else.
double numberOrNan(const c10::IValue& value);

/// "[16, 2]" ("[]" for a scalar).
std::string shapeText(const at::Tensor& t);

/// A dict with string keys and values of any type (Python: dict[str, Any]).
c10::impl::GenericDict makeStringDict();

/// Reads `file` with readTorchSaveFile (python_weights_file.h: CRC-32 checked, pickle
/// validated, tensors bounds-checked; also what Python's torch.save re-saves) and checks that it is a TrainScope checkpoint of a
/// format version this build reads. Throws Error(Checkpoint, file) naming the problem.
c10::impl::GenericDict readCheckpointDict(const std::filesystem::path& file);

/// Serialises `dict` with torch::pickle_save and writes it atomically (temp file in the same
/// folder, fsync, rename). Removes temp files of earlier saves in that folder that a crash left
/// behind. Creates the folder. Throws Error(Io, file).
void writeCheckpointDict(const std::filesystem::path& file, const c10::impl::GenericDict& dict);

/// The largest `epoch` a checkpoint may hold: training.epochs' maximum.
inline constexpr int64_t kMaxCheckpointEpoch = 1000000;
/// The largest step counter a checkpoint may hold (`global_step`, `batch_in_epoch`): 2^53, so
/// that every step number is exact as a JSON/CSV number and later steps cannot overflow.
inline constexpr int64_t kMaxCheckpointStep = int64_t{1} << 53;

/// Throws Error(Checkpoint, file) naming the key when a counter is negative or past its maximum:
/// epoch and best_epoch 0..kMaxCheckpointEpoch, global_step and batch_in_epoch
/// 0..kMaxCheckpointStep, and batch_in_epoch <= global_step.
void checkCheckpointCounters(const std::filesystem::path& file, int64_t epoch, int64_t global_step,
                             int64_t batch_in_epoch, int64_t best_epoch);

/// The value at `key`, or throws Error(Checkpoint, file) "<file>: missing key '<key>'".
const c10::IValue& requireKey(const c10::impl::GenericDict& dict, const std::string& key,
                              const std::filesystem::path& file, const std::string& where = "");

/// "float32", "float64", "int64", "uint8", ... (Python's torch dtype names without "torch.").
std::string dtypeName(c10::ScalarType type);

}  // namespace trainscope

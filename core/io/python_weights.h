#pragma once
/// Weights saved by Python's `torch.save` (default zip format, torch >= 1.6) for a TrainScope
/// model: a bare state_dict (the collections.OrderedDict of Module.state_dict()) or a dict
/// holding one under `model_state_dict` (Python's common {'epoch': .., 'model_state_dict': ..,
/// 'optimizer_state_dict': ..}, or a TrainScope checkpoint). Torch-free: front ends describe a
/// file before importing it (the GUI's "Import weights..." confirmation); the import itself is
/// TrainerOptions::init_weights (core/train/trainer.h).
#include <filesystem>
#include <string>
#include <vector>

#include "core/io/checkpoint_format.h"

namespace trainscope {

/// Where the tensors were found in the file.
enum class WeightsForm {
  StateDict,            ///< the file is a state_dict: {name: tensor}
  ModelStateDict,       ///< a dict whose `model_state_dict` is the state_dict
  TrainScopeCheckpoint  ///< a TrainScope checkpoint (also a dict with `model_state_dict`)
};
/// "state_dict" | "model_state_dict" | "trainscope_checkpoint" (run.json `init_weights.form`).
std::string toString(WeightsForm form);

/// What a weights file holds, as plain values (no tensors).
struct WeightsFileInfo {
  std::filesystem::path file;
  WeightsForm form = WeightsForm::StateDict;
  /// Top-level keys of the dict for ModelStateDict/TrainScopeCheckpoint ("epoch",
  /// "model_state_dict", ...), in file order; empty for a bare state_dict.
  std::vector<std::string> keys;
  /// The state_dict's entries in file order: name ("0.weight"), shape, dtype ("float32").
  std::vector<CheckpointTensor> tensors;
};

/// Reads `file` (a `torch.save` zip; its tensors are read, nothing else is touched) and
/// describes its state_dict. Throws Error(ErrorCode::Checkpoint, file) with an English
/// message naming the file and the problem for: a missing or empty file; Python's legacy
/// (non-zip) format — the message says how to re-save it (`torch.save(obj, f)` with torch >=
/// 1.6, whose default is _use_new_zipfile_serialization=True); random bytes; a truncated or
/// corrupt zip; a zip that is not a torch.save file (no data.pkl; a TorchScript archive); a
/// file holding neither a state_dict nor a dict with `model_state_dict` (e.g. a pickled
/// nn.Module), or whose state_dict has entries that are not tensors.
WeightsFileInfo inspectWeightsFile(const std::filesystem::path& file);

}  // namespace trainscope

#pragma once
/// The `format` and `format_version` a TrainScope checkpoint carries (ARCHITECTURE §5) and the
/// plain description of one of its tensors, for the reader of the dict
/// (core/io/checkpoint_file.h), its torch-free view (core/train/state/checkpoint.h) and the
/// weights importer (core/io/python_weights.h). Torch-free.
#include <cstdint>
#include <string>
#include <vector>

namespace trainscope {

/// Value of the checkpoint's `format` key.
inline constexpr const char* kCheckpointFormat = "trainscope.checkpoint";
/// Version written by this build; files with a higher `format_version` are refused.
/// 2: `history` as columns of tensors (historyColumns); 1 wrote it as a list of dicts (read too).
inline constexpr int64_t kCheckpointFormatVersion = 2;

/// One tensor of a checkpoint (model_state_dict entry or optimizer buffer).
struct CheckpointTensor {
  std::string name;            ///< "0.weight"; optimizer buffers: "state.0.exp_avg"
  std::vector<int64_t> shape;  ///< sizes, outermost first ([] for a scalar)
  std::string dtype;           ///< "float32", "int64", ...
};

}  // namespace trainscope

#pragma once
/// The "torchscript" model kind (core/config/kinds.h, key model.torchscript.path): a module the
/// user scripted in Python (torch.jit.script(model).save(path), or torch.jit.trace), loaded with
/// torch::jit::load and trained by the engine like any kind. Torch-free header.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/system/memory.h"

namespace trainscope {

class Model;

/// One parameter or buffer of a TorchScript module.
struct ScriptTensorInfo {
  std::string name;  ///< its state_dict name, "features.0.weight"
  std::vector<int64_t> shape;
  std::string dtype;  ///< "float32"
  bool requires_grad = false;
};

/// The import report of a TorchScript file (`trainscope-cli inspect-model`, the GUI's import
/// dialog): what torch::jit::load gives, before any data goes through it.
struct ScriptModuleInfo {
  std::string file;       ///< absolute
  std::string type_name;  ///< the module's TorchScript class, "__torch__.Net"
  /// Saved by torch.jit.trace rather than torch.jit.script. Told from the source ranges the
  /// graphs keep (torch.jit.save's debug information): a script's name its Python file, a
  /// trace's are the Python stack of each recorded operation ("net.py(13): forward"). Without
  /// debug information, from the module types (a trace gives every module a fresh, mangled
  /// type: a heuristic, since a class scripted twice in one process is mangled too).
  bool traced = false;
  bool training = true;         ///< the mode it was saved in (torch.jit.load keeps it)
  std::string forward_schema;   ///< "forward(Tensor x) -> Tensor"
  std::vector<ScriptTensorInfo> parameters;  ///< named_parameters() order
  std::vector<ScriptTensorInfo> buffers;
  /// Every submodule (pre-order): its dotted name and TorchScript class.
  std::vector<std::pair<std::string, std::string>> submodules;
  int64_t trainable_parameters = 0, frozen_parameters = 0;  ///< scalars
  std::vector<std::string> warnings;  ///< English, one line each (traced; frozen parameters)
  /// The same warnings' codes, in order: "traced" | "frozen_parameters" | "file_access" |
  /// "prints".
  std::vector<std::string> warning_codes;
  /// The calls of its code that read or write files ("torch.from_file in code/__torch__/net.py"),
  /// found by TrainScope's own reader before loading (core/model/torchscript_archive.h); a
  /// module with any is loaded only with model.torchscript.allow_file_access.
  std::vector<std::string> file_operations;
};

/// Loads `file` with torch::jit::load (on the CPU) and describes it, after TrainScope's own
/// reader checked the archive (CRCs, tensors against their records) and its code (file access:
/// refused before loading unless `allow_file_access`; print() goes to stderr). Throws
/// Error(Config, file) naming the problem (a damaged archive, file access) or with what to run
/// in Python instead when it cannot be trained as the user expects: a missing path, a directory; a torch.save file (a state_dict or a pickled module, or a TrainScope
/// checkpoint) where TorchScript is needed; a file saved by a newer PyTorch; an operator
/// libtorch lacks (torchvision's ...); a forward that does not take one tensor; no trainable
/// parameters (torch.jit.freeze folds them into constants).
ScriptModuleInfo inspectTorchScript(const std::string& file, bool allow_file_access = false);

/// The import report of a model built by buildTorchScript (its warnings: traced, frozen
/// parameters), kept from the load so nobody reads the file again; nullptr for any other kind.
const ScriptModuleInfo* torchScriptInfo(const Model& model);

/// The "torchscript" kind's build: loads model.torchscript.path (inspectTorchScript's checks,
/// with model.torchscript.allow_file_access)
/// into a Model whose names are the module's own ("features.0.weight") and whose state_dict is
/// Python's Module.state_dict() order. The file fixes the architecture; image data stored flat
/// (`input_shape` [C*H*W], `image_shape` [C, H, W]) reaches a module that takes images as
/// [N, C, H, W] batches (tried once on zeros, in eval mode), else as stored. `outputs`: not
/// used (the shape check compares the output with it).
std::shared_ptr<Model> buildTorchScript(const ModelConfig& config,
                                        const std::vector<int64_t>& input_shape,
                                        const std::vector<int64_t>& image_shape, int64_t outputs);

/// The module's parameter count (exact, loading the file) and, for activations, what an MLP's
/// input and output layers keep (4 x (inputs + outputs) floats a sample): unknown without
/// running it, so the memory check only catches what the parameters alone rule out.
ModelFootprint torchScriptKindFootprint(const ModelConfig& config,
                                        const std::vector<int64_t>& input_shape,
                                        const std::vector<int64_t>& image_shape, int64_t outputs);

}  // namespace trainscope

#pragma once
/// TorchScript from an ExportPlan (issue 50): a torch::jit::Module built in C++ (parameters
/// registered, forward defined from TorchScript source that calls the same ATen operators the
/// run's layers call), saved as torch.jit.save's archive for Python's torch.jit.load.
/// Torch and TorchScript inside: core/export only.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace trainscope {

struct ExportPlan;

/// The name of the extra file each TrainScope export carries in its archive (the model card's
/// JSON): how a later export recognises a file it may replace.
inline constexpr const char* kExportExtraFile = "trainscope_export.json";

/// The archive bytes of `plan` as a module whose submodules carry the run's state_dict names
/// ("0.weight", "rnn.weight_ih_l0"), in eval mode; `card_json` goes in as the extra file
/// kExportExtraFile. `softmax`: the output is softmax(logits, 1). The TorchScript source of
/// forward is kept in the archive (code/), readable. Throws Error(Config, "model.kind") for a
/// layer it cannot write.
std::string torchScriptArchive(const ExportPlan& plan, bool softmax, const std::string& card_json);

/// The torchscript kind: the user's module saved by the run (`module_file`, torch.jit.save's
/// archive), wrapped with the plan's preprocessing (when it has one) and softmax as a module
/// whose submodule "model" is theirs (state_dict names "model.<theirs>"). The export takes
/// [N, input_shape...] as the other kinds do: where their module takes images [N, C, H, W]
/// (`image_shape`, tried on zeros as the run did) while the data stores them flat, the
/// wrapper reshapes. Throws Error(Config, module_file) when it cannot be read.
std::string wrapTorchScript(const std::filesystem::path& module_file, const ExportPlan& plan,
                            const std::vector<int64_t>& image_shape, bool softmax,
                            const std::string& card_json);

}  // namespace trainscope

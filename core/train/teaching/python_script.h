#pragma once
/// "Show me the PyTorch code" (issue 25 §7): a run's configuration written as a plain Python
/// torch 1.13 script that trains the same way, in the order of the seeds' training template
/// (model.train(), zero_grad, forward, backward, clip, step; model.eval() under torch.no_grad()),
/// with the data generated or read, limited, split and standardised as core/data/dataset.h does
/// and the model built layer by layer in TrainScope's order, so that torch.manual_seed(seed)
/// draws the same initial weights. On the CPU the per-step losses equal steps.csv's (to 1e-6;
/// bit for bit where the operations are the same: tests/cli/export_python.py checks it).
/// Run as `python3 script.py --out DIR` it writes DIR/steps.csv (TrainScope's `step` and `loss`
/// columns), DIR/metrics.csv (epoch, step, train_loss, val_loss[, val_accuracy]) and
/// DIR/checkpoints/last.pt. Torch-free, Qt-free.
#include <string>
#include <vector>

#include "core/config/train_config.h"
#include "core/io/written_marks.h"  // kPythonScriptMarker: the script's first bytes

namespace trainscope {

/// Where the script came from, for its header comment ("run runs/moons-...", "preset moons").
struct PythonScriptSource {
  std::string description;
  /// What the script does not reproduce of the source, one English sentence each (a resumed
  /// run, settings changed while it trained): written into the script's docstring.
  std::vector<std::string> caveats{};
};

/// The script for `config` (a resolved config: a run's config.json, a preset or a config file).
/// `config.training.seed` unset: the script draws one and prints it. Throws
/// Error(Config, key) naming the key for what the script cannot reproduce: data.source csv,
/// npy, image-folder and idx (TrainScope's readers: their files are read by core/data, which
/// has no Python twin yet), model.kind torchscript (the module is the user's own Python: load
/// it with torch.jit.load), and scheduler.warmup_epochs with ReduceLROnPlateau (SequentialLR
/// refuses ReduceLROnPlateau in torch 1.13).
std::string pythonScript(const TrainConfig& config, const PythonScriptSource& source);

}  // namespace trainscope

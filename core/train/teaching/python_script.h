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
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/data/data_summary.h"
#include "core/io/written_marks.h"  // kPythonScriptMarker: the script's first bytes

namespace trainscope {

/// What a run on the user's own data (data.source csv, npy, idx, image-folder) read, from its
/// folder: the script reads the same samples through the folder's split.json (its indices and
/// data files' SHA-256) with the preprocessing recorded here, and builds the model for them.
struct OwnDataRecord {
  std::string run_dir;  ///< absolute; holds split.json
  DataSummary data;     ///< run.json's "data": task, shapes, class and feature names
  /// csv: how the pool table was read (its resolved delimiter and header), the target column's
  /// name and each feature of x in order as {column, category}: category "" for a number
  /// column, else a one-hot column's category (feature "<column>=<category>").
  char delimiter = ',';
  bool header = true;
  std::string target_column;
  std::vector<std::pair<std::string, std::string>> features;
};

/// Whether `source` is the user's own data (csv, npy, idx, image-folder), which the script reads
/// through a run's split.json.
bool isOwnDataSource(const std::string& source);

/// Reads the OwnDataRecord of the run in `dir` whose resolved config is `config` (run.json's
/// data; for csv the pool table's header, read as the run read it). Throws Error(Data, file)
/// naming run.json or split.json when missing or unreadable, or the table when its columns no
/// longer hold the run's features (the file changed since the run).
OwnDataRecord readOwnDataRecord(const std::filesystem::path& dir, const TrainConfig& config);

/// Where the script came from, for its header comment ("run runs/moons-...", "preset moons").
struct PythonScriptSource {
  std::string description;
  /// What the script does not reproduce of the source, one English sentence each (a resumed
  /// run, settings changed while it trained): written into the script's docstring.
  std::vector<std::string> caveats{};
  /// The run's own data (readOwnDataRecord); required for data.source csv, npy, idx and
  /// image-folder, whose samples the script reads through the run's split.json.
  std::optional<OwnDataRecord> own_data{};
};

/// The script for `config` (a resolved config: a run's config.json, a preset or a config file).
/// `config.training.seed` unset: the script draws one and prints it. Throws
/// Error(Config, key) naming the key for what the script cannot reproduce: data.source csv,
/// npy, image-folder and idx without `source.own_data` (a preset or config file: the samples
/// are those a run's split.json lists, so export the run), and scheduler.warmup_epochs with
/// ReduceLROnPlateau (SequentialLR refuses ReduceLROnPlateau in torch 1.13). Own data is read
/// as Python users read it: pandas (csv), numpy (npy, idx), OpenCV's cv2 (image folders: the
/// decoder and resize TrainScope uses; PIL's resize differs). model.kind torchscript: the
/// script trains the module torch.jit.load gives.
std::string pythonScript(const TrainConfig& config, const PythonScriptSource& source);

}  // namespace trainscope

#pragma once
/// `trainscope-cli export RUN --format onnx|torchscript [--checkpoint best|last] [-o FILE]
/// [--raw-input] [--softmax]` and the dashboard's File > Export model... (issue 50): a run's
/// checkpoint as a file that runs outside TrainScope, with its model card beside it.
/// Torch-free header.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

/// What to export.
struct ExportRequest {
  std::filesystem::path run;        ///< the run folder (config.json, run.json, checkpoints/)
  std::string format;               ///< "onnx" | "torchscript"
  std::string checkpoint = "best";  ///< "best" | "last": checkpoints/best.pt or last.pt
  /// The file to write; empty: defaultExportPath in the working directory.
  std::filesystem::path output;
  /// Leave the run's preprocessing out: the export takes what the model takes (standardised
  /// inputs) instead of the values as stored (pixels 0-255, raw table values).
  bool raw_input = false;
  bool softmax = false;  ///< append softmax over dim 1 (class probabilities)
};

/// What was written.
struct ExportResult {
  std::filesystem::path file, card_json, card_markdown;  ///< absolute
  std::filesystem::path checkpoint;                      ///< the checkpoint exported
  int64_t epoch = 0, step = 0;                           ///< of its weights
  /// TorchScript: the largest absolute difference between the written module, read back with
  /// torch::jit::load, and TrainScope's model on 16 random inputs (the export is refused above
  /// 1e-4). Empty for ONNX (checked by onnx.checker and OpenCV's dnn in the test suite).
  std::optional<double> self_check;
  /// What the card warns about (English, one sentence each): a resume, settings changed while
  /// the run trained, a run not finished when it was exported.
  std::vector<std::string> notes;
};

/// "<run folder name>-<checkpoint>.onnx" or ".pt" in the current working directory.
std::filesystem::path defaultExportPath(const std::filesystem::path& run, const std::string& format,
                                        const std::string& checkpoint);

/// Exports `request`: checks everything before writing anything, then writes the file and its
/// model card (core/export/model_card.h) atomically; nothing in the run folder changes. Throws
/// Error(Config, "--format" | "--checkpoint" | "-o" | the run folder) for a bad argument
/// (an unknown format, a run folder that is not one, an output that is a directory, inside the
/// run folder, or a file TrainScope did not write), Error(Checkpoint, file) for a missing
/// checkpoint or one whose model differs from the run's config, Error(Config, "model.kind")
/// naming a layer the format cannot write; Error(Io, path) for a failed write.
ExportResult exportModel(const ExportRequest& request);

}  // namespace trainscope

#pragma once
/// The model card beside each export (issue 50): for `-o DIR/m.onnx`, DIR/m.model-card.json
/// and DIR/m.model-card.md, what someone needs to use the file without TrainScope: the task,
/// the class names in output order, the input shape and dtype, the preprocessing in words and
/// numbers, the data and its split, the metrics of the exported weights, the settings that
/// differ from the preset, the versions, and the Python lines that load and run it.
/// Torch-free.
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/data/data_summary.h"

namespace trainscope {

/// What the card says; filled by exportModel (core/export/export_model.h).
struct ModelCardFacts {
  std::string format;       ///< "onnx" | "torchscript"
  std::string file_name;    ///< the export's file name ("m.onnx")
  std::string run_dir;      ///< absolute
  std::string checkpoint;   ///< absolute path of the checkpoint exported
  std::string which;        ///< "best" | "last"
  int64_t epoch = 0, step = 0;
  std::string model_kind;   ///< model.kind
  std::string model_description;  ///< "mlp [2 -> 64 -> 64 -> 2] relu"
  DataSummary data;         ///< run.json data
  double val_fraction = 0;  ///< data.val_fraction
  int64_t data_seed = 0;
  bool preprocessing_included = true;  ///< false with --raw-input
  bool softmax = false;                ///< outputs are probabilities
  /// Metrics of the exported weights: "val_loss", "val_accuracy", "test_loss",
  /// "test_accuracy" where the run recorded them for that epoch.
  std::vector<std::pair<std::string, double>> metrics;
  /// What the settings are compared with: "preset moons", "the defaults", ...
  std::string settings_base;
  /// Dotted config keys that take effect and whose value differs from the base's, with both
  /// values (compact JSON): {key, run's, base's}.
  std::vector<std::vector<std::string>> changed_settings;
  /// What config.json does not tell (a resume, settings changed while it trained, a run not
  /// finished), one English sentence each.
  std::vector<std::string> caveats;
  std::string trainscope_version, torch_version;
};

/// The card as JSON (keys: trainscope_model_card (format version 1), format, file, task,
/// class_names, input_shape, input_dtype, image_shape, feature_names, outputs, output,
/// preprocessing {included, pixel_scale, standardize, mean, std, offset/scale formula,
/// resize, target_scale, text}, metrics, data {source, files, n_train, n_val, n_test,
/// val_fraction, seed}, model, checkpoint {file, which, epoch, step, run}, settings_changed
/// {compared_with, keys [{key, value, base}]}, caveats, versions, python).
nlohmann::ordered_json modelCardJson(const ModelCardFacts& facts);

/// The card as Markdown, from the JSON above (English).
std::string modelCardMarkdown(const nlohmann::ordered_json& card);

/// The card files for an export at `file`: DIR/m.model-card.json and DIR/m.model-card.md
/// (the extension of `file` replaced).
std::pair<std::filesystem::path, std::filesystem::path> modelCardPaths(const std::filesystem::path& file);

/// The Python lines that load and run the export (shown in the card): torch.jit.load for
/// TorchScript; OpenCV's cv2.dnn (and onnxruntime where installed) for ONNX.
std::vector<std::string> pythonLoadLines(const ModelCardFacts& facts);

}  // namespace trainscope

#pragma once
/// The kinds registry: one row per data source, model kind and optimizer, read by the config
/// validator, the engine, the CLI's help and the GUI. Torch-free (the GUI includes it): the
/// builders are function pointers to core/data's and core/model's code, whose types are only
/// declared here. The lookups live here, where the config reads them; the built-in rows are
/// made by the composition root core/kinds/builtin_kinds.cpp, which sits above core/data,
/// core/model and core/optim (the builtin*() functions at the end).
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/system/memory.h"

namespace trainscope {

class Model;
struct SourceData;
struct OptimizerFamily;
struct OwnDataRecord;
namespace python_script {
struct DataFacts;
}

/// One data source: `data.source` = name.
struct DataSourceKind {
  std::string name;             ///< the data.source value ("sine", "fashion-mnist")
  std::string key_section;      ///< where its own keys live ("data": today's flat keys)
  std::string description;      ///< one English line for help texts
  bool classification = false;  ///< integer class labels (else float regression targets)
  bool image_data = false;      ///< samples are images (the model view shows images)
  bool sequence_data = false;   ///< samples are sequences [T, F]
  /// Read from files (data.path names their folder, data.limit caps the count); else generated
  /// from data.seed (data.n_samples, data.noise).
  bool read_from_files = false;
  /// Regression targets are data.target_scale * sin(x): the model view can draw the truth.
  bool sine_truth = false;
  /// The user's own files (CSV, arrays, images, IDX; keys of their own section): a run's
  /// split.json and run.json describe them (export-python reads the samples from there).
  bool user_data = false;
  /// Generates or reads the whole pool (and a fixed test split where the source has one).
  /// Throws Error(Data, file) naming the file for unreadable or malformed files.
  void (*load)(const DataConfig& config, SourceData& out) = nullptr;
  /// export-python (core/train/teaching/python_script_data.cpp): what the script needs to know
  /// of the samples, and the Python that makes them as `load` does; null for the user's own
  /// data, which a script reads through a run's split.json.
  python_script::DataFacts (*python_facts)(const DataConfig& config) = nullptr;
  void (*python_samples)(std::ostringstream& out, const DataConfig& config) = nullptr;
  /// export-python for the user's own data (user_data): the Python that reads the samples a
  /// run's split.json names and converts them as `load` does (x_train, y_train, x_val, y_val);
  /// `record` is the run's OwnDataRecord.
  void (*python_own_samples)(std::ostringstream& out, const TrainConfig& config,
                             const OwnDataRecord& record,
                             const python_script::DataFacts& facts) = nullptr;
  /// Completes the OwnDataRecord of a run on this source from its files (the CSV table's
  /// columns); null when run.json says all. Throws Error(Data, file) as `load`.
  void (*python_own_record)(OwnDataRecord& record, const DataConfig& config) = nullptr;
  /// Python modules the script imports for this source beyond its usual ones: "gzip" (IDX
  /// files), "cv2" (OpenCV's decoding), "pandas" (the CSV reader).
  std::vector<std::string> python_modules;
};

/// Every data source, in the order help texts list them.
const std::vector<DataSourceKind>& dataSources();

/// The row named `name`; throws Error(Config, "data.source") naming the known sources otherwise.
const DataSourceKind& dataSource(const std::string& name);
/// The row named `name`, or null (for callers that must not throw, such as GUI slots).
const DataSourceKind* findDataSource(const std::string& name);

/// The names of dataSources(), in order.
std::vector<std::string> dataSourceNames();

/// One optimizer: `optimizer.name` = name. The only place optimizer names are written.
struct OptimizerKind {
  std::string name;         ///< the optimizer.name value ("sgd", "adam", "adamw")
  std::string torch_class;  ///< torch.optim's class name ("SGD"), shown in the GUI
  /// Adam family: per-parameter step sizes, so learning rates above 1e-2 are already high
  /// (plain SGD: above 0.1).
  bool adaptive = false;
  /// Per-parameter state tensors the size of the parameter, for `optimizer.momentum`
  /// (the memory estimate): SGD 1 with momentum else 0, Adam and AdamW 2.
  int (*state_buffers)(double momentum) = nullptr;
  /// How it is built and how its state_dict is saved and loaded (core/optim/optimizer_family.h).
  const OptimizerFamily* family = nullptr;
};

/// Every optimizer, in the order help texts and combos list them.
const std::vector<OptimizerKind>& optimizerKinds();
/// The row named `name`, or null.
const OptimizerKind* findOptimizerKind(const std::string& name);
/// The row named `name`; throws Error(Config, "optimizer.name") naming the known ones otherwise.
const OptimizerKind& optimizerKind(const std::string& name);
/// The names of optimizerKinds(), in order.
std::vector<std::string> optimizerNames();

/// One model kind: `model.kind` = name.
struct ModelKind {
  std::string name;             ///< the model.kind value ("mlp")
  std::string key_section;      ///< where its own keys live ("model": the MLP's flat keys)
  std::string description;      ///< one English line for help texts
  bool image_input = false;     ///< needs [C, H, W] inputs (a conv net)
  bool sequence_input = false;  ///< needs [T, F] inputs (a recurrent net)
  /// The architecture comes from the user's module file (model.torchscript.path): no widths to
  /// set, and the file's import is described before its shapes.
  bool architecture_from_file = false;
  /// Builds the model for one sample of `input_shape` (x's sample shape) and `outputs`
  /// outputs; `image_shape` is the data's [C, H, W] when its samples are images (stored flat
  /// or not), else empty (see core/model/model.h buildModel).
  std::shared_ptr<Model> (*build)(const ModelConfig& config,
                                  const std::vector<int64_t>& input_shape,
                                  const std::vector<int64_t>& image_shape,
                                  int64_t outputs) = nullptr;
  /// Parameters and activations of the model build() would make, computed without building it
  /// (the memory check runs before anything is allocated). Throws what build() throws for a
  /// shape the kind cannot take.
  ModelFootprint (*footprint)(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                              const std::vector<int64_t>& image_shape, int64_t outputs) = nullptr;
  /// The key that sizes the model, named when a run's parameters do not fit ("model.hidden").
  std::string size_key;
  /// The export-python script's `model = ...` for this kind, in TrainScope's layer order
  /// (core/train/teaching/python_script_model.cpp); throws Error(Config, "model.kind") when
  /// the data does not fit the kind.
  void (*python_module)(std::ostringstream& out, const ModelConfig& config,
                        const DataConfig& data, const python_script::DataFacts& facts) = nullptr;
};

/// Every model kind, in the order help texts and combos list them.
const std::vector<ModelKind>& modelKinds();

/// The row named `name`; throws Error(Config, "model.kind") naming the known kinds otherwise.
const ModelKind& modelKind(const std::string& name);
/// The row named `name`, or null (for callers that must not throw, such as GUI slots).
const ModelKind* findModelKind(const std::string& name);

/// The names of modelKinds(), in order.
std::vector<std::string> modelKindNames();

/// The built-in rows, in the order help texts and combos list them (core/kinds/
/// builtin_kinds.cpp). Called once each by dataSources(), optimizerKinds() and modelKinds().
std::vector<DataSourceKind> builtinDataSources();
std::vector<OptimizerKind> builtinOptimizerKinds();
std::vector<ModelKind> builtinModelKinds();

}  // namespace trainscope

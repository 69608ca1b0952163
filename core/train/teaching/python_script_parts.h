#pragma once
// The pieces of the export-python script (python_script.h), one file per concern: data
// (python_script_data.cpp), model, optimizer, scheduler and gradient helpers
// (python_script_model.cpp); python_script.cpp assembles them with the training loop. Each
// piece mirrors one place of the engine, named beside it, in the same operations and order.
// Internal to core/train/teaching.
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/train/teaching/python_script.h"  // OwnDataRecord

namespace trainscope::python_script {

/// A Python float literal for `v` (the shortest text that reads back as the same double).
std::string py(double v);
/// A Python list of integers.
std::string pyInts(const std::vector<int64_t>& v);
/// A Python list of floats (py() each).
std::string pyFloats(const std::vector<double>& v);
/// A Python string literal (config values are plain names; quotes and backslashes escaped).
std::string pyStr(const std::string& s);

/// What the script needs to know of a data source's samples.
struct DataFacts {
  bool classification = false;
  bool images = false;     ///< uint8 pixels [N, 784], converted per batch
  bool sequences = false;  ///< [N, T, 1]
  int64_t features = 0;    ///< one sample's values (flattened)
  int64_t outputs = 0;
  std::vector<int64_t> image_shape;  ///< [C, H, W] of images
  bool own = false;         ///< the user's own data, read through a run's split.json
  bool flatten = false;     ///< samples of more than one axis that an MLP flattens
  int64_t step_features = 1;  ///< sequences: F of [T, F]
  bool test = false;        ///< a test split the script evaluates at the end (fashion-mnist)
};

/// The facts of `data.source`, by the source's row (DataSourceKind::python_facts); throws
/// Error(Config, "data.source") for the user's own data (read through a run's split.json:
/// ownDataFacts).
DataFacts dataFacts(const DataConfig& d);
/// Each built-in source's facts and the Python that makes its samples (x, y; fashion-mnist also
/// x_test, y_test) as core/data/sources.cpp, synthetic_2d.cpp and sequences.cpp do, as
/// DataSourceKind::python_facts and python_samples.
DataFacts sineFacts(const DataConfig& d);
DataFacts planeTwoClassFacts(const DataConfig& d);  ///< moons, circles, spirals
DataFacts sineSequenceFacts(const DataConfig& d);
DataFacts fashionMnistFacts(const DataConfig& d);
void writeSineSamples(std::ostringstream& o, const DataConfig& d);
void writeMoonsSamples(std::ostringstream& o, const DataConfig& d);
void writeCirclesSamples(std::ostringstream& o, const DataConfig& d);
void writeSpiralsSamples(std::ostringstream& o, const DataConfig& d);
void writeSineSequenceSamples(std::ostringstream& o, const DataConfig& d);
void writeFashionMnistSamples(std::ostringstream& o, const DataConfig& d);
/// The facts of a run's own data (run.json's data summary).
DataFacts ownDataFacts(const OwnDataRecord& r);
/// The data section of a built-in source: generation or reading (its row's python_samples),
/// data.limit, the split.
void writeData(std::ostringstream& o, const DataConfig& d, const DataFacts& f);
/// The data section of the user's own data: split.json's samples read and converted (its
/// row's python_own_samples).
void writeOwnData(std::ostringstream& o, const TrainConfig& c, const OwnDataRecord& r, const DataFacts& f);
/// Each own-data source's reading and conversion (core/data/csv_source.cpp, image_folder.cpp,
/// npy_source.cpp, idx_source.cpp), as DataSourceKind::python_own_samples; the CSV table's
/// columns as python_own_record.
void writeCsvOwnSamples(std::ostringstream& o, const TrainConfig& c, const OwnDataRecord& r,
                        const DataFacts& f);
void writeImageFolderOwnSamples(std::ostringstream& o, const TrainConfig& c,
                                const OwnDataRecord& r, const DataFacts& f);
void writeNpyOwnSamples(std::ostringstream& o, const TrainConfig& c, const OwnDataRecord& r,
                        const DataFacts& f);
void writeIdxOwnSamples(std::ostringstream& o, const TrainConfig& c, const OwnDataRecord& r,
                        const DataFacts& f);
void readCsvOwnRecord(OwnDataRecord& r, const DataConfig& d);
/// Standardisation of x_train / x_val as core/data/dataset.cpp does it (and to_inputs for
/// uint8 pixels).
void writeStandardize(std::ostringstream& o, const DataConfig& d, const DataFacts& f, bool torchscript);
/// `model = ...` in TrainScope's layer order, by the kind's row (ModelKind::python_module);
/// throws Error(Config, "model.kind") for a kind the script cannot write or one that does not
/// fit the data.
void writeModel(std::ostringstream& o, const ModelConfig& m, const DataConfig& d, const DataFacts& f);
/// Each built-in kind's module (core/model/mlp.cpp, cnn.cpp, rnn.cpp, torchscript.cpp), as
/// ModelKind::python_module.
void writeMlpModule(std::ostringstream& o, const ModelConfig& m, const DataConfig& d, const DataFacts& f);
void writeCnnModule(std::ostringstream& o, const ModelConfig& m, const DataConfig& d, const DataFacts& f);
void writeRnnModule(std::ostringstream& o, const ModelConfig& m, const DataConfig& d, const DataFacts& f);
void writeTorchScriptModule(std::ostringstream& o, const ModelConfig& m, const DataConfig& d,
                            const DataFacts& f);
/// `optimizer = torch.optim....`.
void writeOptimizer(std::ostringstream& o, const OptimizerConfig& c);
/// The scheduler's construction; "" when there is none. Stepped after validation each epoch.
std::string schedulerCode(const SchedulerConfig& s);
/// total_grad_norm() and, with clipping, clip_gradients(norm).
void writeGradientHelpers(std::ostringstream& o, const ClipConfig& clip);

}  // namespace trainscope::python_script

// The composition root of the kinds registry: the built-in rows of core/config/kinds.h. It
// names every data source's loader, every model kind's builder and every optimizer family, so
// it sits above core/data, core/model and core/optim; nothing in core includes it (LLVM's
// library layering: tests/symbols/core_layering.py counts the arrows).
#include <initializer_list>

#include "core/config/kinds.h"
#include "core/data/csv_source.h"
#include "core/data/idx_source.h"
#include "core/data/image_folder.h"
#include "core/data/npy_source.h"
#include "core/data/sequences.h"
#include "core/data/sources.h"
#include "core/model/cnn.h"
#include "core/model/mlp.h"
#include "core/model/rnn.h"
#include "core/model/torchscript.h"
#include "core/optim/optimizer_family.h"
#include "core/train/teaching/python_script_parts.h"

namespace trainscope {
namespace {

/// A row with the flags named in `flags` set (each a bool member of Row), the rest false.
template <typename Row>
Row withFlags(Row row, std::initializer_list<bool Row::*> flags) {
  for (bool Row::*flag : flags) row.*flag = true;
  return row;
}

using SourceFlag = bool DataSourceKind::*;
constexpr SourceFlag kClassification = &DataSourceKind::classification;
constexpr SourceFlag kImageData = &DataSourceKind::image_data;
constexpr SourceFlag kSequenceData = &DataSourceKind::sequence_data;
constexpr SourceFlag kReadFromFiles = &DataSourceKind::read_from_files;
constexpr SourceFlag kSineTruth = &DataSourceKind::sine_truth;
constexpr SourceFlag kUserData = &DataSourceKind::user_data;

DataSourceKind source(const char* name, const char* key_section, const char* description,
                      void (*load)(const DataConfig&, SourceData&),
                      std::initializer_list<SourceFlag> flags,
                      decltype(DataSourceKind::python_facts) python_facts = nullptr,
                      decltype(DataSourceKind::python_samples) python_samples = nullptr) {
  DataSourceKind row;
  row.name = name;
  row.key_section = key_section;
  row.description = description;
  row.load = load;
  row.python_facts = python_facts;
  row.python_samples = python_samples;
  return withFlags(std::move(row), flags);
}

/// A row of the user's own data: export-python reads its samples through a run's split.json
/// (`own_samples`, `own_record`), importing `modules` besides its usual ones.
DataSourceKind ownSource(DataSourceKind row,
                         decltype(DataSourceKind::python_own_samples) own_samples,
                         std::vector<std::string> modules,
                         decltype(DataSourceKind::python_own_record) own_record = nullptr) {
  row.python_own_samples = own_samples;
  row.python_own_record = own_record;
  row.python_modules = std::move(modules);
  return row;
}

OptimizerKind optimizer(const char* name, const char* torch_class, const OptimizerFamily* family,
                        int (*state_buffers)(double momentum), bool adaptive) {
  OptimizerKind row;
  row.name = name;
  row.torch_class = torch_class;
  row.family = family;
  row.state_buffers = state_buffers;
  row.adaptive = adaptive;
  return row;
}

using ModelFlag = bool ModelKind::*;
constexpr ModelFlag kImageInput = &ModelKind::image_input;
constexpr ModelFlag kSequenceInput = &ModelKind::sequence_input;
constexpr ModelFlag kArchitectureFromFile = &ModelKind::architecture_from_file;

ModelKind model(const char* name, const char* key_section, const char* description,
                decltype(ModelKind::build) build, decltype(ModelKind::footprint) footprint,
                const char* size_key, decltype(ModelKind::python_module) python_module,
                std::initializer_list<ModelFlag> flags) {
  ModelKind row;
  row.name = name;
  row.key_section = key_section;
  row.description = description;
  row.build = build;
  row.footprint = footprint;
  row.size_key = size_key;
  row.python_module = python_module;
  return withFlags(std::move(row), flags);
}

}  // namespace

std::vector<DataSourceKind> builtinDataSources() {
  return {
      source("sine", "data", "y = sin(x) + noise for x in [-pi, pi] (regression, 1 input)",
             &loadSineSource, {kSineTruth}, &python_script::sineFacts,
             &python_script::writeSineSamples),
      source("moons", "data", "two interleaving half circles (2 inputs, 2 classes)",
             &loadMoonsSource, {kClassification}, &python_script::planeTwoClassFacts,
             &python_script::writeMoonsSamples),
      source("circles", "data", "two concentric noisy circles (2 inputs, 2 classes)",
             &loadCirclesSource, {kClassification}, &python_script::planeTwoClassFacts,
             &python_script::writeCirclesSamples),
      source("spirals", "data", "two interleaved spirals (2 inputs, 2 classes)",
             &loadSpiralsSource, {kClassification}, &python_script::planeTwoClassFacts,
             &python_script::writeSpiralsSamples),
      source("sine-sequence", "data",
             "next value of a noisy sine wave from its last data.seq_len values (x [seq_len, 1], "
             "regression), for the rnn kind",
             &loadSineSequenceSource, {kSequenceData}, &python_script::sineSequenceFacts,
             &python_script::writeSineSequenceSamples),
      source("fashion-mnist", "data",
             "Fashion-MNIST: 28x28 grey clothing images in 10 classes, read from data.path's IDX "
             "files",
             &loadFashionMnistSource, {kClassification, kImageData, kReadFromFiles},
             &python_script::fashionMnistFacts, &python_script::writeFashionMnistSamples),
      ownSource(source("csv", "data.csv",
                       "your CSV table (data.csv.path): one row per sample, the target column "
                       "data.csv.target; classification or regression",
                       &loadCsvSource, {kReadFromFiles, kUserData}),
                &python_script::writeCsvOwnSamples, {"pandas"}, &python_script::readCsvOwnRecord),
      ownSource(source("npy", "data.npy",
                       "your NumPy arrays (data.npy.path: an .npz, or .npy files of x and y); any "
                       "input shape",
                       &loadNpySource, {kReadFromFiles, kUserData}),
                &python_script::writeNpyOwnSamples, {}),
      ownSource(source("image-folder", "data.image_folder",
                       "your images (data.image_folder.path): a folder per class, as "
                       "torchvision's ImageFolder",
                       &loadImageFolderSource,
                       {kClassification, kImageData, kReadFromFiles, kUserData}),
                &python_script::writeImageFolderOwnSamples, {"cv2"}),
      ownSource(source("idx", "data.idx",
                       "any IDX pair (MNIST, KMNIST, EMNIST ...; data.idx.path and "
                       "data.idx.y_path), plain or .gz, any element type and class count",
                       &loadIdxSource, {kReadFromFiles, kUserData}),
                &python_script::writeIdxOwnSamples, {"gzip"}),
  };
}

std::vector<OptimizerKind> builtinOptimizerKinds() {
  return {
      optimizer("sgd", "SGD", &kSgdFamily, [](double momentum) { return momentum > 0 ? 1 : 0; },
                /*adaptive=*/false),
      optimizer("adam", "Adam", &kAdamFamily, [](double) { return 2; }, /*adaptive=*/true),
      optimizer("adamw", "AdamW", &kAdamWFamily, [](double) { return 2; }, /*adaptive=*/true),
  };
}

std::vector<ModelKind> builtinModelKinds() {
  return {
      model("mlp", "model",
            "multilayer perceptron: Linear layers of model.hidden widths with model.activation "
            "and model.dropout between them",
            &buildMlp, &mlpKindFootprint, "model.hidden", &python_script::writeMlpModule, {}),
      model("cnn", "model.cnn",
            "convolutional network for images: per model.cnn.channels entry Conv2d "
            "[-> BatchNorm2d] -> model.activation [-> pooling], then Linear layers "
            "(model.cnn.hidden) and the output",
            &buildCnn, &cnnKindFootprint, "model.cnn.channels", &python_script::writeCnnModule,
            {kImageInput}),
      model("rnn", "model.rnn",
            "recurrent network for sequences [T, F]: nn.RNN, nn.LSTM or nn.GRU (model.rnn.cell), "
            "the last step's output (or the mean over time) into a Linear output layer",
            &buildRnn, &rnnKindFootprint, "model.rnn.hidden_size", &python_script::writeRnnModule,
            {kSequenceInput}),
      model("torchscript", "model.torchscript",
            "your module scripted in Python (model.torchscript.path: "
            "torch.jit.script(model).save(path)), trained as it is",
            &buildTorchScript, &torchScriptKindFootprint, "model.torchscript.path",
            &python_script::writeTorchScriptModule, {kArchitectureFromFile}),
  };
}

}  // namespace trainscope

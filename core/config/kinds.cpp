#include "core/config/kinds.h"

#include "core/config/train_config.h"
#include "core/data/csv_source.h"
#include "core/data/image_folder.h"
#include "core/data/idx_source.h"
#include "core/data/npy_source.h"
#include "core/data/sources.h"
#include "core/errors.h"
#include "core/model/cnn.h"
#include "core/model/mlp.h"
#include "core/model/rnn.h"
#include "core/model/torchscript.h"
#include "core/data/sequences.h"
#include "core/optim/optimizer_family.h"

namespace trainscope {
namespace {

template <typename Row>
std::string knownNames(const std::vector<Row>& rows) {
  std::string known;
  for (const Row& r : rows) known += (known.empty() ? "" : ", ") + r.name;
  return known;
}

template <typename Row>
std::vector<std::string> namesOf(const std::vector<Row>& rows) {
  std::vector<std::string> names;
  for (const Row& r : rows) names.push_back(r.name);
  return names;
}

}  // namespace

const std::vector<DataSourceKind>& dataSources() {
  //  name, section, description, classification, image, sequence, files, sine truth, loader
  static const std::vector<DataSourceKind> sources = {
      {"sine", "data", "y = sin(x) + noise for x in [-pi, pi] (regression, 1 input)", false, false,
       false, false, true, &loadSineSource},
      {"moons", "data", "two interleaving half circles (2 inputs, 2 classes)", true, false, false,
       false, false, &loadMoonsSource},
      {"circles", "data", "two concentric noisy circles (2 inputs, 2 classes)", true, false, false,
       false, false, &loadCirclesSource},
      {"spirals", "data", "two interleaved spirals (2 inputs, 2 classes)", true, false, false,
       false, false, &loadSpiralsSource},
      {"sine-sequence", "data",
       "next value of a noisy sine wave from its last data.seq_len values (x [seq_len, 1], "
       "regression), for the rnn kind",
       false, false, true, false, false, &loadSineSequenceSource},
      {"fashion-mnist", "data",
       "Fashion-MNIST: 28x28 grey clothing images in 10 classes, read from data.path's IDX files",
       true, true, false, true, false, &loadFashionMnistSource},
      {"csv", "data.csv",
       "your CSV table (data.csv.path): one row per sample, the target column data.csv.target; "
       "classification or regression",
       false, false, false, true, false, &loadCsvSource},
      {"npy", "data.npy",
       "your NumPy arrays (data.npy.path: an .npz, or .npy files of x and y); any input shape",
       false, false, false, true, false, &loadNpySource},
      {"image-folder", "data.image_folder",
       "your images (data.image_folder.path): a folder per class, as torchvision's ImageFolder",
       true, true, false, true, false, &loadImageFolderSource},
      {"idx", "data.idx",
       "any IDX pair (MNIST, KMNIST, EMNIST ...; data.idx.path and data.idx.y_path), plain or "
       ".gz, any element type and class count",
       false, false, false, true, false, &loadIdxSource},
  };
  return sources;
}

std::vector<std::string> dataSourceNames() { return namesOf(dataSources()); }

const DataSourceKind* findDataSource(const std::string& name) {
  for (const DataSourceKind& k : dataSources())
    if (k.name == name) return &k;
  return nullptr;
}

const DataSourceKind& dataSource(const std::string& name) {
  if (const DataSourceKind* k = findDataSource(name)) return *k;
  throw Error(ErrorCode::Config, "data.source",
              "unknown data.source '" + name + "' (known: " + knownNames(dataSources()) + ")");
}

const std::vector<OptimizerKind>& optimizerKinds() {
  //  name, torch.optim class, adaptive, state buffers per parameter, family
  static const std::vector<OptimizerKind> kinds = {
      {"sgd", "SGD", false, [](double momentum) { return momentum > 0 ? 1 : 0; }, &kSgdFamily},
      {"adam", "Adam", true, [](double) { return 2; }, &kAdamFamily},
      {"adamw", "AdamW", true, [](double) { return 2; }, &kAdamWFamily},
  };
  return kinds;
}

const OptimizerKind& optimizerKind(const std::string& name) {
  if (const OptimizerKind* k = findOptimizerKind(name)) return *k;
  throw Error(
      ErrorCode::Config, "optimizer.name",
      "unknown optimizer.name '" + name + "' (known: " + knownNames(optimizerKinds()) + ")");
}

const OptimizerKind* findOptimizerKind(const std::string& name) {
  for (const OptimizerKind& k : optimizerKinds())
    if (k.name == name) return &k;
  return nullptr;
}

std::vector<std::string> optimizerNames() { return namesOf(optimizerKinds()); }

const std::vector<ModelKind>& modelKinds() {
  static const std::vector<ModelKind> kinds = {
      {"mlp", "model",
       "multilayer perceptron: Linear layers of model.hidden widths with model.activation and "
       "model.dropout between them",
       false, false, &buildMlp, &mlpKindFootprint, "model.hidden"},
      {"cnn", "model.cnn",
       "convolutional network for images: per model.cnn.channels entry Conv2d [-> BatchNorm2d] "
       "-> model.activation [-> pooling], then Linear layers (model.cnn.hidden) and the output",
       true, false, &buildCnn, &cnnKindFootprint, "model.cnn.channels"},
      {"rnn", "model.rnn",
       "recurrent network for sequences [T, F]: nn.RNN, nn.LSTM or nn.GRU (model.rnn.cell), the "
       "last step's output (or the mean over time) into a Linear output layer",
       false, true, &buildRnn, &rnnKindFootprint, "model.rnn.hidden_size"},
      {"torchscript", "model.torchscript",
       "your module scripted in Python (model.torchscript.path: "
       "torch.jit.script(model).save(path)), trained as it is",
       false, false, &buildTorchScript, &torchScriptKindFootprint, "model.torchscript.path"},
  };
  return kinds;
}

std::vector<std::string> modelKindNames() { return namesOf(modelKinds()); }

const ModelKind& modelKind(const std::string& name) {
  for (const ModelKind& k : modelKinds())
    if (k.name == name) return k;
  throw Error(ErrorCode::Config, "model.kind",
              "unknown model.kind '" + name + "' (known: " + knownNames(modelKinds()) + ")");
}

}  // namespace trainscope

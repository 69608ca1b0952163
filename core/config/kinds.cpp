// The kinds registry's lookups; the rows come from the composition root
// (core/kinds/builtin_kinds.cpp).
#include "core/config/kinds.h"

#include "core/config/train_config.h"
#include "core/errors.h"

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
  static const std::vector<DataSourceKind> sources = builtinDataSources();
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
  static const std::vector<OptimizerKind> kinds = builtinOptimizerKinds();
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
  static const std::vector<ModelKind> kinds = builtinModelKinds();
  return kinds;
}

std::vector<std::string> modelKindNames() { return namesOf(modelKinds()); }

const ModelKind* findModelKind(const std::string& name) {
  for (const ModelKind& k : modelKinds())
    if (k.name == name) return &k;
  return nullptr;
}

const ModelKind& modelKind(const std::string& name) {
  if (const ModelKind* k = findModelKind(name)) return *k;
  throw Error(ErrorCode::Config, "model.kind",
              "unknown model.kind '" + name + "' (known: " + knownNames(modelKinds()) + ")");
}

// sourceFields (core/config/train_config.h): the members of each data source section.
SourceFields sourceFields(DataConfig& d, const std::string& key_section) {
  SourceFields f;
  if (key_section == "data") {
    f.path = &d.path;
  } else if (key_section == "data.csv") {
    f.path = &d.csv.path;
    f.task = &d.csv.task;
    f.target = &d.csv.target;
  } else if (key_section == "data.image_folder") {
    f.path = &d.image_folder.path;
    f.image_size = &d.image_folder.size;
    f.channels = &d.image_folder.channels;
  } else if (key_section == "data.npy") {
    f.path = &d.npy.path;
    f.labels_path = &d.npy.y_path;
    f.task = &d.npy.task;
  } else if (key_section == "data.idx") {
    f.path = &d.idx.path;
    f.labels_path = &d.idx.y_path;
    f.task = &d.idx.task;
  }
  return f;
}

// layerSizes, setLayerSizes (core/config/train_config.h): each model section's layer sizes.
std::optional<std::vector<int64_t>> layerSizes(const ModelConfig& m,
                                               const std::string& key_section) {
  if (key_section == "model") return m.hidden;
  if (key_section == "model.cnn") return m.cnn.channels;
  if (key_section == "model.rnn")
    return std::vector<int64_t>(static_cast<std::size_t>(m.rnn.num_layers), m.rnn.hidden_size);
  return std::nullopt;
}

void setLayerSizes(ModelConfig& m, const std::string& key_section,
                   const std::vector<int64_t>& sizes) {
  if (key_section == "model") {
    m.hidden = sizes;
  } else if (key_section == "model.cnn") {
    m.cnn.channels = sizes;
  } else if (key_section == "model.rnn" && !sizes.empty()) {
    m.rnn.hidden_size = sizes.front();
    m.rnn.num_layers = static_cast<int64_t>(sizes.size());
  }
}

}  // namespace trainscope

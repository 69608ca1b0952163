#include "core/config/kinds.h"

#include "core/errors.h"
#include "core/model/mlp.h"

namespace trainscope {

const std::vector<ModelKind>& modelKinds() {
  static const std::vector<ModelKind> kinds = {
      {"mlp", "model",
       "multilayer perceptron: Linear layers of model.hidden widths with model.activation and "
       "model.dropout between them",
       false, false, &buildMlp},
  };
  return kinds;
}

std::vector<std::string> modelKindNames() {
  std::vector<std::string> names;
  for (const ModelKind& k : modelKinds()) names.push_back(k.name);
  return names;
}

const ModelKind& modelKind(const std::string& name) {
  for (const ModelKind& k : modelKinds())
    if (k.name == name) return k;
  std::string known;
  for (const ModelKind& k : modelKinds()) known += (known.empty() ? "" : ", ") + k.name;
  throw Error(ErrorCode::Config, "model.kind",
              "unknown model.kind '" + name + "' (known: " + known + ")");
}

}  // namespace trainscope

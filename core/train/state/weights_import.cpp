#include "core/train/state/weights_import.h"

#include "core/config/kinds.h"
#include "core/errors.h"
#include "core/io/python_weights_file.h"
#include "core/model/state_dict.h"

namespace trainscope {

WeightsFileInfo importWeights(const Model& model, const std::filesystem::path& file) {
  WeightsFile w = readWeightsFile(file);
  StateMatch match = matchState(model, w.state, /*same_dtype=*/false);
  if (!match.problems.empty()) {
    std::string list;
    for (const auto& p : match.problems) list += "\n  " + p;
    throw Error(ErrorCode::Checkpoint, file.string(),
                "cannot import weights from " + file.string() +
                    ": the model does not match its state_dict (a different architecture? "
                    "check " + modelKind(model.kind()).size_key +
                    " and the data's inputs and outputs" +
                    (model.kind() == "cnn"
                         ? "; for flat image data TrainScope's CNN starts with nn.Unflatten, so "
                           "its first Conv2d is 1.weight, not 0.weight"
                         : std::string()) +
                    "):" +
                    list);
  }
  applyState(match);
  return w.info;
}

}  // namespace trainscope

#include "core/train/state/weights_import.h"

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
                    "check model.hidden and the data's inputs and outputs):" +
                    list);
  }
  applyState(match);
  return w.info;
}

}  // namespace trainscope

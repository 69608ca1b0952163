#include "core/config/mistakes.h"

#include "core/errors.h"

namespace trainscope {

const std::vector<MistakeInfo>& mistakeInfos() {
  static const std::vector<MistakeInfo> infos = {
      {"no_zero_grad", "optimizer.zero_grad() forgotten: gradients accumulate across steps"},
      {"step_before_backward",
       "optimizer.step() before loss.backward(): every update one step late"},
      {"eval_in_train_mode",
       "validation without model.eval(): dropout active, BatchNorm updating"},
      {"val_with_grad",
       "validation without torch.no_grad(): the graph is kept, more memory and time"},
      {"shuffled_labels", "training labels shuffled against their inputs"},
      {"lr_x1000", "the learning rate 1000x what optimizer.lr says"},
      {"lr_x1e-6", "the learning rate 1e-6x what optimizer.lr says"},
      {"augment_validation",
       "validation images through the training augmentation (random crops, flips, jitter)"},
  };
  return infos;
}

std::vector<std::string> mistakeNames() {
  std::vector<std::string> out;
  for (const MistakeInfo& m : mistakeInfos()) out.emplace_back(m.name);
  return out;
}

Mistakes parseMistakes(const std::vector<std::string>& names) {
  Mistakes m;
  bool up = false, down = false;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    for (size_t j = 0; j < i; ++j)
      if (names[j] == n)
        throw Error(ErrorCode::Config, "teaching.mistakes",
                    "teaching.mistakes names " + n + " twice; name each mistake once");
    if (n == "no_zero_grad") m.no_zero_grad = true;
    else if (n == "step_before_backward") m.step_before_backward = true;
    else if (n == "eval_in_train_mode") m.eval_in_train_mode = true;
    else if (n == "val_with_grad") m.val_with_grad = true;
    else if (n == "shuffled_labels") m.shuffled_labels = true;
    else if (n == "lr_x1000") up = true;
    else if (n == "lr_x1e-6") down = true;
    else if (n == "augment_validation") m.augment_validation = true;
  }
  if (up && down)
    throw Error(ErrorCode::Config, "teaching.mistakes",
                "teaching.mistakes: lr_x1000 and lr_x1e-6 cannot both be on");
  m.lr_factor = up ? 1000.0 : down ? 1e-6 : 1.0;
  return m;
}

}  // namespace trainscope

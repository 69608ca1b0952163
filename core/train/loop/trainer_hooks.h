#pragma once
/// Test-only access to the inside of a step (torch types; not part of the public API).
#include <ATen/core/Tensor.h>

#include <functional>
#include <vector>

#include "core/train/trainer.h"

namespace trainscope {

/// Callbacks inside the step, on the training thread, with the model's parameters (whose
/// .grad() hold the gradients at that moment).
struct TrainerHooks {
  /// After backward(), before clipping: grads as measured for `grad_norm`.
  std::function<void(const std::vector<at::Tensor>& params)> after_backward;
  /// After clipping, before optimizer.step(): grads the optimizer uses (`grad_norm_clipped`).
  std::function<void(const std::vector<at::Tensor>& params)> after_clip;
  /// After the epoch loop ended (after early stopping's restore_best_weights), before the test
  /// set is evaluated: the final parameters.
  std::function<void(const std::vector<at::Tensor>& params)> at_end;
};

struct TrainerAccess {
  /// Installs hooks; call before run().
  static void setHooks(Trainer& trainer, TrainerHooks hooks);
};

}  // namespace trainscope

#pragma once
/// The injected mistakes of the teaching switches (`teaching.mistakes`): classic
/// PyTorch training-loop bugs a class can watch happen, kept apart from the real step (the
/// step's side: core/train/teaching/mistakes.h). Each name
/// is a contract (scripts outside the project use them); each run that has one on records it in
/// config.json and run.json, and the front ends show it while it is on, so no such run is
/// mistaken for a real one. Torch-free.
#include <cstdint>
#include <string>
#include <vector>

namespace trainscope {

/// One switch: its `teaching.mistakes` name and what it does, as Python code would do it.
struct MistakeInfo {
  const char* name;
  const char* description;  ///< one English line: the bug in PyTorch terms
};

/// The switches, in the order help texts and the settings list them: no_zero_grad,
/// step_before_backward, eval_in_train_mode, val_with_grad, shuffled_labels, lr_x1000, lr_x1e-6,
/// augment_validation.
const std::vector<MistakeInfo>& mistakeInfos();
/// Their names, in that order (the choices of `teaching.mistakes`).
std::vector<std::string> mistakeNames();

/// The switches of one run, parsed from `teaching.mistakes`.
struct Mistakes {
  /// optimizer.zero_grad() forgotten: each backward adds to the gradients of every step before.
  bool no_zero_grad = false;
  /// optimizer.step() called before loss.backward(): each update uses the previous batch's
  /// gradients (zeros at the first step), one step late.
  bool step_before_backward = false;
  /// Validation without model.eval(): dropout active, BatchNorm using and updating batch
  /// statistics.
  bool eval_in_train_mode = false;
  /// Validation without torch.no_grad(): every batch's graph is built and kept until the pass
  /// ends (as `total = total + loss` keeps it in Python): more memory and time, same numbers.
  bool val_with_grad = false;
  /// The training labels shuffled against their inputs (once, from the training seed);
  /// validation and test keep theirs, so the model can learn nothing that carries over.
  bool shuffled_labels = false;
  /// lr_x1000 / lr_x1e-6: the learning rate the run starts with is optimizer.lr times this
  /// (a slipped exponent); 1 when neither is on. Live changes set the rate as given.
  double lr_factor = 1.0;
  /// The validation images sent through the training augmentation (data.augment: random
  /// crops, flips, jitter drawn afresh each epoch) instead of the deterministic transforms, as
  /// a shared `transform=` for both datasets does; needs data.augment.
  bool augment_validation = false;

  bool any() const {
    return no_zero_grad || step_before_backward || eval_in_train_mode || val_with_grad ||
           shuffled_labels || lr_factor != 1.0 || augment_validation;
  }
};

/// Parses `names` (teaching.mistakes; already validated against mistakeNames()). Throws
/// Error(Config, "teaching.mistakes") for lr_x1000 together with lr_x1e-6.
Mistakes parseMistakes(const std::vector<std::string>& names);

}  // namespace trainscope

#pragma once
/// Records of the gradient watch: per-layer statistics and the loss doctor's
/// diagnosis. Plain copyable structs, torch-free, like records.h (which includes this file).
#include <cstdint>
#include <string>
#include <vector>

namespace trainscope {

/// Per-parameter-tensor statistics of one step (layers.csv row), every
/// training.layer_stats_every steps and on every step that was not applied because its loss or
/// gradient was not finite (so the layer that blew up shows even before the first regular row).
struct LayerStatsRecord {
  int64_t step = 0;   ///< the global step measured (1-based)
  int64_t epoch = 0;  ///< 1-based epoch of that step
  /// Parameter tensors in state_dict order, named as in the state_dict ("0.weight", "0.bias").
  std::vector<std::string> names;
  /// L2 norm of each tensor's gradient before clipping (a slice of the flat gradient buffer):
  /// the squares sum to grad_norm^2 of the step when norm_type is 2.
  std::vector<double> grad_norm;
  /// ||w_after - w_before|| / ||w_before|| per tensor for this step's optimizer update (a plain
  /// ratio; front ends draw log10 of it, healthy around 1e-3). NaN when the step was not applied
  /// or ||w_before|| is 0.
  std::vector<double> update_ratio;
};

/// One likely cause, piece of evidence or suggested check, as a stable code and the numbers it
/// names, so front ends word it in their language without parsing English (the GUI's
/// FindingText); `text` is the English wording (CLI, events.jsonl, summary.json).
///
/// Codes and their `values`, in order (percentages are 0-100):
/// - causes (EventEvidence::causes, core/train/monitors/non_finite.h):
///   "lr_high" {lr} (`name`: the optimizer), "lr_perhaps_high" {lr}, "clip_off" {},
///   "clip_cannot_fix" {max_norm}, "clip_drift" {max_norm}, "targets_scaled" {target_scale},
///   "inputs_raw" {}.
/// - diagnosis evidence (core/train/monitors/loss_doctor.h): "non_finite_steps" {count,
///   first_step, first_loss}, "loss_exploded" {max_train_loss, factor, initial_loss,
///   initial_steps}, "divergence_detected" {}, "initial_loss" {initial_loss, initial_steps},
///   "val_rising" {val_loss, epoch, mean_epochs, val_mean, best_val_loss, best_epoch,
///   best_val_mean} (the last since issue 42: the lowest mean the rise is measured from),
///   "train_fell" {from, to}, "best_train_loss" {loss, percent_of_initial, epochs,
///   window} (since issue 42 the lowest mean over `window` consecutive epochs; older run
///   folders have the first three, a single epoch's loss),
///   "train_stalled" {loss_then, epoch_then, loss_now, epoch_now, percent_better, epochs}
///   (since issue 42 block means of `epochs` epochs ending at epoch_then and epoch_now;
///   percent_better < 0: worse; older run folders have the first five, single epochs),
///   "last_losses" {train_loss, epoch, val_loss}, "clip_share" {percent_clipped, steps},
///   "initial_loss_from_epoch" {epoch_1_train_loss} (a resumed run whose checkpoint has no
///   initial loss), "loss_above_chance" {train_loss_mean, epochs, factor, chance_loss}
///   (`name`: "cross_entropy" | "mse", what the chance loss is), "val_at_chance"
///   {val_accuracy_mean, epochs, chance_accuracy, margin_points} (percentages),
///   "val_loss_at_chance" {val_loss_mean, chance_loss, margin_percent, epochs_since_best},
///   "grad_norm_growing" {first_steps_median, quarter1_median, quarter2_median,
///   quarter3_median, quarter4_median, factor, steps}, "train_loss_at_chance"
///   {train_loss_mean, epochs, chance_loss}, "update_ratio" {median_update_ratio,
///   tiny_threshold} (how far the weights move per step).
/// - diagnosis check with values: "regularise_more" {weight_decay, dropout} (overfitting on a
///   run that already regularises: raise them).
/// - diagnosis checks, no values: "lower_lr_10x", "clip_on", "lower_max_norm",
///   "standardise_and_scale", "check_init", "keep_best", "regularise", "more_data",
///   "smaller_model", "clip_bound", "raise_lr", "standardise_inputs", "check_labels",
///   "check_label_order", "fit_tiny_subset", "lr_schedule", "try_momentum" (plain SGD),
///   "try_adam" (SGD with momentum), "more_capacity", "check_saturation", "nothing_urgent",
///   "zero_grad", "check_accumulation"; "other_optimizer" (before issue 42: "try Adam or
///   momentum" whatever the optimizer) is no longer given, and still worded for older runs.
struct Finding {
  std::string code;
  std::vector<double> values;  ///< the numbers `text` names, in the order listed above
  std::string name;            ///< a name the text uses (lr_high: the optimizer), else empty
  std::string text;            ///< English, numbers to 4 significant digits

  bool operator==(const Finding& o) const {
    return code == o.code && values == o.values && name == o.name && text == o.text;
  }
};

/// The loss doctor's reading of a run (core/train/monitors/loss_doctor.h); summary.json
/// `diagnosis`.
struct Diagnosis {
  /// "accumulating" (gradient norms grow steadily: optimizer.zero_grad() missing?) |
  /// "diverging" | "no_signal" (labels carry no information the model finds) | "flat" |
  /// "plateau" | "overfitting" | "healthy" | "too_early"
  std::string kind = "too_early";
  int64_t epoch = 0;                  ///< the last epoch the diagnosis looked at
  std::string summary;            ///< one English sentence (front ends word it from `kind`)
  std::vector<Finding> evidence;  ///< the run's numbers behind the reading
  std::vector<Finding> checks;    ///< what to check, most likely first
};

}  // namespace trainscope

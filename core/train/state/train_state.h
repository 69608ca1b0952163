#pragma once
/// The whole state of a run, in one place, so that a checkpoint can capture it and a resumed
/// run restore it (the checkpoint issue builds on this). Torch types: internal to core.
#include <ATen/core/Generator.h>
#include "core/config/mistakes.h"
#include "core/model/model.h"
#include <torch/optim/optimizer.h>

#include <memory>
#include <optional>
#include <vector>

#include "core/optim/schedulers/lr_scheduler.h"
#include "core/run/records.h"
#include "core/train/loop/meters.h"
#include "core/train/monitors/doctor_grads.h"
#include "core/train/monitors/early_stopping.h"
#include "core/train/monitors/overfitting.h"
#include "core/train/step/flat_gradients.h"
#include "core/train/step/grad_scaler.h"

namespace trainscope {

class DistContext;

/// Everything that changes while a run trains. Owned by the Trainer, touched only by the
/// training thread.
struct TrainState {
  c10::Device device{c10::kCPU};
  ModelPtr model;                                      ///< built by buildModel
  std::vector<at::Tensor> params;                      ///< model->parameters(), in order
  std::unique_ptr<torch::optim::Optimizer> optimizer;  ///< over `params`
  std::unique_ptr<FlatGradients> grads;                ///< every param.grad() is a view of it
  /// Draws each epoch's batch order; its own stream of the training seed, so shuffling does
  /// not consume the global generator that dropout draws from.
  at::Generator shuffle_gen;
  /// training.class_weights as float32 [n_classes] on the device (CrossEntropyLoss's weight);
  /// undefined: none.
  at::Tensor class_weights;
  /// shuffle_gen's state before the current epoch's permutation was drawn (after an epoch end:
  /// the state the next epoch starts from). A checkpoint saves this plus batch_in_epoch, so a
  /// mid-epoch resume redraws the same permutation and continues at the next batch.
  at::Tensor epoch_start_shuffle_state;
  int64_t batch_in_epoch = 0;        ///< batches done in the current epoch (0 at an epoch end)
  AverageMeter epoch_loss;           ///< train_loss meter of the current epoch so far
  /// The completed epochs' records in order: every epoch up to kEpochCapacity, then thinned
  /// (core/run/epoch_thinning.h: every s-th epoch and the latest), so memory stays bounded.
  std::vector<EpochRecord> history;
  int64_t seed = 0;                  ///< the training seed in use
  int num_threads = 1;               ///< intra-op threads of the training thread
  int64_t global_step = 0;           ///< optimizer steps completed (1-based numbering of steps)
  int64_t epochs_completed = 0;      ///< epochs whose row was written
  /// training.monitor (val_loss by default): what picks best.pt, early stopping's best and the
  /// test's "best" weights; the checkpoint's `monitor` key.
  std::string monitor = "val_loss";
  int64_t best_epoch = 0;  ///< epoch of the best finite value of `monitor` (best.pt), 0 when none
  /// That best value (the checkpoint's `best_loss`: the lowest val_loss by default).
  std::optional<double> best_monitored;
  std::optional<EpochRecord> last_epoch;  ///< the last completed epoch's record
  /// best_epoch's record, kept apart from the thinned history (a checkpoint's `history` holds it).
  std::optional<EpochRecord> best_record;
  /// Classification: correct training predictions of the current epoch so far (over
  /// epoch_loss.count() samples): EpochRecord::train_accuracy.
  int64_t epoch_correct = 0;
  std::unique_ptr<LrScheduler> scheduler;          ///< scheduler.*; null: the lr stays
  std::optional<EarlyStopping> early_stopping;     ///< set when training.early_stopping.enabled
  std::optional<OverfittingDetector> overfitting;  ///< always set (patience of early stopping)
  /// restore_best_weights: copies of the model state (Model::state_dict() order) at the best epoch.
  std::vector<at::Tensor> best_weights;
  /// The loss doctor's initial loss: the run's first finite step losses, at most
  /// LossDoctor::kInitialSteps (checkpoint key `loss_doctor_state_dict`.`initial_losses`), so
  /// that a resumed or rolled-back run is judged against the same start.
  std::vector<double> initial_losses;
  /// The loss doctor's gradient norms as a checkpoint saved them (`loss_doctor_state_dict`:
  /// first_grads, grad_samples, grad_stride, grad_seen), for the resumed run's doctor; none
  /// from a snapshot or an older checkpoint.
  std::optional<DoctorGrads> doctor_grads;
  /// Mixed precision (core/train/step/): autocast around the forward pass (bf16 on CPU, fp16 on
  /// CUDA). Toggled live by Trainer::setAmp.
  bool amp = false;
  /// The GradScaler (fp16 AMP on CUDA; tests may force one on CPU). Active while `amp`.
  std::unique_ptr<GradScaler> scaler;
  int64_t scaler_skipped_steps = 0;  ///< optimizer steps the scaler skipped (inf/NaN gradients)
  /// Data parallel (core/distributed/): the group whose ranks' gradients each step all-reduces; null
  /// in a single-process run. Not owned (the Trainer owns it).
  DistContext* dist = nullptr;
  /// teaching.mistakes (core/train/teaching/mistakes.h): the bugs trainStep and the validation
  /// inject on purpose; all off in a real run.
  Mistakes mistakes;
};

}  // namespace trainscope

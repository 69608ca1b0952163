#pragma once
/// One training step and the evaluation pass (ARCHITECTURE §3), as named phases.
#include <functional>
#include <utility>

#include "core/config/config_fwd.h"
#include "core/data/dataset.h"
#include "core/run/records.h"
#include "core/train/loop/trainer_hooks.h"
#include "core/train/state/train_state.h"

namespace trainscope {

class DistContext;

/// What one optimizer step measured.
struct StepResult {
  double loss = 0;               ///< mean loss of the batch (train mode), before any scaling
  double grad_norm = 0;          ///< total L2 norm before clipping (clip_grad_norm_'s return)
  double grad_norm_clipped = 0;  ///< norm of the gradient the optimizer used
  double lr = 0;                 ///< learning rate this step used
  bool applied = false;          ///< false when the optimizer step was skipped (non-finite)
  int64_t correct = 0;           ///< classification: correct predictions of the batch (train mode)
  /// The GradScaler found inf/NaN gradients and skipped the step: normal AMP behaviour, not a
  /// non-finite event (the loss was finite).
  bool scaler_skipped = false;
  std::optional<double> loss_scale;  ///< the scale this step's loss was multiplied by (AMP)
  int64_t samples = 0;               ///< samples of all micro-batches of the step
  bool clipped = false;              ///< clipping scaled the gradients (factor < 1)
};

/// Looks inside a step (the gradient watch, core/train/monitors/gradient_watch.h): called on
/// the training thread with the state at three points of trainStep.
class StepWatch {
 public:
  virtual ~StepWatch() = default;
  /// After backward and the total norm, before clipping: the raw gradients (`r.loss`,
  /// `r.grad_norm` set; r.applied tells whether the step will be applied).
  virtual void afterMeasure(const TrainState& state, const StepResult& r) = 0;
  /// Just before optimizer.step() (only for applied steps).
  virtual void beforeUpdate(const TrainState& state) = 0;
  /// Just after optimizer.step() (only for applied steps).
  virtual void afterUpdate(const TrainState& state) = 0;
};

/// zero_grad -> forward -> loss -> backward -> [AMP: unscale] -> measure -> clip -> optimizer
/// step (skipped when loss or norm is non-finite: it would poison the weights) -> [AMP: scaler
/// update]. Does not advance state.global_step. `hooks` and `watch` may be null. The model must
/// be in train mode. Loss: cross_entropy (classification) or mse_loss, mean reduction, like
/// torch.nn's. Measuring and clipping: core/train/step/clipping.h (clip_grad_norm_).
StepResult trainStep(TrainState& state, const TensorPair& batch, bool classification,
                     const ClipConfig& clip, const TrainerHooks* hooks, StepWatch* watch = nullptr);

/// One optimizer step over a group of micro-batches (gradient accumulation): each micro-batch's
/// loss is divided by group.size() before its backward, so the gradient is the mean of the
/// micro-batch means (equal to one batch of all samples when the micro-batches are of equal
/// size); then one unscale, one norm measurement, one clip and one optimizer step. The
/// reported loss is the mean of the micro-batch losses. With state.amp the forward passes run
/// under autocast, and with a scaler the scaled loss is backpropagated. `group` must not be
/// empty. trainStep(state, batch, ...) is trainStep(state, {batch}, ...).
StepResult trainStep(TrainState& state, const std::vector<TensorPair>& group, bool classification,
                     const ClipConfig& clip, const TrainerHooks* hooks, StepWatch* watch = nullptr);

/// Sums of an evaluation pass: what evaluate() divides, and what data-parallel ranks all-reduce.
struct EvalSums {
  double loss_sum = 0;  ///< sum of the per-sample losses (reduction "sum")
  int64_t correct = 0;  ///< classification: correct predictions
  int64_t count = 0;    ///< samples evaluated
  /// Regression, in the units the model sees (data.target_scale applied): the sum
  /// of |output - target| over every element, and per target column the sums of squared
  /// errors, of the targets and of their squares (what R^2's SSE and SST need).
  double abs_sum = 0;
  std::vector<double> sq_err, y_sum, y_sq;
};

/// Adds one chunk of a regression pass to `sums`' abs_sum and per-target sums (not count or
/// loss_sum): outputs and targets [B, k] or [B] of any floating dtype, summed in float64.
void addRegressionSums(EvalSums& sums, const at::Tensor& out, const at::Tensor& y);

/// R^2, MAE and RMSE of a regression pass (EpochRecord::val_r2 ...), in target units.
struct RegressionMetrics {
  std::optional<double> r2, mae, rmse;
};

/// From `sums` of a regression pass whose targets were multiplied by `target_scale`: MAE =
/// abs_sum / (n k) / target_scale, RMSE = sqrt(SSE / (n k)) / target_scale, R^2 the mean over
/// the k targets of 1 - SSE_j / SST_j with SST_j = sum y^2 - (sum y)^2 / n (as
/// sklearn.metrics.r2_score: a constant target column scores 1 when predicted exactly, else
/// 0). All empty when nothing was evaluated.
RegressionMetrics regressionMetrics(const EvalSums& sums, double target_scale);

/// Sees each chunk of an evaluation pass: rows [start, start + out.size(0)) of the split, the
/// model's outputs (float32 [B, outputs]) and the targets (int64 [B] or float32 [B, K]).
using EvalChunkSink =
    std::function<void(int64_t start, const at::Tensor& out, const at::Tensor& y)>;

/// evaluate()'s pass without the division: sums over `split` in eval mode under NoGradGuard,
/// handing each chunk's outputs to `sink` when set (the sums do not depend on it). Leaves the
/// model in eval mode. `mistakes` (teaching only): eval_in_train_mode runs the pass in train
/// mode (and leaves the model so); val_with_grad runs it with gradients on and keeps every
/// chunk's graph until the pass ends, as `total = total + loss` does in Python.
EvalSums evaluateSums(Model& model, const TensorPair& split, bool classification,
                      int64_t batch_size, const EvalChunkSink& sink = {},
                      const Mistakes& mistakes = Mistakes{});

/// Evaluates `split` split across the ranks without padding (evaluationShard: every sample
/// counted once) and all-reduces the sums (the regression sums too): the sums over the whole
/// split, the same on every rank, equal to evaluateSums() on one process up to summation order.
EvalSums evaluateSharded(DistContext& dist, Model& model, const TensorPair& split,
                         bool classification, int64_t batch_size);

/// {loss_sum / count (NaN when count is 0), correct / count (classification only; 0 when
/// count is 0)}.
std::pair<double, std::optional<double>> evalMeans(const EvalSums& sums, bool classification);

/// Evaluates `split` in eval mode under NoGradGuard, in chunks of max(batch_size, 1024):
/// {sample-weighted mean loss (NaN for an empty split), accuracy in [0, 1] (classification
/// only)}. Leaves the model in eval mode.
std::pair<double, std::optional<double>> evaluate(Model& model, const TensorPair& split,
                                                  bool classification, int64_t batch_size);

}  // namespace trainscope

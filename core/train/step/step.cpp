// One training step as named phases, in the order of ARCHITECTURE §3: AMP's autocast around the
// forward pass, scaling in backward, unscale and the scaler update (core/train/step/).
#include "core/train/step/step.h"

#include <torch/nn/functional/loss.h>
#include <torch/utils.h>

#include <cmath>
#include <optional>

#include "core/config/train_config.h"
#include "core/data/distributed_sampler.h"
#include "core/distributed/data_parallel.h"
#include "core/optim/optimizer_factory.h"
#include "core/run/records_json.h"
#include "core/train/step/autocast.h"
#include "core/train/step/clipping.h"

namespace trainscope {

namespace {

/// The step phase between backward and the gradient-norm measurement: all-reduces the flat
/// gradient buffer (float32 [P]) and divides it by the world size (DDP's average), then sums
/// {loss, samples, correct} over the ranks: r.loss becomes the mean of the ranks' mean losses
/// (the global batch mean for equal per-rank batches), r.samples and r.correct the global
/// counts. Every rank ends with bit-identical gradients, so the norm, clipping, the non-finite
/// decision and the optimizer step agree.
void allReduceStep(DistContext& dist, FlatGradients& grads, StepResult& r);

void allReduceStep(DistContext& dist, FlatGradients& grads, StepResult& r) {
  at::Tensor flat = grads.buffer();  // shares storage: the parameters' .grad() views see it
  dist.allReduceSum(flat, "gradient all-reduce");
  flat.div_(static_cast<double>(dist.worldSize()));
  at::Tensor stats =
      at::tensor({r.loss, static_cast<double>(r.samples), static_cast<double>(r.correct)},
                 at::TensorOptions().dtype(at::kDouble));
  dist.allReduceSum(stats, "loss all-reduce");
  const double* v = stats.data_ptr<double>();
  r.loss = v[0] / dist.worldSize();
  r.samples = static_cast<int64_t>(v[1]);
  r.correct = static_cast<int64_t>(v[2]);
}

}  // namespace
namespace {

namespace F = torch::nn::functional;

/// optimizer.zero_grad(), keeping the flat buffer's views (one memset).
void zeroGrad(TrainState& s) { s.grads->zero(); }

/// Forward pass (under autocast with AMP) and the mean loss of the batch (in float32); the
/// model's output goes to `*out`.
at::Tensor forwardLoss(TrainState& s, const TensorPair& batch, bool classification,
                       at::Tensor* out) {
  {
    AutocastGuard autocast(s.amp, s.device);
    *out = s.model->forward(batch.x);
  }
  if (out->scalar_type() != batch.x.scalar_type()) *out = out->to(batch.x.scalar_type());
  if (!classification) return F::mse_loss(*out, batch.y);
  if (s.class_weights.defined())  // training.class_weights: CrossEntropyLoss(weight=...)
    return F::cross_entropy(*out, batch.y, F::CrossEntropyFuncOptions().weight(s.class_weights));
  return F::cross_entropy(*out, batch.y);
}

/// Classification: correct predictions of the batch (argmax of the logits), for train_accuracy.
int64_t countCorrect(const at::Tensor& out, const TensorPair& batch) {
  torch::NoGradGuard no_grad;
  return out.argmax(1).eq(batch.y).sum().item<int64_t>();
}

/// loss.backward(): gradients accumulate into the flat buffer's views.
void backward(const at::Tensor& loss) { loss.backward(); }

void optimizerStep(TrainState& s) { s.optimizer->step(); }

/// The micro-batches' forward and backward passes (each loss divided by the group's size when
/// there are several; scaled by `scaler` when set): r.loss is the mean of their losses, r.samples
/// and r.correct their counts.
void forwardBackward(TrainState& s, const std::vector<TensorPair>& group, bool classification,
                     GradScaler* scaler, StepResult& r) {
  double loss_sum = 0;
  for (const TensorPair& batch : group) {
    at::Tensor out;
    at::Tensor loss = forwardLoss(s, batch, classification, &out);
    loss_sum += loss.item<double>();
    r.samples += batch.size();
    if (classification) r.correct += countCorrect(out, batch);
    if (group.size() > 1) loss = loss / static_cast<double>(group.size());
    backward(scaler ? scaler->scale(loss) : loss);
  }
  r.loss = group.size() == 1 ? loss_sum : loss_sum / static_cast<double>(group.size());
}

/// The gradients in the flat buffer measured (clip_grad_norm_'s total norm), watched, clipped
/// and applied by optimizer.step(); the update is skipped when `loss_finite` is false or the
/// norm is not finite (it would poison the weights). Sets r.grad_norm, grad_norm_clipped,
/// clipped, applied and lr.
void measureClipUpdate(TrainState& s, const ClipConfig& clip, const TrainerHooks* hooks,
                       StepWatch* watch, bool loss_finite, StepResult& r) {
  if (hooks && hooks->after_backward) hooks->after_backward(s.params);
  r.grad_norm = totalGradNorm(*s.grads, normTypeValue(clip));  // clip_grad_norm_'s return
  r.grad_norm_clipped = r.grad_norm;
  const bool finite = loss_finite && std::isfinite(r.grad_norm);
  r.applied = finite;
  r.lr = currentLr(*s.optimizer);
  if (watch) watch->afterMeasure(s, r);
  if (finite) {
    const ClipOutcome c = clipFlatGradients(*s.grads, clip, r.grad_norm);
    r.grad_norm_clipped = c.norm_clipped;
    r.clipped = c.clipped;
  }
  if (hooks && hooks->after_clip) hooks->after_clip(s.params);
  if (finite) {
    if (watch) watch->beforeUpdate(s);
    optimizerStep(s);
    if (watch) watch->afterUpdate(s);
  }
}

/// teaching.mistakes step_before_backward, the loop a student writes as
///   optimizer.step(); optimizer.zero_grad(); loss = loss_fn(model(x), y); loss.backward()
/// : each update uses the gradients still in .grad, the previous batch's (zeros at the first
/// step), one step late; this batch's gradients wait for the next step. (Calling step() between
/// the forward pass and backward() instead fails in PyTorch: the update modifies weights the
/// graph saved.) Measured, clipped and watched are the gradients the update uses; the loss is
/// this batch's, after the update. No GradScaler or all-reduce (refused together).
StepResult stepBeforeBackward(TrainState& s, const std::vector<TensorPair>& group,
                              bool classification, const ClipConfig& clip,
                              const TrainerHooks* hooks, StepWatch* watch) {
  StepResult r;
  measureClipUpdate(s, clip, hooks, watch, /*loss_finite=*/true, r);  // the previous gradients
  if (!s.mistakes.no_zero_grad) zeroGrad(s);
  forwardBackward(s, group, classification, nullptr, r);
  if (s.amp) clearAutocastCache();
  return r;
}

}  // namespace

StepResult trainStep(TrainState& s, const TensorPair& batch, bool classification,
                     const ClipConfig& clip, const TrainerHooks* hooks, StepWatch* watch) {
  return trainStep(s, std::vector<TensorPair>{batch}, classification, clip, hooks, watch);
}

StepResult trainStep(TrainState& s, const std::vector<TensorPair>& group, bool classification,
                     const ClipConfig& clip, const TrainerHooks* hooks, StepWatch* watch) {
  // teaching.mistakes (core/train/teaching/mistakes.h): the bugs a class watches on purpose.
  if (s.mistakes.step_before_backward)
    return stepBeforeBackward(s, group, classification, clip, hooks, watch);
  GradScaler* scaler = s.amp ? s.scaler.get() : nullptr;
  StepResult r;
  if (!s.mistakes.no_zero_grad) zeroGrad(s);  // no_zero_grad: optimizer.zero_grad() forgotten
  forwardBackward(s, group, classification, scaler, r);
  // DistributedDataParallel: one all-reduce of the flat gradient buffer per optimizer step,
  // averaged over the ranks, after the last micro-batch; the loss, samples and correct counts
  // become the group's (core/distributed/data_parallel.h).
  if (s.dist) allReduceStep(*s.dist, *s.grads, r);
  // GradScaler.unscale_: before measuring and clipping.
  const bool found_inf = scaler && scaler->unscale(*s.grads);
  measureClipUpdate(s, clip, hooks, watch, std::isfinite(r.loss), r);
  r.scaler_skipped = found_inf && std::isfinite(r.loss);

  if (scaler) {  // GradScaler.update(): grow or back off the scale
    r.loss_scale = scaler->getScale();
    scaler->update();
  }
  if (s.amp) clearAutocastCache();  // stale bf16/fp16 weight copies must not survive the step
  return r;
}

EvalSums evaluateSums(Model& model, const TensorPair& split, bool classification,
                      int64_t batch_size, const EvalChunkSink& sink, const Mistakes& mistakes) {
  if (mistakes.eval_in_train_mode)
    model.train();  // teaching: model.eval() forgotten
  else
    model.eval();
  std::optional<torch::NoGradGuard> no_grad;
  if (!mistakes.val_with_grad) no_grad.emplace();  // teaching: torch.no_grad() forgotten
  std::vector<at::Tensor> kept;  // val_with_grad: every chunk's graph, alive until the end
  EvalSums sums;
  const int64_t n = split.size();
  const int64_t chunk = std::max<int64_t>(batch_size, 1024);
  for (int64_t start = 0; start < n; start += chunk) {
    int64_t len = std::min(chunk, n - start);
    const TensorPair part = split.rows(start, len);  // uint8 images are converted per chunk
    const at::Tensor &x = part.x, &y = part.y;
    at::Tensor out = model.forward(x);
    if (mistakes.val_with_grad) kept.push_back(out);
    if (classification) {
      sums.loss_sum += F::cross_entropy(out, y, F::CrossEntropyFuncOptions().reduction(torch::kSum))
                           .item<double>();
      sums.correct += out.argmax(1).eq(y).sum().item<int64_t>();
    } else {
      // Per sample, the mean over its targets (MSELoss's "mean" over all elements, as the
      // training loss): with k targets the element sum is k times the per-sample sum.
      const double targets_per_sample =
          len > 0 ? static_cast<double>(out.numel()) / static_cast<double>(len) : 1.0;
      sums.loss_sum +=
          F::mse_loss(out, y, F::MSELossFuncOptions().reduction(torch::kSum)).item<double>() /
          targets_per_sample;
      addRegressionSums(sums, out, y);  // R^2, MAE and RMSE
    }
    if (sink) sink(start, mistakes.val_with_grad ? out.detach() : out, y);
  }
  sums.count = n;
  return sums;
}

std::pair<double, std::optional<double>> evalMeans(const EvalSums& sums, bool classification) {
  const int64_t n = sums.count;
  std::optional<double> accuracy;
  if (classification) accuracy = n > 0 ? static_cast<double>(sums.correct) / n : 0.0;
  return {n > 0 ? sums.loss_sum / n : std::nan(""), accuracy};
}

void addRegressionSums(EvalSums& sums, const at::Tensor& out, const at::Tensor& y) {
  const int64_t len = out.size(0);
  if (len == 0) return;
  const at::Tensor o = out.detach().to(at::kCPU, at::kDouble).reshape({len, -1});
  const at::Tensor t = y.detach().to(at::kCPU, at::kDouble).reshape({len, -1});
  const at::Tensor diff = o - t;
  sums.abs_sum += diff.abs().sum().item<double>();
  const at::Tensor sq = (diff * diff).sum(0).contiguous(), ys = t.sum(0).contiguous(),
                   ys2 = (t * t).sum(0).contiguous();
  const auto k = static_cast<size_t>(sq.numel());
  for (auto* v : {&sums.sq_err, &sums.y_sum, &sums.y_sq})
    if (v->size() < k) v->resize(k, 0.0);
  for (size_t j = 0; j < k; ++j) {
    sums.sq_err[j] += sq.data_ptr<double>()[j];
    sums.y_sum[j] += ys.data_ptr<double>()[j];
    sums.y_sq[j] += ys2.data_ptr<double>()[j];
  }
}

RegressionMetrics regressionMetrics(const EvalSums& sums, double target_scale) {
  RegressionMetrics m;
  const size_t k = sums.sq_err.size();
  if (sums.count <= 0 || k == 0) return m;
  const double n = static_cast<double>(sums.count);
  const double scale = target_scale != 0 ? std::abs(target_scale) : 1.0;
  double sse = 0, r2 = 0;
  for (size_t j = 0; j < k; ++j) {
    sse += sums.sq_err[j];
    const double sst = sums.y_sq[j] - sums.y_sum[j] * sums.y_sum[j] / n;
    // sklearn's force_finite: a constant column scores 1 when predicted exactly, else 0.
    r2 += sst > 1e-12 * std::max(1.0, sums.y_sq[j]) ? 1 - sums.sq_err[j] / sst
                                                    : (sums.sq_err[j] == 0 ? 1.0 : 0.0);
  }
  m.r2 = r2 / static_cast<double>(k);
  m.mae = sums.abs_sum / (n * static_cast<double>(k)) / scale;
  m.rmse = std::sqrt(sse / (n * static_cast<double>(k))) / scale;
  return m;
}

std::pair<double, std::optional<double>> evaluate(Model& model, const TensorPair& split,
                                                  bool classification, int64_t batch_size) {
  return evalMeans(evaluateSums(model, split, classification, batch_size), classification);
}

EvalSums evaluateSharded(DistContext& dist, Model& model, const TensorPair& split,
                         bool classification, int64_t batch_size) {
  const auto [first, count] = evaluationShard(split.size(), dist.rank(), dist.worldSize());
  TensorPair part = split;
  if (split.size() > 0 && split.on_disk) {
    part.index = split.index.narrow(0, first, count);
    part.y = split.y.narrow(0, first, count);
  } else if (split.size() > 0) {
    part.x = split.x.narrow(0, first, count);
    part.y = split.y.narrow(0, first, count);
  }
  EvalSums local = evaluateSums(model, part, classification, batch_size);
  // Every rank packs the same layout (an empty shard too): the regression sums per target.
  const size_t k = classification ? 0 : static_cast<size_t>(split.y.dim() > 1 ? split.y.size(1) : 1);
  for (auto* v : {&local.sq_err, &local.y_sum, &local.y_sq}) v->resize(k, 0.0);
  std::vector<double> packed = {local.loss_sum, static_cast<double>(local.correct),
                                static_cast<double>(local.count), local.abs_sum};
  for (const auto* v : {&local.sq_err, &local.y_sum, &local.y_sq})
    packed.insert(packed.end(), v->begin(), v->end());
  at::Tensor t = at::tensor(packed, at::TensorOptions().dtype(at::kDouble));
  dist.allReduceSum(t, "evaluation all-reduce");
  const double* v = t.data_ptr<double>();
  EvalSums all;
  all.loss_sum = v[0];
  all.correct = static_cast<int64_t>(v[1]);
  all.count = static_cast<int64_t>(v[2]);
  all.abs_sum = v[3];
  all.sq_err.assign(v + 4, v + 4 + k);
  all.y_sum.assign(v + 4 + k, v + 4 + 2 * k);
  all.y_sq.assign(v + 4 + 2 * k, v + 4 + 3 * k);
  return all;
}

}  // namespace trainscope

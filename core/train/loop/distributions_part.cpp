// The distributions reading of a run (distributions_part.h).
#include "core/train/loop/distributions_part.h"

#include <ATen/ATen.h>

#include "core/data/dataset.h"
#include "core/model/model.h"
#include "core/run/distribution_records.h"
#include "core/train/step/distributions.h"
#include "core/train/state/train_state.h"
#include "core/train/step/flat_gradients.h"
#include "core/train/step/step.h"
#include "core/train/trainer.h"

namespace trainscope {

DistributionsPart::DistributionsPart(PartHost& host, int64_t every, bool to_observers,
                                     RunFilesPart* files)
    : host_(host), every_(every > 0 ? every : kDefaultEvery), default_cadence_(every <= 0),
      to_observers_(to_observers), files_(files) {}

void DistributionsPart::onRunStart() { start_step_ = host_.runState().global_step; }

void DistributionsPart::onStepEnd(const StepResult&, int64_t epoch) {
  const int64_t step = host_.runState().global_step;
  if (step % every_ == 0 || (default_cadence_ && step - start_step_ == kDefaultFirstStep))
    read(step, epoch);
}

void DistributionsPart::onEpochEnd(const EpochEnd& end) {
  const int64_t step = host_.runState().global_step;
  if (default_cadence_ && end.last && step != last_read_ && step > 0) read(step, end.record.epoch);
}

void DistributionsPart::read(int64_t step, int64_t epoch) {
  last_read_ = step;
  TrainState& state = host_.runState();
  DistributionRecord r;
  r.step = step;
  r.epoch = epoch;
  const NamedTensors params = state.model->named_parameters();
  const at::Tensor& grads = state.grads->buffer();
  int64_t offset = 0;
  for (const auto& [name, p] : params) {
    r.weights.push_back(describeValues(p, name));
    const int64_t n = p.numel();
    if (grads.defined() && offset + n <= grads.numel())
      r.gradients.push_back(describeValues(grads.narrow(0, offset, n), name));
    offset += n;
  }
  if (!batch_taken_) {
    batch_taken_ = true;
    const TensorPair& val = host_.runData().val;
    const int64_t k = std::min<int64_t>(kActivationSamples, val.size());
    if (k > 0 && !params.empty()) {
      batch_ = val.rows(0, k).x.to(params.front().second.device());
      // The largest activation layer's values a sample, from one sample's pass.
      int64_t widest = 0;
      for (const TensorDistribution& d : activationDistributions(*state.model, batch_.narrow(0, 0, 1)))
        widest = std::max(widest, d.count);
      if (widest > 0 && k * widest > kMaxDescribedValues)
        batch_ = batch_.narrow(0, 0, std::max<int64_t>(8, std::min(k, kMaxDescribedValues / widest)));
    }
  }
  if (batch_.defined()) {
    r.activations = activationDistributions(*state.model, batch_);
    r.activation_samples = r.activations.empty() ? 0 : batch_.size(0);
  }
  if (files_) files_->writeDistributions(r);
  if (to_observers_)
    for (TrainerObserver* o : host_.runObservers()) o->onDistributions(r);
}

}  // namespace trainscope

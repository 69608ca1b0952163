#include "core/train/step/amp_control.h"

#include "core/system/number_format.h"
#include "core/train/step/autocast.h"

namespace trainscope {

void setAmp(TrainState& s, bool enabled) {
  s.amp = enabled;
  if (enabled && ampNeedsScaler(s.device) && !s.scaler) s.scaler = std::make_unique<GradScaler>();
  clearAutocastCache();
}

std::string describeAmp(const TrainState& s) {
  return ampNeedsScaler(s.device) ? "fp16 autocast with loss scaling" : "bf16 autocast";
}

Event ampChangedEvent(const TrainState& s, bool enabled, int64_t epoch) {
  Event e;
  e.step = s.global_step;
  e.epoch = epoch;
  e.kind = EventKind::ConfigChanged;
  e.what = "training.amp";
  e.value = enabled ? 1.0 : 0.0;
  e.message = std::string("AMP ") + (enabled ? "on (" + describeAmp(s) + ")" : "off (float32)") +
              " from step " + std::to_string(s.global_step + 1);
  return e;
}

Event scalerSkipsEvent(double loss_scale, int64_t step, int64_t epoch, const std::string& policy) {
  Event e;
  e.step = step;
  e.epoch = epoch;
  e.kind = EventKind::NonFinite;
  e.what = "grad_norm";
  e.value = loss_scale;
  e.message = "the GradScaler skipped " + std::to_string(ScalerSkipWatch::kMaxInARow) +
              " steps in a row (inf/NaN gradients at every loss scale down to " +
              formatNumber(loss_scale) + ") at step " + std::to_string(step) + ", epoch " +
              std::to_string(epoch) +
              ". Usual causes: learning rate too high, inputs not normalised, a layer that "
              "overflows fp16. Policy: " +
              policy;
  return e;
}

}  // namespace trainscope

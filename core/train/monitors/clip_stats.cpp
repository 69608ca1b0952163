#include "core/train/monitors/clip_stats.h"

#include <cmath>

#include "core/system/number_format.h"

namespace trainscope {

std::optional<ClipStats::Warning> ClipStats::onStep(int64_t step, double grad_norm, bool enabled,
                                                    double max_norm) {
  if (!have_setting_ || enabled != enabled_ || max_norm != max_norm_) {
    have_setting_ = true;
    enabled_ = enabled;
    max_norm_ = max_norm;
    window_.clear();
    window_clipped_ = 0;
    since_change_ = 0;
    max_seen_ = 0;
    never_warned_ = false;
    always_warned_ = false;
  }
  if (!enabled || !std::isfinite(grad_norm)) return std::nullopt;
  const bool clipped = max_norm / (grad_norm + 1e-6) < 1.0;  // clip_grad_norm_'s factor < 1
  ++counted_run_;
  clipped_run_ += clipped;
  window_.push_back(clipped);
  window_clipped_ += clipped;
  if (static_cast<int>(window_.size()) > kWindow) {
    window_clipped_ -= window_.front();
    window_.pop_front();
  }
  ++since_change_;
  max_seen_ = std::max(max_seen_, grad_norm);

  if (!never_warned_ && since_change_ == kNeverSteps && max_seen_ < max_norm * kNeverFraction) {
    never_warned_ = true;
    return Warning{"clip_never_fires",
                   "clipping never fires: in " + std::to_string(kNeverSteps) +
                       " steps up to step " + std::to_string(step) +
                       " the largest gradient norm was " + formatHuman(max_seen_) +
                       ", under a tenth of max_norm " + formatNumber(max_norm) +
                       ", so clipping does nothing; lower training.clip.max_norm to act on spikes",
                   max_seen_};
  }
  const double share = shareRecent();
  if (always_warned_ && share <= kRearmShare) always_warned_ = false;
  if (!always_warned_ && static_cast<int>(window_.size()) == kWindow && share > kAlwaysShare) {
    always_warned_ = true;
    return Warning{"clip_always_fires",
                   "clipping fires on nearly every step: " + std::to_string(window_clipped_) +
                       " of the last " + std::to_string(kWindow) + " steps (up to step " +
                       std::to_string(step) + ") were clipped to max_norm " +
                       formatNumber(max_norm) +
                       ", so it acts as a fixed step size; try a lower learning rate or a larger "
                       "max_norm",
                   share};
  }
  return std::nullopt;
}

double ClipStats::shareRecent() const {
  return window_.empty() ? 0.0 : static_cast<double>(window_clipped_) / window_.size();
}

double ClipStats::shareRun() const {
  return counted_run_ == 0 ? 0.0 : static_cast<double>(clipped_run_) / counted_run_;
}

}  // namespace trainscope

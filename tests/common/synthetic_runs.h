#pragma once
// Synthetic runs for the loss doctor (core and GUI suites alike): a LossDoctor fed scripted step
// losses and epochs. Header-only, torch-free.
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/train/monitors/loss_doctor.h"

namespace testruns {

/// The doctor's reading of a run whose steps had the losses `steps` (step `non_finite_at`, when
/// > 0, not finite and not applied) and whose epochs had the {train, val} losses `epochs`;
/// `diverged`: a finite divergence was reported.
inline trainscope::Diagnosis diagnoseSynthetic(const std::vector<double>& steps,
                                               const std::vector<std::pair<double, double>>& epochs,
                                               const trainscope::DoctorContext& context = {},
                                               int64_t non_finite_at = 0, bool diverged = false) {
  trainscope::LossDoctor d;
  for (size_t i = 0; i < steps.size(); ++i) {
    const bool bad = static_cast<int64_t>(i + 1) == non_finite_at;
    d.onStep(bad ? INFINITY : steps[i], !bad);
  }
  int64_t n = 0;
  for (auto [train, val] : epochs) {
    trainscope::EpochRecord r;
    r.epoch = ++n;
    r.train_loss = train;
    r.val_loss = val;
    d.onEpoch(r);
  }
  if (diverged) d.onDiverged();
  return d.diagnose(context);
}

}  // namespace testruns

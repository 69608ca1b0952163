#pragma once
/// What the loss doctor's gradient-growth rule reads of a run's steps (LossDoctor, the checkpoint's
/// `loss_doctor_state_dict`), so a resumed run's doctor reads the growth over the whole run as
/// the uninterrupted one does: plain data, no torch.
#include <cstdint>
#include <vector>

namespace trainscope {

struct DoctorGrads {
  std::vector<double> first;   ///< the first applied steps' finite grad norms (<= kInitialSteps)
  std::vector<float> samples;  ///< every `stride`-th applied step's norm (<= kGradSamples)
  int64_t stride = 1;          ///< a power of two
  int64_t seen = 0;            ///< applied steps with a finite grad norm so far
};

}  // namespace trainscope

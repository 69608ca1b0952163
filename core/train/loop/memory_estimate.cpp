#include "core/train/loop/memory_estimate.h"

#include "core/config/kinds.h"  // the optimizer's state buffers

namespace trainscope {

MemoryEstimate estimateMemory(const std::vector<int64_t>& widths, int64_t batch_size,
                              const std::string& optimizer, double momentum, int64_t data_bytes) {
  return estimateFootprintMemory(mlpFootprint(widths), batch_size, optimizer, momentum, data_bytes);
}

MemoryEstimate estimateFootprintMemory(const ModelFootprint& footprint, int64_t batch_size,
                                       const std::string& optimizer, double momentum,
                                       int64_t data_bytes) {
  constexpr int64_t kFloat = 4;
  MemoryEstimate e;
  const int64_t params = footprint.parameters;
  const int64_t activation_floats = batch_size * footprint.activation_floats_per_sample;
  e.parameters = params * kFloat;
  e.gradients = params * kFloat;
  const OptimizerKind* kind = findOptimizerKind(optimizer);
  const int64_t copies = kind ? kind->state_buffers(momentum) : 2;
  e.optimizer_state = copies * params * kFloat;
  e.activations = activation_floats * kFloat;
  e.data = data_bytes;
  return e;
}

std::string memoryWarning(const MemoryEstimate& e, int64_t available) {
  if (e.total() <= available) return "";
  std::string largest = "the data";
  int64_t most = e.data;
  auto consider = [&](int64_t v, const char* what) {
    if (v > most) most = v, largest = what;
  };
  consider(e.parameters + e.gradients + e.optimizer_state,
           "the parameters, gradients and optimizer state");
  consider(e.activations, "the activations of one batch");
  return "this run needs about " + formatBytes(e.total()) + " of memory but only " +
         formatBytes(available) + " is available (MemAvailable); the largest part is " + largest +
         " (" + formatBytes(most) +
         "). It may swap or be killed: lower training.batch_size (with "
         "training.grad_accum_steps to keep the effective batch), or use a smaller model";
}

}  // namespace trainscope

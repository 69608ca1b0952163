#include "core/train/loop/memory_check.h"

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/train/loop/memory_estimate.h"

namespace trainscope {

std::optional<Event> checkRunMemory(const TrainConfig& c, const PreparedData& d,
                                    int64_t& estimate_bytes) {
  estimate_bytes = 0;
  if (c.training.device.rfind("cuda", 0) == 0) return std::nullopt;
  const ModelKind& kind = modelKind(c.model.kind);
  const ModelFootprint footprint =
      kind.footprint(c.model, d.summary.input_shape, d.summary.image_shape, d.summary.outputs);
  int64_t data_bytes = 0;
  for (const TensorPair* p : {&d.train, &d.val, &d.test})
    data_bytes += p->residentBytes();
  const MemoryEstimate e = estimateFootprintMemory(
      footprint, c.training.batch_size, c.optimizer.name, c.optimizer.momentum, data_bytes);
  estimate_bytes = e.total();
  if (const std::optional<int64_t> total = totalMemoryBytes(); total && estimate_bytes > *total) {
    const int64_t model = e.parameters + e.gradients + e.optimizer_state;
    const std::string key = model >= e.activations ? kind.size_key : "training.batch_size";
    throw Error(ErrorCode::Config, key,
                key + ": the run needs an estimated " + formatBytes(estimate_bytes) +
                    " (parameters, gradients and optimizer state " + formatBytes(model) +
                    ", activations of a batch " + formatBytes(e.activations) + ", data " +
                    formatBytes(e.data) + "), more than this machine's memory (" +
                    formatBytes(*total) + " with swap, " +
                    formatBytes(availableMemoryBytes().value_or(0)) +
                    " available): use a smaller " + kind.size_key + " or training.batch_size");
  }
  const std::optional<int64_t> available = availableMemoryBytes();
  if (!available) return std::nullopt;
  const std::string warning = memoryWarning(e, *available);
  if (warning.empty()) return std::nullopt;
  Event ev;
  ev.kind = EventKind::MemoryWarning;
  ev.what = "memory";
  ev.value = static_cast<double>(estimate_bytes);
  ev.message = warning;
  return ev;
}

}  // namespace trainscope
